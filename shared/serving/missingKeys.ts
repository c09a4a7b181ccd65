import { missingScalingKeys } from '../rope/requiredKeys';
import type { RopeType } from '../rope/spec';
import { scalingTypeOf } from './consumer';

/**
 * transformers' KeyError for a scaling dict that lacks a key its type requires (4.57.6 and 5.18.0 raise it at load;
 * the keys listed in the order requiredScalingKeys gives, where Python prints a set in hash order).
 */
export function missingKeysError(
  scaling: Record<string, unknown> | undefined,
  dictName: 'rope_scaling' | 'rope_parameters',
  generation: 'v4' | 'v5',
): string | undefined {
  const type = scalingTypeOf(scaling);
  if (!scaling || type === 'none' || !['linear', 'dynamic', 'yarn', 'longrope', 'llama3'].includes(type)) return undefined;
  const missing = missingScalingKeys(type as RopeType, scaling, generation);
  if (!missing.length) return undefined;
  const raw = scaling['rope_type'] ?? scaling['type'];
  return `KeyError: "Missing required keys in \`${dictName}\` for 'rope_type'='${String(raw)}': {${missing.map((k) => `'${k}'`).join(', ')}}"`;
}
