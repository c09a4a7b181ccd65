/**
 * Which rotary table a layer kind reads, where a model's rotary embedding keys its tables by something other
 * than the layer type. DeepSeek-V4 (transformers 5.18.0, DeepseekV4RotaryEmbedding and DeepseekV4Attention):
 * two tables keyed `main` and `compress`; sliding-window-only layers read `main` (rope_theta, default RoPE),
 * the compressed-attention layers (CSA and HCA) read `compress` (compress_rope_theta, the file's YaRN).
 */
import type { Located, ScalingDescription } from './modelRope';
import { noted } from './modelValues';

const TABLES: Record<string, Record<string, string>> = {
  deepseek_v4: { full_attention: 'compress', sliding_attention: 'main' },
};

/** The table name layers of this kind read, or undefined where tables are keyed by layer type. */
export function rotaryTableOf(modelType: string | undefined, layerKind: string): string | undefined {
  return TABLES[modelType ?? '']?.[layerKind];
}

/**
 * The per-table scalings DeepSeek-V4's config builds from a flat `rope_scaling` / `rope_parameters` (5.18.0,
 * DeepseekV4Config.__post_init__): the `compress` table takes the scaling's keys with `compress_rope_theta` as its
 * base, and a YaRN there gets `attention_factor` 1.0 unless stated (the reference does not scale cos/sin by
 * YaRN's mscale); `main` runs default RoPE at `rope_theta`. Undefined for other models, or with no scaling.
 */
export function tablesFromFlatScaling(modelType: string | undefined, scaling: ScalingDescription | undefined): Record<string, ScalingDescription> | undefined {
  if (modelType !== 'deepseek_v4' || !scaling) return undefined;
  const params: ScalingDescription['params'] = {};
  for (const [k, v] of Object.entries(scaling.params)) if (k !== 'rope_theta' && k !== 'partial_rotary_factor') params[k] = v;
  if (scaling.type === 'yarn' && params.attention_factor === undefined) {
    params.attention_factor = noted(1, "attention_factor 1.0 (not in the file; DeepSeek-V4's config sets it for the compressed layers' YaRN)");
  }
  return { compress: { ...scaling, params } };
}

/**
 * The head a per-table `partial_rotary_factor` is a fraction of, where it is not the head the reader resolved:
 * DeepSeek-V4 writes `partial_rotary_factor` 0.125 of its 512-wide `head_dim` (64 rotated dims, its
 * `qk_rope_head_dim`).
 */
export function tableFactorHead(modelType: string | undefined, headDim: Located<number> | undefined): Located<number> | undefined {
  return modelType === 'deepseek_v4' ? headDim : undefined;
}
