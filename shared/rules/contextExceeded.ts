/**
 * training/context-exceeded (warning): the training length is beyond the model's context and
 * nothing extends it (no scaling, no new base). axolotl then only raises max_position_embeddings,
 * so training silently extrapolates. Fixes write the tool's own keys: YaRN (preferred), linear,
 * llama3 for Llama models, the NTK-aware base, a raised base; for a model defined in the YAML,
 * the context itself.
 */
import type { Fix, Finding } from '../core/findings';
import { Rule, RuleContext, finding, fmt, numParam, pathTo, rangeFor } from './context';
import { trainingTarget } from './targets';
import { linearFix, llama3Fix, ntkFix, raiseBaseFix, yarnFix } from '../fixes/rewrites';
import { bstarGuess, chooseValidBase } from '../fixes/chooseBase';
import { boundable, lmaxOf } from './bound';

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
      // A static scaling covers original × factor; beyond that it extrapolates too.
      const factor = numParam(s, 'factor');
      const original = numParam(s, 'original_max_position_embeddings') ?? rope.originalContextLength?.value;
      if (t.scalingByName || !factor || !original || s?.type === 'dynamic') return [];
      const reach = s?.type === 'linear' ? mpe * factor : original * factor;
      if (L <= Math.max(reach, mpe)) return [];
      return [finding(CONTEXT_EXCEEDED, 'warning', `Training at ${fmt(L)} tokens exceeds what the ${s?.type} scaling covers (${fmt(reach)} = ${s?.type === 'linear' ? 'max_position_embeddings' : 'original'} × factor ${factor}).`, rangeFor(ctx.doc, seq))];
    }
    if (L <= mpe || t.overrides.base) return [];
    const message = `Training at ${fmt(L)} tokens is beyond the model's context of ${fmt(mpe)} (${rope.contextLength.key ?? 'max_position_embeddings'}${ctx.resolved ? ` from ${ctx.resolved.from}` : ''}) and no RoPE scaling is set: the model extrapolates silently${t.tool === 'axolotl' ? ' (axolotl only raises max_position_embeddings)' : ''}.`;
    return [finding(CONTEXT_EXCEEDED, 'warning', message, rangeFor(ctx.doc, seq), fixesFor(ctx, L, mpe))];
  },
};

function fixesFor(ctx: RuleContext, L: number, mpe: number): Fix[] {
  const t = ctx.training!;
  const rope = ctx.effective!;
  const fixes: Fix[] = [];
  const push = (f: Fix | undefined, preferred = false) => { if (f) fixes.push(preferred ? { ...f, preferred: true } : f); };
  if (t.ownModel) {
    // The YAML defines the model: lengthen its context (the base is then judged at that length).
    const node = rope.contextLength.node;
    if (node) push({ title: `Set ${rope.contextLength.key ?? 'max_position_embeddings'} to ${L}`, kind: 'other', edits: ctx.editor.set(pathTo(node), L) }, true);
    return fixes;
  }
  const target = trainingTarget(ctx);
  const s = L / mpe;
  push(yarnFix(target, s, mpe), true);
  push(linearFix(target, s));
  if (rope.modelType === 'llama') push(llama3Fix(target, s, mpe));
  const base = rope.base.value, dim = rope.rotaryDim.value;
  if (boundable(base, dim, L)) {
    push(ntkFix(target, base, s, dim));
    const next = chooseValidBase(Math.max(base * 1.5, bstarGuess(L) * (dim / 128)), (x) => lmaxOf(ctx, x, dim, L));
    if (next !== undefined) push(raiseBaseFix(target, base, next, L));
  }
  return fixes;
}
