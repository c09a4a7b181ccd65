/**
 * vllm/legacy-rope-type on a `vllm serve` command: the same judgement as for the --config YAML
 * (rules/serving/legacyType.ts, vllm #20857): an override scaling object with the legacy `type`
 * and no `rope_type`. Fix: the override JSON rewritten with `rope_type`.
 */
import type { Finding } from '../../core/findings';
import { finding } from '../context';
import { LaunchRule, overrideKeyRange, overrideWriter } from './context';
import { modernScaling } from '../../serving/common';
import { LEGACY_ROPE_TYPE } from '../serving/legacyType';

export const launchLegacyTypeRule: LaunchRule = {
  codes: [LEGACY_ROPE_TYPE],
  check(ctx) {
    if (ctx.engine !== 'vllm') return [];
    const ov = ctx.request.overrides;
    if (!ov?.value) return [];
    const out: Finding[] = [];
    for (const key of ['rope_scaling', 'rope_parameters']) {
      const obj = ov.value[key];
      if (!obj || typeof obj !== 'object' || Array.isArray(obj)) continue;
      const o = obj as Record<string, unknown>;
      if (!('type' in o) || 'rope_type' in o) continue;
      const edits = overrideWriter(ctx, '--hf-overrides')({ [key]: modernScaling(o) });
      out.push(finding(LEGACY_ROPE_TYPE, 'information',
        `hf-overrides.${key} uses the legacy key \`type\`: current vLLM copies it to \`rope_type\` (patch_rope_parameters_dict), but releases from before that fail with KeyError: 'rope_type' (vllm #20857). Write rope_type: ${JSON.stringify(o['type'])} so every release reads it.`,
        overrideKeyRange(ctx, [key, 'type']),
        edits.length ? [{ title: `Rename \`type\` to \`rope_type\` in hf-overrides.${key}`, kind: 'other', preferred: true, edits }] : []));
    }
    return out;
  },
};
