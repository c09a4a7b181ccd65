/**
 * training/context-exceeded (warning): the training length is beyond the context the base model
 * was trained at (its trained context T: the config's original context, the catalog, else
 * max_position_embeddings) and nothing extends it (no scaling, no new base). axolotl then only
 * raises max_position_embeddings, so training silently extrapolates (advice.md, situation 6).
 * Fixes are situation 3's, from T, in the trainer's own keys (fixes/extension.ts); for a model
 * defined in the YAML, the context itself.
 */
import type { Fix } from '../core/findings';
import { torchtuneMaxSeqLen } from '../config/trainers/torchtuneLimit';
import { yamlBaseLands } from '../config/effectiveModel';
import type { ModelRope } from '../config/modelRope';
import { Rule, RuleContext, finding, fmt, numParam, pathTo, rangeFor } from './context';
import { trainingTarget } from './targets';
import { extensionFixes } from '../fixes/extension';
import { trainedContextOf } from '../config/trainedContext';
import { isLlamaFamily } from './families';
import { roundFactor } from '../fixes/rewrites';
import { derivativeNote, differencesText, modelReach, ropeReachAt } from '../config/reach';
import { boundable, robustBaseOf, robustOf } from './bound';
import { catalogCitation } from '../config/catalog';

export const CONTEXT_EXCEEDED = 'training/context-exceeded';

export const contextExceededRule: Rule = {
  codes: [CONTEXT_EXCEEDED],
  check(ctx) {
    const t = ctx.training;
    const rope = ctx.effective;
    const seq = t?.sequenceLength;
    if (!t || !rope || !seq || !t.trains) return [];
    const L = seq.value;
    const mpe = rope.contextLength.value;
    if (!Number.isFinite(mpe)) return [];
    const s = rope.scaling;
    const scaled = (s && s.type !== 'default' && s.type !== undefined) || t.scalingByName !== undefined;
    if (scaled) {
      // A static scaling covers the larger of original × factor and the context the model declares
      // with it (Llama-3.1: llama3 factor 8 over 8,192, declared for 131,072); beyond that it
      // extrapolates too. A linear factor is counted once (config/reach.ts): LLaMA-2-7B-32K ships
      // 32,768 = 4,096 × 8 and covers 32,768, not 32,768 × 8.
      const factor = numParam(s, 'factor');
      const original = numParam(s, 'original_max_position_embeddings') ?? rope.originalContextLength?.value;
      if (t.scalingByName || !factor || s?.type === 'dynamic' || (s?.type !== 'linear' && !original)) return [];
      const linear = s?.type === 'linear' ? modelReach(rope) : undefined;
      const reach = linear ? linear.value : original! * factor;
      const limit = linear ? reach : Math.max(reach, mpe);
      if (L <= limit) return [];
      const type = s?.rawType?.value ?? s?.type;
      const from = ctx.resolved ? ` from ${ctx.resolved.from}` : '';
      const source = linear
        ? `${linear.basis}${from}`
        : reach >= mpe
          ? `original ${fmt(original!)} × ${type} factor ${fmt(factor)}${from}`
          : `${rope.contextLength.key ?? 'max_position_embeddings'} ${fmt(mpe)}${from}, declared with its ${type} scaling of factor ${fmt(factor)} over the original ${fmt(original!)}`;
      // Rescale from the context before scaling: a new factor for this length, in the trainer's keys.
      const T = linear ? Math.round(reach / factor) : original!;
      // The factor the scaling fixes write (L / T rounded up to a quarter), so message and fixes say one number.
      const rescaled = roundFactor(L / T);
      const message = `Training at ${fmt(L)} tokens extrapolates positions past the ${fmt(limit)} this model's scaling covers.`;
      const detail =
        `It covers ${fmt(limit)} tokens (${source}). ` +
        `Scale from the ${linear ? 'unscaled' : 'trained'} context ${fmt(T)} by factor ${fmt(rescaled)} instead${rescaled === L / T ? '' : ` (${fmt(L)} / ${fmt(T)} rounded up to a quarter)`}.`;
      return [finding(CONTEXT_EXCEEDED, 'warning', message, rangeFor(ctx.doc, seq), fixesFor(ctx, L, T, true), detail)];
    }
    if (yamlBaseLands(t, rope, ctx.resolved?.rope)) return [];
    // torchtune refuses such inputs outright (trainerRuntime.ts, torchtune/beyond-max-seq-len): nothing extrapolates.
    const torchtuneLimit = torchtuneMaxSeqLen(t, rope);
    if (torchtuneLimit !== undefined && L > torchtuneLimit) return [];
    const trained = t.ownModel ? { value: mpe, source: 'config' } : trainedContextOf(rope);
    const T = trained.value;
    if (!(L > T)) return [];
    // Layers with a sliding window never see a distance beyond it: when every RoPE layer attends
    // within the trained context, training longer extrapolates nothing.
    if (!t.ownModel && ropeReachAt(rope, L) <= T) return [];
    const beyond =
      T < mpe
        ? `${fmt(T)} is the context the model was trained at (${trainedSourceText(trained.source, rope)}; it declares ${fmt(mpe)}).`
        : `${fmt(T)} is the model's context (${rope.contextLength.key ?? 'max_position_embeddings'}${ctx.resolved ? ` from ${ctx.resolved.from}` : ''}).`;
    const message = `Training at ${fmt(L)} tokens extrapolates positions past ${fmt(T)}: no RoPE scaling is set.`;
    const detail = `${beyond}${t.tool === 'axolotl' ? ' axolotl only raises max_position_embeddings.' : ''}${T < mpe ? '' : derivativeNote(rope)}`;
    return [finding(CONTEXT_EXCEEDED, 'warning', message, rangeFor(ctx.doc, seq), fixesFor(ctx, L, T), detail)];
  },
};

function trainedSourceText(source: string, rope?: ModelRope): string {
  if (source.startsWith('catalog:')) return catalogCitation(source);
  if (rope?.derivativeOf) return `its own max_position_embeddings: a derivative of ${rope.derivativeOf.candidates[0]}, ${differencesText(rope.derivativeOf)}`;
  if (source.startsWith('config:')) return `its ${source.slice('config:'.length)}`;
  return 'its max_position_embeddings';
}

/** Situation-3 fixes from T; `rescale`: the model already has a scaling, so only new scaling blocks (a base change would run under the old one). */
function fixesFor(ctx: RuleContext, L: number, T: number, rescale = false): Fix[] {
  const t = ctx.training!;
  const rope = ctx.effective!;
  if (t.ownModel) {
    // The YAML defines the model: lengthen its context (the base is then judged at that length).
    const node = rope.contextLength.node;
    if (!node) return [];
    return [
      { title: `Set ${rope.contextLength.key ?? 'max_position_embeddings'} to ${L}`, kind: 'other', preferred: true, edits: ctx.editor.set(pathTo(node), L) },
    ];
  }
  const base = rope.base.value,
    dim = rope.rotaryDim.value;
  if (!Number.isFinite(base) || !Number.isFinite(dim)) return [];
  const target = trainingTarget(ctx);
  // The model's context is written beside the scaling block (axolotl's overrides, nanotron's model_config).
  const declaredContext = target.scalingPath
    ? { path: [...target.scalingPath.slice(0, -1), 'max_position_embeddings'], value: rope.contextLength.value }
    : undefined;
  return extensionFixes({
    target,
    rope,
    base,
    dim,
    trained: T,
    length: L,
    reach: L,
    declaredContext,
    llamaFamily: isLlamaFamily(rope.modelType),
    variant: ctx.variant,
    training: true,
    scalingOnly: rescale,
    // Trained frequencies are judged by the bound (docs/judgement.md): the base that meets it with a
    // proven ±10% is a candidate, as in `plan`, and a base counts as meeting it only with that proof.
    ...trainedBases(ctx, rescale, base, dim, L, target.basePath !== undefined),
  });
}

/** The smallest robust valid base and the neighbourhood proof for the other bases, where this file can write a base. */
function trainedBases(
  ctx: RuleContext,
  rescale: boolean,
  base: number,
  dim: number,
  L: number,
  writable: boolean,
): { robustBase?: number; provenBase?: (b: number) => boolean | undefined } {
  if (rescale || !writable || !boundable(base, dim, L)) return {};
  const limit = ctx.oracle.proofLimit;
  if (limit !== undefined && L > limit) return {};
  const robust = robustBaseOf(ctx, base, dim, L);
  const provenBase = (b: number) => {
    const v = robustOf(ctx, b, dim, L);
    return v === undefined ? undefined : v === null;
  };
  return { ...(robust !== undefined ? { robustBase: robust } : {}), provenBase };
}
