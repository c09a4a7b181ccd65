/**
 * serving/model-unresolved (information): the `model` of a serving config is neither a local
 * folder, nor in the Hugging Face cache, nor in the catalog, so its derived length is unknown.
 */
import { finding, rangeFor, shown } from '../context';
import type { ServingRule } from './context';

export const SERVING_MODEL_UNRESOLVED = 'serving/model-unresolved';

export const unresolvedRule: ServingRule = {
  codes: [SERVING_MODEL_UNRESOLVED],
  check(ctx) {
    if (ctx.resolved) return [];
    return [finding(SERVING_MODEL_UNRESOLVED, 'information',
      `Model ${shown(ctx.serving.model.value)} was not found offline (local folder, Hugging Face cache, built-in catalog): max-model-len cannot be checked against the length vLLM derives.`,
      rangeFor(ctx.doc, ctx.serving.model))];
  },
};
