/**
 * vllm/legacy-rope-type (information): an override's scaling object written with the legacy `type`
 * key and no `rope_type`. Older vLLM looked up `rope_type` and failed with KeyError: 'rope_type'
 * (vllm-project/vllm #20857); current vLLM copies `type` to `rope_type` with a log line
 * (vllm/transformers_utils/config.py::patch_rope_parameters_dict). Which release a user runs is not
 * known here, so the finding is information. Fix: the same object with `rope_type`.
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
      out.push(finding(LEGACY_ROPE_TYPE, 'information',
        `hf-overrides.${key} uses the legacy key \`type\`: current vLLM copies it to \`rope_type\` (patch_rope_parameters_dict), but releases from before that fail with KeyError: 'rope_type' (vllm #20857). Write rope_type: ${JSON.stringify(o['type'])} so every release reads it.`,
        node ? keyRangeOf(ctx.doc, node) : rangeFor(ctx.doc, hf.node),
        [{ title: `Rename \`type\` to \`rope_type\` in hf-overrides.${key}`, kind: 'other', preferred: true, edits: ctx.setOverride(key, modernScaling(o)) }]));
    }
    return out;
  },
};
