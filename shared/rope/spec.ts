/**
 * What the frequency math needs to know about a model's RoPE, free of file positions.
 * Field names follow transformers' `rope_scaling` / `rope_parameters` keys in camelCase.
 */
export type RopeType = 'default' | 'linear' | 'dynamic' | 'yarn' | 'longrope' | 'llama3';
export const ROPE_TYPES: readonly RopeType[] = ['default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3'];

/** Which transformers generation's formulas to follow where they differ (see README). */
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
  factor?: number;
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
}
