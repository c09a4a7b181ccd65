/**
 * How many dimensions of each head an engine rotates, where that was verified for the model type
 * (transformers generations set their own in transformers.ts). Readers disagree when a config
 * states the rotated part in a key only some of them read: MiniMax-M2's top-level `rotary_dim`.
 */
import type { ConsumerInput, ConsumerReading } from './consumer';
import { child } from '../document/configNode';

/**
 * vLLM's MiniMaxM2Attention takes `rotary_dim=config.rotary_dim` and, when rope_parameters has no
 * partial_rotary_factor, sets it to rotary_dim / head_dim
 * (vllm/model_executor/models/minimax_m2.py @ 01d9958).
 */
function vllmMiniMaxM2(input: ConsumerInput): number | undefined {
  const rp = input.view.ropeParameters;
  if (typeof rp?.['partial_rotary_factor'] === 'number') return Math.trunc(input.rope.headDim.value * rp['partial_rotary_factor']);
  const dim = child(input.view.scope, 'rotary_dim');
  return dim?.kind === 'number' && typeof dim.value === 'number' ? dim.value : undefined;
}

/** The row with the rotary dimensions its engine rotates, when verified for this model type. */
export function withEngineRotaryDim(row: ConsumerReading, input: ConsumerInput): ConsumerReading {
  if (row.rotaryDim !== undefined || row.status !== 'reads') return row;
  const dim = row.consumer === 'vllm' && input.view.modelType === 'minimax_m2' ? vllmMiniMaxM2(input) : undefined;
  return dim === undefined ? row : { ...row, rotaryDim: dim };
}
