/**
 * What the Gemma-4 line's config classes (Gemma4TextConfig, Gemma4UnifiedTextConfig, DiffusionGemmaTextConfig in
 * transformers 5.18.0, `__post_init__`) fill in when a config.json leaves it out. They keep no legacy keys: a file
 * without `rope_parameters` runs the class's own per-layer-type defaults (a top-level `rope_theta` is not read),
 * `layer_types` defaults to every 6th layer full attention, the last layer is always made full attention, and the
 * full-attention layers have a `global_head_dim` head (512 unless stated).
 */
import type { Located, ScalingDescription } from './modelRope';
import { noted } from './modelValues';
import { ropeTypeOf } from '../rope/spec';
import { DEFAULT_LAYER_TYPE_ROPE_5 } from './transformers5Classes';

/** The model types whose text config is one of these classes (a wrapper's own type included). */
const TEXT_CLASS_OF: Record<string, string> = {
  gemma4: 'gemma4_text',
  gemma4_text: 'gemma4_text',
  gemma4_unified: 'gemma4_unified_text',
  gemma4_unified_text: 'gemma4_unified_text',
  diffusion_gemma: 'diffusion_gemma_text',
  diffusion_gemma_text: 'diffusion_gemma_text',
};

export function isGemma4Text(modelType: string | undefined): boolean {
  return TEXT_CLASS_OF[modelType ?? ''] !== undefined;
}

export const GEMMA4_LAST_LAYER_FULL = "the last layer made full attention, as Gemma-4's config class does";

/** `layer_types` as the class builds it when the file has none (`sliding_window_pattern = 6`). */
export function gemma4DefaultLayerTypes(layers: number): string[] {
  const types = Array.from({ length: layers }, (_, i) => ((i + 1) % 6 !== 0 ? 'sliding_attention' : 'full_attention'));
  if (types.length) types[types.length - 1] = 'full_attention';
  return types;
}

export function gemma4DefaultGlobalHeadDim(modelType: string | undefined): Located<number> | undefined {
  return isGemma4Text(modelType) ? noted(512, "default global_head_dim 512 (not in the file; Gemma-4's full-attention head)") : undefined;
}

/**
 * The class's default `rope_parameters`, one scaling per layer type, every value marked as a default
 * (no node: nothing in the file to point at or edit). `ignored` names a top-level base the class does not read.
 */
export function gemma4DefaultScalings(modelType: string | undefined, ignored?: Located<number>): Record<string, ScalingDescription> | undefined {
  const table = DEFAULT_LAYER_TYPE_ROPE_5[TEXT_CLASS_OF[modelType ?? ''] ?? ''];
  if (!table) return undefined;
  const unread = ignored ? `; ${ignored.key ?? 'rope_theta'} ${ignored.value} in the file is not read` : '';
  const out: Record<string, ScalingDescription> = {};
  for (const [layerType, entry] of Object.entries(table)) {
    const params: ScalingDescription['params'] = {};
    for (const [key, value] of Object.entries(entry)) {
      params[key] = noted(value, `default rope_parameters.${layerType}.${key} ${value} (not in the file; Gemma-4's config class${unread})`);
    }
    const rawType = String(entry.rope_type ?? 'default');
    out[layerType] = { type: ropeTypeOf(rawType), rawType: noted(rawType, params.rope_type?.note ?? ''), params };
  }
  return out;
}
