/**
 * vLLM: the maximum model length it derives from a config, and the `vllm serve` command that runs
 * the model at a context with the config's scaling.
 *
 * Rules read from vllm-project/vllm `vllm/config/model.py::_get_and_verify_max_len` (commit
 * 0052a5b818980ce8a0477706aaf9f75bd5af72cd) and
 * `vllm/transformers_utils/config.py::patch_rope_parameters`:
 *  - the base length is the SMALLEST of max_position_embeddings, n_positions, max_seq_len,
 *    seq_length, model_max_length, max_target_positions, max_sequence_length, max_seq_length,
 *    seq_len; a `model_max_length` in the config replaces it; none of them → 2048;
 *  - rope scaling (legacy `type` patched to `rope_type`), skipped for gemma3 (already scaled):
 *    su/longrope/llama3 leave it; any other type multiplies by `factor` (default 1), and yarn
 *    first replaces the base by `original_max_position_embeddings`;
 *  - with `--disable-sliding-window`, a `sliding_window` (hf_text_config.sliding_window, as
 *    transformers leaves it: Qwen2/3 with use_sliding_window false keep None) smaller than that
 *    length replaces it BEFORE the rope factor is applied (so a Mistral-7B-v0.1 derives 4,096,
 *    a Gemma-3 1,024: every layer then attends in full, capped at the window);
 *  - `--max-model-len` above that raises ValueError unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1;
 *  - without `--max-model-len`, longrope models default to original_max_position_embeddings.
 * `--rope-scaling` / `--rope-theta` were removed (vllm PR #28006): scaling goes in `--hf-overrides`.
 */
import type { ServingInput, ServingPlan } from './types';
import {
  ScalingFacts, argNumber, factsOfObject, grouped, isHandAddedType, jsonText, lengthKeys, modelRef, modernScaling,
  overrideAt, extendedScaling, extensionFrom, reachNotes, scalingFacts, staticYarnNote, targetContext,
} from './common';
import { derivativeNote } from '../config/reach';

const LENGTH_KEYS = ['max_position_embeddings', 'n_positions', 'max_seq_len', 'seq_length', 'model_max_length', 'max_target_positions', 'max_sequence_length', 'max_seq_length', 'seq_len'];
const DEFAULT_LEN = 2048;

export const VLLM_LONG_ENV = 'VLLM_ALLOW_LONG_MAX_MODEL_LEN';

/** The unscaled length vLLM starts from, and the key it came from. */
export function vllmBaseLength(input: ServingInput): { value: number; key: string } {
  const keys = lengthKeys(input);
  let best: { value: number; key: string } | undefined;
  for (const k of LENGTH_KEYS) {
    const v = keys[k];
    if (typeof v === 'number' && Number.isFinite(v) && (!best || v < best.value)) best = { value: v, key: k };
  }
  if (typeof keys['model_max_length'] === 'number') best = { value: keys['model_max_length'], key: 'model_max_length' };
  return best ?? { value: DEFAULT_LEN, key: 'default' };
}

export interface VllmEngineOptions {
  /** `--disable-sliding-window` (`disable-sliding-window: true` in a `--config` YAML). */
  disableSlidingWindow?: boolean;
}

/** The sliding window vLLM reads (hf_text_config.sliding_window), or undefined when windows are off. */
export function vllmSlidingWindow(input: ServingInput): number | undefined {
  const w = input.rope.slidingWindow?.value;
  return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : undefined;
}

/** vLLM's derived max_model_len for the config, or with `facts` in place of its scaling (an override). */
export function vllmDerivedMaxLen(input: ServingInput, facts: ScalingFacts = scalingFacts(input.rope), opts: VllmEngineOptions = {}): number {
  let derived = vllmBaseLength(input).value;
  const window = opts.disableSlidingWindow ? vllmSlidingWindow(input) : undefined;
  if (window !== undefined && window < derived) derived = window;
  const gemma3 = (input.rope.modelType ?? '').includes('gemma3');
  if (facts.type !== 'none' && !gemma3 && facts.type !== 'longrope' && facts.type !== 'llama3') {
    const factor = facts.factor ?? 1;
    // transformers v5 standardize_rope_params defaults yarn's original to max_position_embeddings.
    if (facts.type === 'yarn') derived = facts.original ?? input.rope.contextLength.value;
    derived *= factor;
  }
  return Math.floor(derived);
}

export function vllmPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const derivedMaxLen = vllmDerivedMaxLen(input, facts);
  const notes: string[] = [];
  let scaling: Record<string, unknown> | undefined;
  if (isHandAddedType(facts.type)) {
    scaling = modernScaling(facts.params);
    notes.push(`--hf-overrides repeats the config's ${facts.type} scaling so a hub copy without it (or a stock config.json) runs the same; vLLM removed --rope-scaling (PR #28006).`);
  } else if (facts.type === 'none') {
    const from = extensionFrom(input, facts, context);
    scaling = extendedScaling(facts, from, context);
    if (scaling) notes.push(`The config has no RoPE scaling and ${grouped(context)} is beyond the ${grouped(from!)} it was trained to: the override adds YaRN factor ${argNumber(context / from!)} (the preferred fix; static YaRN costs some quality on short inputs).${derivativeNote(input.rope)}`);
  } else if (facts.type === 'llama3' || facts.type === 'longrope') {
    notes.push(`${facts.type} scaling is read from the model's config.json; vLLM's derived length is max_position_embeddings (it does not multiply by factor for ${facts.type}).`);
    if (facts.type === 'longrope') notes.push(`Without --max-model-len vLLM serves longrope models at original_max_position_embeddings (${grouped(facts.original ?? input.trainedContext)}), so the flag is needed for the long context.`);
  } else {
    notes.push(`RoPE type '${facts.rawType}' is not one vLLM derives a length for; the command sets only --max-model-len.`);
  }
  const yarn = staticYarnNote(facts, input.trainedContext, context, 'vLLM');
  if (yarn) notes.push(yarn);
  notes.push(...reachNotes(input, facts, context, 'vLLM', derivedMaxLen));
  const overrides = scaling ? overrideAt(facts.keyPath, scaling) : null;
  const after = scaling ? vllmDerivedMaxLen(input, factsOfObject(input.rope, scaling, facts.keyPath)) : derivedMaxLen;
  const env: Record<string, string> = {};
  if (context > after) {
    env[VLLM_LONG_ENV] = '1';
    notes.push(`${grouped(context)} is above the ${grouped(after)} vLLM derives${scaling ? ' with the override' : ''}: it refuses --max-model-len without ${VLLM_LONG_ENV}=1, and positions past ${grouped(after)} are extrapolated.`);
  }
  const args = ['vllm', 'serve', modelRef(input), '--max-model-len', String(context)];
  if (overrides) args.push('--hf-overrides', jsonText(overrides));
  return { engine: 'vllm', derivedMaxLen, context, args, env, overrides, notes };
}
