/**
 * vllm/max-model-len-exceeds (error): `max-model-len` above the length vLLM derives for the model
 * with the file's overrides — vLLM raises "User-specified max_model_len (…) is greater than the
 * derived max_model_len (…)" (vllm/config/model.py::_get_and_verify_max_len) unless the
 * environment sets VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
 * vllm/context-beyond-trained (warning): accepted by vLLM, but beyond the trained context with no
 * RoPE scaling in effect, so positions past it are extrapolated.
 * Fixes (advice.md situation 3, in override form): YaRN {factor C/T, original T} (preferred),
 * linear, dynamic, llama3 for Llama models; and, for the error, max-model-len lowered to the derived length.
 */
import type { Fix, Finding } from '../../core/findings';
import { finding, fmt, rangeFor } from '../context';
import type { ServingRule, ServingRuleContext } from './context';
import { VLLM_LONG_ENV } from '../../serving/vllm';

export const MAX_LEN_EXCEEDS = 'vllm/max-model-len-exceeds';
export const SERVING_BEYOND_TRAINED = 'vllm/context-beyond-trained';

export const maxModelLenRule: ServingRule = {
  codes: [MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED],
  check(ctx) {
    const len = ctx.serving.maxModelLen;
    const { derived, trained, facts, effective } = ctx;
    if (!len || derived === undefined || trained === undefined || !facts || !effective) return [];
    const C = len.value;
    const unscaled = facts.type === 'none';
    const from = ctx.resolved ? ` from ${ctx.serving.model.value}` : '';
    const out: Finding[] = [];
    if (C > derived) {
      const basis = unscaled ? 'max_position_embeddings, no RoPE scaling' : `${facts.type} scaling`;
      out.push(finding(MAX_LEN_EXCEEDS, 'error',
        `max-model-len ${fmt(C)} is above the ${fmt(derived)} vLLM derives${from} (${basis}): vLLM raises ValueError at startup unless ${VLLM_LONG_ENV}=1, and positions past ${fmt(derived)} are extrapolated.`,
        rangeFor(ctx.doc, len), [...extensionFixes(ctx, C), lowerFix(ctx, derived)]));
    } else if (unscaled && C > trained) {
      out.push(finding(SERVING_BEYOND_TRAINED, 'warning',
        `max-model-len ${fmt(C)} is beyond the ${fmt(trained)} tokens ${ctx.serving.model.value} was trained at and no RoPE scaling is set: vLLM accepts it and extrapolates every position past ${fmt(trained)}.`,
        rangeFor(ctx.doc, len), extensionFixes(ctx, C)));
    }
    return out;
  },
};

function lowerFix(ctx: ServingRuleContext, derived: number): Fix {
  return { title: `Set max-model-len to ${derived}`, kind: 'other', edits: ctx.editor.set([ctx.serving.maxModelLen!.key ?? 'max-model-len'], derived) };
}

/** The scaling fixes, only when the model has none to extend (a scaled model is not rescaled). */
function extensionFixes(ctx: ServingRuleContext, C: number): Fix[] {
  const T = ctx.trained!;
  if (ctx.facts!.type !== 'none' || !(C > T)) return [];
  const s = C / T;
  const fixes: Fix[] = [
    { title: `Add YaRN to hf-overrides (factor ${fmt(s)}, original ${T})`, kind: 'yarn', preferred: true, edits: ctx.setOverride('rope_scaling', { rope_type: 'yarn', factor: s, original_max_position_embeddings: T }) },
    { title: `Add linear scaling to hf-overrides (factor ${fmt(s)})`, kind: 'linear', edits: ctx.setOverride('rope_scaling', { rope_type: 'linear', factor: s }) },
    { title: `Add dynamic NTK scaling to hf-overrides (factor ${fmt(s)})`, kind: 'dynamic', edits: ctx.setOverride('rope_scaling', { rope_type: 'dynamic', factor: s }) },
  ];
  if (ctx.effective!.modelType === 'llama') {
    // vLLM derives llama3 models' length from max_position_embeddings alone, so it moves with the scaling.
    fixes.push({
      title: `Add Llama-3 scaling to hf-overrides (factor ${fmt(s)}, original ${T})`, kind: 'llama3',
      edits: ctx.setOverride('rope_scaling', { rope_type: 'llama3', factor: s, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: T }),
    });
  }
  return fixes.filter((f) => f.edits.length > 0);
}
