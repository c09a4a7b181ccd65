/**
 * vllm/removed-option (error): `rope-scaling` / `rope-theta` in a vLLM config. vLLM removed both
 * options (PR #28006, v0.11.1); a config file carrying them fails with "unrecognized arguments".
 * Fix: the same values under `hf-overrides` (`rope_scaling` in the modern spelling, `rope_theta`).
 */
import type { Finding } from '../../core/findings';
import { finding, keyRangeOf } from '../context';
import type { ServingRule } from './context';
import { modernScaling } from '../../serving/common';
import { mergeEdits } from './edits';

export const REMOVED_OPTION = 'vllm/removed-option';

/** One message for the YAML key and the command-line flag (rules/launch/grammar.ts): same finding, same words. */
export function removedOptionMessage(name: string): string {
  const target = /scaling/.test(name) ? 'rope_scaling' : 'rope_theta';
  return `vLLM removed the ${name} option (PR #28006, v0.11.1): vLLM stops with "unrecognized arguments". Pass the value through hf-overrides.${target} instead.`;
}

export const removedOptionRule: ServingRule = {
  codes: [REMOVED_OPTION],
  check(ctx) {
    const out: Finding[] = [];
    for (const r of ctx.serving.removed) {
      const isScaling = /scaling/.test(r.key);
      const target = isScaling ? 'rope_scaling' : 'rope_theta';
      const value = isScaling && r.value && typeof r.value === 'object' && !Array.isArray(r.value)
        ? modernScaling(r.value as Record<string, unknown>)
        : typeof r.value === 'number' ? r.value : undefined;
      const fixes = value === undefined ? [] : [{
        title: `Move ${r.key} into hf-overrides.${target}`, kind: 'other' as const, preferred: true,
        edits: mergeEdits(ctx.editor.remove([r.key]), ctx.setOverride(target, value as Record<string, unknown> | number)),
      }];
      out.push(finding(REMOVED_OPTION, 'error', removedOptionMessage(r.key),
        keyRangeOf(ctx.doc, r.node), fixes.filter((f) => f.edits.length > 0)));
    }
    return out;
  },
};
