/**
 * Keys written twice in one YAML mapping, found in one pass. The yaml package's own check
 * (`uniqueKeys: true`) compares each new key with every earlier one, so a mapping of 10,000 keys
 * costs 50 million comparisons (1.6 s for 90 KB); parse with `uniqueKeys: false` and ask here
 * instead. The same keys are reported: scalars with equal values, at the later key.
 */
import { isMap, isScalar, visit } from 'yaml';

export interface YamlKeyProblem {
  message: string;
  offset: number;
  length: number;
}

/** The message the yaml package gives a repeated key (its DUPLICATE_KEY error). */
export const DUPLICATE_KEY_MESSAGE = 'Map keys must be unique';

export function duplicateKeyErrors(doc: Parameters<typeof visit>[0]): YamlKeyProblem[] {
  const out: YamlKeyProblem[] = [];
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const k = pair.key;
        // A collection or alias as a key equals only itself; NaN equals nothing (the package compares with ===).
        if (!isScalar(k) || Number.isNaN(k.value)) continue;
        if (seen.has(k.value)) out.push({ message: DUPLICATE_KEY_MESSAGE, offset: k.range?.[0] ?? 0, length: 1 });
        else seen.add(k.value);
      }
    },
  });
  return out;
}
