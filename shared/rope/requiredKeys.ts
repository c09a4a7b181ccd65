/**
 * Keys transformers requires in a scaling dict, by rope type: a missing one is a KeyError at load ("Missing required
 * keys in `rope_scaling` for 'rope_type'='yarn': {'factor'}"). original_max_position_embeddings and rope_theta are
 * filled in by 5.x before it validates (from max_position_embeddings and the top level); 4.x fills neither for
 * llama3, so 4.43 – 4.57 also require llama3's original length (4.57.6 lists it in the error).
 */
import type { RopeType } from './spec';

const REQUIRED_5: Record<RopeType, readonly string[]> = {
  default: [],
  linear: ['factor'],
  dynamic: ['factor'],
  yarn: ['factor'],
  longrope: ['short_factor', 'long_factor'],
  llama3: ['factor', 'low_freq_factor', 'high_freq_factor'],
  proportional: [],
};

/** The required keys of a rope type for a transformers generation ('v4': 4.43 – 4.57, 'v5': 5.x). */
export function requiredScalingKeys(type: RopeType, generation: 'v4' | 'v5' = 'v5'): readonly string[] {
  const keys = REQUIRED_5[type];
  return generation === 'v4' && type === 'llama3' ? [...keys, 'original_max_position_embeddings'] : keys;
}

/** The required keys a scaling dict lacks (a null value counts as missing, as transformers' `in` test on None does not). */
export function missingScalingKeys(type: RopeType, params: Record<string, unknown>, generation: 'v4' | 'v5' = 'v5'): string[] {
  return requiredScalingKeys(type, generation).filter((k) => !(k in params) || params[k] === null || params[k] === undefined);
}
