/**
 * What the frequency math needs to know about a model's RoPE, free of file positions.
 * Field names follow transformers' `rope_scaling` / `rope_parameters` keys in camelCase.
 */
export type RopeType = 'default' | 'linear' | 'dynamic' | 'yarn' | 'longrope' | 'llama3' | 'proportional';
export const ROPE_TYPES: readonly RopeType[] = ['default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3', 'proportional'];

/**
 * The one table of other names for RoPE types, as transformers reads them: `su` is the legacy name
 * of `longrope` (Phi-3's first configs); `mrope` (Qwen2-VL) sections frequencies per axis but
 * computes them as `default`. Every reader of a written type goes through `ropeTypeOf`.
 */
export const ROPE_TYPE_ALIASES: Readonly<Record<string, RopeType>> = { su: 'longrope', mrope: 'default' };

/** The RoPE type a written name stands for (trimmed, any case, aliases resolved); undefined for a name no reader knows. */
export function ropeTypeOf(raw: string): RopeType | undefined {
  const t = raw.trim().toLowerCase();
  return ROPE_TYPE_ALIASES[t] ?? ((ROPE_TYPES as readonly string[]).includes(t) ? (t as RopeType) : undefined);
}

/** A written type with a legacy name replaced by the current one (`su` → `longrope`); any other name as written. */
export function currentTypeName(raw: string): string {
  return raw.trim().toLowerCase() === 'su' ? ROPE_TYPE_ALIASES['su'] : raw;
}

/** Which transformers generation's formulas to follow where they differ (see docs/freqs.md). */
export type TransformersVariant = 'v4' | 'v5';

export interface RopeSpec {
  ropeType: RopeType;
  /** rope_theta */
  base: number;
  /** Number of rotated channels (even): head_dim × partial_rotary_factor, or qk_rope_head_dim. */
  rotaryDim: number;
  /** max_position_embeddings (or the family's equivalent). */
  maxPositionEmbeddings: number;
  /** original_max_position_embeddings (inside the scaling dict, or top level as in Phi-3). */
  originalMaxPositionEmbeddings?: number;
  /**
   * Phi-3's top-level `original_max_position_embeddings`, when the config has one. transformers
   * gives it priority over the value inside the scaling dict (v5), and v4.45's longrope reads only
   * this one. Leave undefined when unknown; `originalMaxPositionEmbeddings` is then used.
   */
  topLevelOriginalMaxPositionEmbeddings?: number;
  factor?: number;
  /**
   * proportional (transformers v5, Gemma-4): the head width the exponents are laid on; `rotaryDim`
   * channels (rotaryDim / 2 pairs) rotate and the other headDim / 2 − rotaryDim / 2 pairs get
   * frequency 0, as transformers returns them.
   */
  headDim?: number;
  // yarn
  attentionFactor?: number;
  betaFast?: number;
  betaSlow?: number;
  mscale?: number;
  mscaleAllDim?: number;
  truncate?: boolean;
  // llama3
  lowFreqFactor?: number;
  highFreqFactor?: number;
  // longrope
  shortFactor?: number[];
  longFactor?: number[];
}

/** inv_freq as the model will use it, and the attention scaling applied to cos/sin. */
export interface RopeFrequencies {
  invFreq: Float64Array;
  attentionFactor: number;
  /** The factor the formulas actually used (e.g. yarn/longrope default to mpe / original). */
  effectiveFactor?: number;
  /** The original context the formulas actually used (after transformers' defaulting). */
  effectiveOriginalContext?: number;
  /** dynamic: the NTK-adjusted base at the requested sequence length. */
  effectiveBase?: number;
  /** yarn: the ramp's [low, high] dimension indices (after truncation when enabled). */
  correctionRange?: [number, number];
  /** longrope: whether `long_factor` (true) or `short_factor` (false) was applied. */
  usedLongFactor?: boolean;
}
