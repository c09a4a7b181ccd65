/**
 * vllm/max-model-len-exceeds (error), vllm/context-beyond-trained (warning) and
 * vllm/static-yarn-within-trained (information) on a vLLM `--config` YAML. The judgement itself is shared with `vllm serve` commands
 * (rules/launch/vllmLength.ts): the same values give the same finding, message and fix titles;
 * here the edits write the YAML's `max-model-len` and `hf-overrides`.
 */
import { rangeFor } from '../context';
import type { ServingRule } from './context';
import { MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED, SERVING_STATIC_YARN, vllmLengthFindings } from '../launch/vllmLength';

export { MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED, SERVING_STATIC_YARN } from '../launch/vllmLength';

export const maxModelLenRule: ServingRule = {
  codes: [MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED, SERVING_STATIC_YARN],
  check(ctx) {
    const len = ctx.serving.maxModelLen;
    const { derived, trained, facts, effective } = ctx;
    if (!len || derived === undefined || trained === undefined || !facts || !effective) return [];
    return vllmLengthFindings({
      length: len.value, derived, trained, facts, effective,
      model: ctx.serving.model.value, resolved: !!ctx.resolved,
      windowsOff: ctx.serving.disableSlidingWindow?.value === true,
      range: rangeFor(ctx.doc, len),
      setOverrides: (values) => ctx.setOverrides(values),
      setLength: (n) => ctx.editor.set([ctx.serving.maxModelLen!.key ?? 'max-model-len'], n),
    });
  },
};
