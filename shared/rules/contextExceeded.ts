/**
 * training/context-exceeded (warning): the training length is beyond the context the base model
 * was trained at (its trained context T: the config's original context, the catalog, else
 * max_position_embeddings) and nothing extends it (no scaling, no new base). axolotl then only
 * raises max_position_embeddings, so training silently extrapolates (advice.md, situation 6).
 * Fixes are situation 3's, from T, in the trainer's own keys (fixes/extension.ts); for a model
 * defined in the YAML, the context itself.
 */
import type { Fix, Finding } from '../core/findings';
import type { ModelRope } from '../config/modelRope';
import { Rule, RuleContext, finding, fmt, numParam, pathTo, rangeFor } from './context';
import { trainingTarget } from './targets';
import { extensionFixes } from '../fixes/extension';
import { trainedContextOf } from '../config/trainedContext';
import { isLlamaFamily } from './families';
import { derivativeNote, differencesText, modelReach, ropeReachAt } from '../config/reach';

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
      // A static scaling covers what the model reaches with it, each factor counted once (a linear
      // model whose max_position_embeddings already includes the factor reaches that, not mpe ×
      // factor); beyond that it extrapolates too.
      const factor = numParam(s, 'factor');
      const original = numParam(s, 'original_max_position_embeddings') ?? rope.originalContextLength?.value;
      if (t.scalingByName || !factor || s?.type === 'dynamic' || (s?.type !== 'linear' && !original)) return [];
      const reach = modelReach(rope);
      if (L <= Math.max(reach.value, s?.type === 'linear' ? 0 : mpe)) return [];
      return [finding(CONTEXT_EXCEEDED, 'warning', `Training at ${fmt(L)} tokens exceeds what the ${s?.type} scaling covers (${fmt(reach.value)}: ${reach.basis}).`, rangeFor(ctx.doc, seq))];
    }
    if (t.overrides.base) return [];
    const trained = t.ownModel ? { value: mpe, source: 'config' } : trainedContextOf(rope);
    const T = trained.value;
    if (!(L > T)) return [];
    // Layers with a sliding window never see a distance beyond it: when every RoPE layer attends
    // within the trained context, training longer extrapolates nothing.
    if (!t.ownModel && ropeReachAt(rope, L) <= T) return [];
    const beyond = T < mpe
      ? `beyond the ${fmt(T)} tokens the model was trained at (${trainedSourceText(trained.source, rope)}; it declares ${fmt(mpe)})`
      : `beyond the model's context of ${fmt(mpe)} (${rope.contextLength.key ?? 'max_position_embeddings'}${ctx.resolved ? ` from ${ctx.resolved.from}` : ''})`;
    const message = `Training at ${fmt(L)} tokens is ${beyond} and no RoPE scaling is set: the model extrapolates silently${t.tool === 'axolotl' ? ' (axolotl only raises max_position_embeddings)' : ''}.${T < mpe ? '' : derivativeNote(rope)}`;
    return [finding(CONTEXT_EXCEEDED, 'warning', message, rangeFor(ctx.doc, seq), fixesFor(ctx, L, T))];
  },
};

function trainedSourceText(source: string, rope?: ModelRope): string {
  if (source.startsWith('catalog:')) return `per the catalog entry ${source.slice('catalog:'.length)}`;
  if (rope?.derivativeOf) return `its own max_position_embeddings: a derivative of ${rope.derivativeOf.candidates[0]}, ${differencesText(rope.derivativeOf)}`;
  if (source.startsWith('config:')) return `its ${source.slice('config:'.length)}`;
  return 'its max_position_embeddings';
}

function fixesFor(ctx: RuleContext, L: number, T: number): Fix[] {
  const t = ctx.training!;
  const rope = ctx.effective!;
  if (t.ownModel) {
    // The YAML defines the model: lengthen its context (the base is then judged at that length).
    const node = rope.contextLength.node;
    if (!node) return [];
    return [{ title: `Set ${rope.contextLength.key ?? 'max_position_embeddings'} to ${L}`, kind: 'other', preferred: true, edits: ctx.editor.set(pathTo(node), L) }];
  }
  const base = rope.base.value, dim = rope.rotaryDim.value;
  if (!Number.isFinite(base) || !Number.isFinite(dim)) return [];
  return extensionFixes({
    target: trainingTarget(ctx), base, dim, trained: T, length: L, reach: L,
    llamaFamily: isLlamaFamily(rope.modelType), variant: ctx.variant, training: true,
  });
}
