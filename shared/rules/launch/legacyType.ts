/**
 * vllm/legacy-rope-type (information) on a vLLM request (a `vllm serve` command or its --config
 * YAML): an override scaling object written with the legacy `type` key and no `rope_type`. Older
 * vLLM looked up `rope_type` and failed with KeyError: 'rope_type' (vllm-project/vllm #20857);
 * current vLLM copies `type` to `rope_type` with a log line
 * (vllm/transformers_utils/config.py::patch_rope_parameters_dict). Which release a user runs is not
 * known here, so the finding is information. Fix: the override rewritten with `rope_type`.
 */
import type { Finding } from '../../core/findings';
import { finding } from '../context';
import { LaunchRule, engineOf, overrideKeyRange, overrideWriter } from './context';
import { modernScaling } from '../../serving/common';

export const LEGACY_ROPE_TYPE = 'vllm/legacy-rope-type';

export const launchLegacyTypeRule: LaunchRule = {
  codes: [LEGACY_ROPE_TYPE],
  check(ctx) {
    // Said under the engine's own code (vllm/legacy-rope-type), for the engine whose requests have them.
    const override = engineOf(ctx).override;
    if (!engineOf(ctx).ownCodes || !override) return [];
    const ov = ctx.request.overrides;
    if (!ov?.value) return [];
    const out: Finding[] = [];
    for (const key of ['rope_scaling', 'rope_parameters']) {
      const obj = ov.value[key];
      if (!obj || typeof obj !== 'object' || Array.isArray(obj)) continue;
      const o = obj as Record<string, unknown>;
      if (!('type' in o) || 'rope_type' in o) continue;
      const edits = overrideWriter(ctx, override.flag)({ [key]: modernScaling(o) });
      out.push(
        finding(
          LEGACY_ROPE_TYPE,
          'information',
          `vLLM releases before #20857 fail with KeyError on the legacy \`type\` in hf-overrides.${key}.`,
          overrideKeyRange(ctx, [key, 'type']),
          edits.length ? [{ title: `Rename \`type\` to \`rope_type\` in hf-overrides.${key}`, kind: 'other', preferred: true, edits }] : [],
          `Current vLLM copies \`type\` to \`rope_type\` (patch_rope_parameters_dict); releases from before that raise KeyError: 'rope_type'. Write rope_type: ${JSON.stringify(o['type'])} so every release reads it.`,
        ),
      );
    }
    return out;
  },
};
