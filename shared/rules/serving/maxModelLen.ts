/**
 * vllm/max-model-len-exceeds (error): `max-model-len` above the length vLLM derives for the model
 * with the file's overrides — vLLM raises "User-specified max_model_len (…) is greater than the
 * derived max_model_len (…)" (vllm/config/model.py::_get_and_verify_max_len) unless the
 * environment sets VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
 * vllm/context-beyond-trained (warning): accepted by vLLM, but beyond what the model reaches: past
 * the trained context with no RoPE scaling in effect (and some RoPE layer without a window that
 * keeps it within), or past what its own scaling reaches (a linear model whose
 * max_position_embeddings already includes the factor: vLLM multiplies it again).
 * vllm/static-yarn-within-trained (information): YaRN on while max-model-len stays within the
 * original context; vLLM applies YaRN at every length (serving/common.ts, staticYarnNote).
 * Fixes (advice.md situation 3, in override form, each with its verdict): NTK-aware rope_theta,
 * YaRN {factor C/T, original T}, linear, dynamic, llama3 for Llama models; and, for the error,
 * max-model-len lowered to the derived length.
 */
import type { Fix, Finding } from '../../core/findings';
import { finding, fmt, rangeFor } from '../context';
import type { ServingRule, ServingRuleContext } from './context';
import { VLLM_LONG_ENV, vllmBaseLength, vllmSlidingWindow } from '../../serving/vllm';
import { derivativeNote, modelReach, ropeReachAt } from '../../config/reach';
import { judgedRewrites, RewriteCandidate } from '../../fixes/extension';
import { factorValue } from '../../fixes/rewrites';
import { ntkAwareBase } from '../../rope/seedMethods';
import { fmtPlain } from '../../core/format';

export const MAX_LEN_EXCEEDS = 'vllm/max-model-len-exceeds';
export const SERVING_BEYOND_TRAINED = 'vllm/context-beyond-trained';
export const SERVING_STATIC_YARN = 'vllm/static-yarn-within-trained';

export const maxModelLenRule: ServingRule = {
  codes: [MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED, SERVING_STATIC_YARN],
  check(ctx) {
    const len = ctx.serving.maxModelLen;
    const { derived, trained, facts, effective } = ctx;
    if (!len || derived === undefined || trained === undefined || !facts || !effective) return [];
    const C = len.value;
    const unscaled = facts.type === 'none';
    const model = modelName(ctx.serving.model.value);
    const from = ctx.resolved ? ` from ${model}` : '';
    const windowsOff = ctx.serving.disableSlidingWindow?.value === true;
    const reach = modelReach(effective, trained);
    const out: Finding[] = [];
    if (C > derived) {
      const capped = derivedBase(ctx) < vllmBaseLength({ rope: effective, trainedContext: trained }).value;
      const basis = capped ? `disable-sliding-window caps it at the sliding window ${fmt(derivedBase(ctx))}`
        : unscaled ? 'max_position_embeddings, no RoPE scaling' : facts.type ? `${facts.type} scaling` : unknownType(facts.rawType);
      out.push(finding(MAX_LEN_EXCEEDS, 'error',
        `max-model-len ${fmt(C)} is above the ${fmt(derived)} vLLM derives${from} (${basis}): vLLM raises ValueError at startup unless ${VLLM_LONG_ENV}=1, and positions past ${fmt(derived)} are extrapolated.`,
        rangeFor(ctx.doc, len), [...extensionFixes(ctx, C), lowerFix(ctx, derived)]));
    } else if (unscaled) {
      // The windows decide the reach: a layer with a 4,096 window never sees a farther distance,
      // unless disable-sliding-window turns them off (then every layer attends in full).
      const T = reach.unscaledFrom ?? trained;
      const seen = windowsOff ? C : ropeReachAt(effective, C);
      if (C > T && seen > T) {
        out.push(finding(SERVING_BEYOND_TRAINED, 'warning',
          `max-model-len ${fmt(C)} is beyond the ${fmt(T)} tokens ${model} was trained to and no RoPE scaling is set: vLLM accepts it and extrapolates every position past ${fmt(T)}.${derivativeNote(effective)}`,
          rangeFor(ctx.doc, len), extensionFixes(ctx, C)));
      }
    } else if (C > reach.value) {
      // Accepted (within vLLM's derived length) but past what the model's own scaling reaches:
      // vLLM multiplies a linear model's max_position_embeddings by the factor again.
      out.push(finding(SERVING_BEYOND_TRAINED, 'warning',
        `max-model-len ${fmt(C)} is beyond the ${fmt(reach.value)} tokens ${model} reaches (${reach.basis}): vLLM accepts up to ${fmt(derived)}, its own derived length, but positions past ${fmt(reach.value)} were never trained.`,
        rangeFor(ctx.doc, len), [lowerFix(ctx, reach.value)]));
    }
    const original = facts.original ?? trained;
    if (facts.type === 'yarn' && (facts.factor ?? 1) > 1 && C <= original) {
      out.push(finding(SERVING_STATIC_YARN, 'information',
        `YaRN factor ${fmt(facts.factor!)} is on while max-model-len ${fmt(C)} stays within the ${fmt(original)} tokens ${model} was trained at: vLLM applies YaRN at every length (static scaling), so short inputs lose some quality for no gain. Leave the scaling out unless inputs go past ${fmt(original)}.`,
        rangeFor(ctx.doc, len)));
    }
    return out;
  },
};

/** vLLM's length before the rope factor (the window, when disable-sliding-window capped it). */
function derivedBase(ctx: ServingRuleContext): number {
  const input = { rope: ctx.effective!, trainedContext: ctx.trained! };
  const window = vllmSlidingWindow(input);
  const base = vllmBaseLength(input).value;
  return ctx.serving.disableSlidingWindow?.value && window !== undefined && window < base ? window : base;
}

/** The model as written, unless what is written reads like a computation bug (then described). */
function modelName(v: string): string {
  return /NaN|undefined|\[object/.test(v) ? 'the model written there' : v;
}

/** A scaling type no engine knows, described without echoing a value that is not a plain name. */
function unknownType(raw: unknown): string {
  return typeof raw === 'string' && /^[\w.-]+$/.test(raw) ? `rope_type '${raw}', which vLLM does not know` : 'a rope_type vLLM cannot read';
}

function lowerFix(ctx: ServingRuleContext, derived: number): Fix {
  return { title: `Set max-model-len to ${derived}`, kind: 'other', edits: ctx.editor.set([ctx.serving.maxModelLen!.key ?? 'max-model-len'], derived) };
}

/**
 * advice.md situation 3 in override form, only when the model has no scaling to extend (a scaled
 * model is not rescaled): NTK-aware rope_theta, YaRN, linear, dynamic, llama3 for Llama models,
 * each with its verdict at the served length; the preferred one is ranked as for a model config
 * run as is. Overrides that do not move vLLM's derived length also set max_position_embeddings.
 */
function extensionFixes(ctx: ServingRuleContext, C: number): Fix[] {
  const rope = ctx.effective!;
  // From the model's own reach (its own values may already extend it), and only where some RoPE
  // layer would see past it (windows keep the others within).
  const T = modelReach(rope, ctx.trained!).unscaledFrom ?? ctx.trained!;
  const seen = ctx.serving.disableSlidingWindow?.value ? C : ropeReachAt(rope, C);
  if (ctx.facts!.type !== 'none' || !(C > T) || !(seen > T)) return [];
  const s = C / T;
  const factor = factorValue(s);
  const base = rope.base.value, dim = rope.rotaryDim.value;
  const common = { base, rotaryDim: dim, maxPositionEmbeddings: C };
  const candidates: RewriteCandidate[] = [];
  const add = (title: string, kind: Fix['kind'], values: Record<string, unknown>, spec: RewriteCandidate['spec'], seqLen?: number) => {
    const edits = ctx.setOverrides(values);
    if (edits.length) candidates.push({ fix: { title, kind, edits }, spec, seqLen });
  };
  if (Number.isFinite(base) && Number.isFinite(dim)) {
    const ntk = ntkAwareBase(base, s, dim);
    add(`Apply NTK scaling in hf-overrides: rope_theta ${fmtPlain(base)} → ${fmtPlain(ntk)} (s = ${fmt(s)}, d = ${dim}), max_position_embeddings ${C}`, 'ntk',
      { rope_theta: ntk, max_position_embeddings: C }, { ...common, ropeType: 'default', base: ntk });
  }
  add(`Add YaRN to hf-overrides (factor ${fmt(factor)}, original ${T})`, 'yarn',
    { rope_scaling: { rope_type: 'yarn', factor, original_max_position_embeddings: T } }, { ...common, ropeType: 'yarn', factor, originalMaxPositionEmbeddings: T });
  add(`Add linear scaling to hf-overrides (factor ${fmt(factor)})`, 'linear',
    { rope_scaling: { rope_type: 'linear', factor } }, { ...common, ropeType: 'linear', factor });
  add(`Add dynamic NTK scaling to hf-overrides (factor ${fmt(factor)})`, 'dynamic',
    { rope_scaling: { rope_type: 'dynamic', factor } }, { ...common, ropeType: 'dynamic', factor, maxPositionEmbeddings: T }, C);
  if (rope.modelType === 'llama') {
    // vLLM derives llama3 models' length from max_position_embeddings alone, so it moves with the scaling.
    add(`Add Llama-3 scaling to hf-overrides (factor ${fmt(factor)}, original ${T})`, 'llama3',
      { rope_scaling: { rope_type: 'llama3', factor, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: T }, max_position_embeddings: C },
      { ...common, ropeType: 'llama3', factor, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: T });
  }
  return judgedRewrites(candidates, { reach: C, variant: 'v5', training: false });
}
