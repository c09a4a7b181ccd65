/**
 * The longest sequence a torchtune model accepts: its builder's `max_seq_len`. A generic builder
 * takes it from the YAML (`model.max_seq_len`); the named builders fix it in code to the model's
 * context (torchtune/models/qwen2_5/_model_builders.py @ bd2a0fc: qwen2_5_7b_instruct 32,768,
 * qwen2_5_7b_base 131,072; llama3_1 131,072), which RoPE Lens reads as the base model's
 * max_position_embeddings. TransformerDecoder._validate_inputs (torchtune/modules/transformer.py)
 * raises ValueError for any longer input.
 */
import type { ModelRope } from '../modelRope';
import type { TrainingConfig } from '../training';

export function torchtuneMaxSeqLen(t: TrainingConfig, effective: ModelRope | undefined): number | undefined {
  if (t.tool !== 'torchtune') return undefined;
  const v = t.overrides.contextLength?.value ?? effective?.contextLength.value;
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : undefined;
}
