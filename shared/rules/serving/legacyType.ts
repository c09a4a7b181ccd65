/**
 * vllm/legacy-rope-type (error): an override's scaling object written with the legacy `type` key
 * and no `rope_type`. Passed through `--hf-overrides`, vLLM looks up `rope_type` and fails with
 * KeyError: 'rope_type' (vllm-project/vllm #20857). Fix: the same object with `rope_type`.
 */
import type { Finding } from '../../core/findings';
import { finding, keyRangeOf, rangeFor } from '../context';
import type { ServingRule } from './context';
import { modernScaling } from '../../serving/common';
import { child } from '../../document/configNode';

export const LEGACY_ROPE_TYPE = 'vllm/legacy-rope-type';

export const legacyTypeRule: ServingRule = {
  codes: [LEGACY_ROPE_TYPE],
  check(ctx) {
    const hf = ctx.serving.hfOverrides;
    if (!hf) return [];
    const out: Finding[] = [];
    for (const key of ['rope_scaling', 'rope_parameters']) {
      const obj = hf.value[key];
      if (!obj || typeof obj !== 'object' || Array.isArray(obj)) continue;
      const o = obj as Record<string, unknown>;
      if (!('type' in o) || 'rope_type' in o) continue;
      const node = hf.isString ? undefined : child(child(hf.node, key), 'type');
      out.push(finding(LEGACY_ROPE_TYPE, 'error',
        `hf-overrides.${key} uses the legacy key \`type\`: vLLM reads \`rope_type\` from overrides and fails with KeyError: 'rope_type' (vllm #20857). Write rope_type: ${JSON.stringify(o['type'])}.`,
        node ? keyRangeOf(ctx.doc, node) : rangeFor(ctx.doc, hf.node),
        [{ title: `Rename \`type\` to \`rope_type\` in hf-overrides.${key}`, kind: 'other', preferred: true, edits: ctx.setOverride(key, modernScaling(o)) }]));
    }
    return out;
  },
};
