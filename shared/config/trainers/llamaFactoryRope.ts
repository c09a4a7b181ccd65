/**
 * What LLaMA-Factory's `configure_rope` does with `rope_scaling: <name>` on a given base model
 * (src/llamafactory/model/model_utils/rope.py @ ff6d4d1, unchanged since cff4483 of 2025-12-09):
 * - the old length is the base model's `rope_scaling.original_max_position_embeddings` when its
 *   scaling block has one, else its `max_position_embeddings` (rope.py L44-47);
 * - training (model_max_length = cutoff_len, hparams/parser.py L647): cutoff_len ≤ old turns the
 *   scaling off (L53-55), else factor = float(ceil(cutoff_len / old)) (L63);
 * - inference (chat/api/webchat/export: model_max_length stays None) uses factor 2.0 (L64-65);
 * - max_position_embeddings becomes old × factor, a float (L71); yarn/dynamic/llama3 get
 *   original_max_position_embeddings = old, llama3 low 1.0 / high 4.0 (L74-79); the new dict
 *   replaces `rope_scaling` whole (L81).
 * Pure: the base model's description in, the outcome out.
 */
import type { ModelRope } from '../modelRope';
import type { TrainingConfig } from '../training';
import { LLAMA_FACTORY_DEFAULT_CUTOFF, LLAMA_FACTORY_SCALINGS } from './llamaFactory';

export type LlamaFactoryRopePlan =
  | { kind: 'none' }
  | { kind: 'unknown-name'; name: string }
  /** Training at a length within the old one: LLaMA-Factory logs "Disabling rope scaling". */
  | { kind: 'disabled'; name: string; length: number; old: number; oldFrom: string }
  | {
      kind: 'applied';
      name: string;
      mode: 'train' | 'inference';
      /** model_max_length in training; undefined in inference. */
      length?: number;
      factor: number;
      old: number;
      /** Where the old length was read: `rope_scaling.original_max_position_embeddings` or `max_position_embeddings`. */
      oldFrom: string;
      /** max_position_embeddings after the patch: old × factor (a float in Python). */
      newContext: number;
      /** The dict written over rope_scaling. */
      written: Record<string, string | number>;
    };

/** The old length configure_rope reads from the base model, and the key it came from. */
export function llamaFactoryOldLength(base: ModelRope): { old: number; from: string } {
  const orig = base.scaling?.params['original_max_position_embeddings']?.value;
  if (typeof orig === 'number' && Number.isFinite(orig) && orig > 0) return { old: orig, from: 'rope_scaling.original_max_position_embeddings' };
  return { old: base.contextLength.value, from: 'max_position_embeddings' };
}

/** model_max_length as LLaMA-Factory sets it: cutoff_len on `train`, unset on the inference entry points. */
export function llamaFactoryMaxLength(t: TrainingConfig): number | undefined {
  if (t.inference) return undefined;
  return t.sequenceLength?.value ?? LLAMA_FACTORY_DEFAULT_CUTOFF;
}

export function llamaFactoryRopePlan(t: TrainingConfig, base: ModelRope | undefined): LlamaFactoryRopePlan {
  if (t.tool !== 'llama-factory' || !t.scalingByName) return { kind: 'none' };
  const name = t.scalingByName.value.trim().toLowerCase();
  if (!LLAMA_FACTORY_SCALINGS.includes(name)) return { kind: 'unknown-name', name };
  if (!base || !Number.isFinite(base.contextLength.value)) return { kind: 'none' };
  const { old, from } = llamaFactoryOldLength(base);
  const length = llamaFactoryMaxLength(t);
  if (length !== undefined && length <= old) return { kind: 'disabled', name, length, old, oldFrom: from };
  const factor = length === undefined ? 2 : Math.ceil(length / old);
  const written: Record<string, string | number> = { rope_type: name, factor };
  if (name !== 'linear') written.original_max_position_embeddings = old;
  if (name === 'llama3') Object.assign(written, { low_freq_factor: 1, high_freq_factor: 4 });
  return {
    kind: 'applied',
    name,
    mode: length === undefined ? 'inference' : 'train',
    ...(length === undefined ? {} : { length }),
    factor,
    old,
    oldFrom: from,
    newContext: old * factor,
    written,
  };
}
