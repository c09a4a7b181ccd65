/**
 * rope/base-below-bound: the base is judged against the length it must cover (the context, the
 * original context under YaRN/llama3/longrope, the context ÷ factor under linear, the training
 * length when a training config overrides the base). lmax(base) < length → the finding says up
 * to which length the base holds and b*; a base above b* can still be invalid, and a valid base
 * (lmax = null) never gets this finding.
 */
import type { Fix, Finding } from '../core/findings';
import type { ModelRope } from '../config/modelRope';
import { Rule, RuleContext, finding, fmt, pathTo, rangeFor } from './context';
import { boundable, bstarOf, judgedLength, lmaxOf } from './bound';
import { modelTarget } from './targets';
import { bstarGuess, chooseValidBase } from '../fixes/chooseBase';
import { dynamicFix, linearFix, llama3Fix, ntkFix, raiseBaseFix, RopeTarget, yarnFix } from '../fixes/rewrites';
import { ntkAwareBase } from '../rope/seedMethods';
import { MAX_LENGTH } from '../bstar/validate';
import { baseUnreadable } from './invalidValues';

export const BASE_BELOW_BOUND = 'rope/base-below-bound';
/** information: the length to judge is beyond MAX_LENGTH and the base holds up to MAX_LENGTH. */
export const CONTEXT_UNCHECKED = 'rope/context-unchecked';

export const baseBoundRule: Rule = {
  codes: [BASE_BELOW_BOUND, CONTEXT_UNCHECKED],
  check(ctx) {
    const out: Finding[] = [];
    if (ctx.model) {
      // A model defined in a training YAML is judged at the length it trains at.
      const training = ctx.fileKind === 'training-config' ? ctx.training?.sequenceLength?.value : undefined;
      const f = checkModel(ctx, ctx.model, ctx.fileKind === 'model-config' ? 'information' : 'warning', training);
      if (f) out.push(f);
    } else if (ctx.effective && ctx.training?.overrides.base) {
      // A training config that sets its own base: judged at the length it trains at.
      const f = checkModel(ctx, ctx.effective, 'warning', ctx.training.sequenceLength?.value);
      if (f) out.push(f);
    }
    return out;
  },
};

function checkModel(ctx: RuleContext, rope: ModelRope, severity: 'information' | 'warning', trainingLength?: number): Finding | undefined {
  const judged = judgedLength(rope, trainingLength);
  const base = rope.base.value;
  const dim = rope.rotaryDim.value;
  if (!judged || (!rope.base.node && baseUnreadable(ctx))) return undefined;
  // Beyond MAX_LENGTH the engine refuses: check up to it, and say so when the base holds that far.
  const capped = judged.length > MAX_LENGTH;
  const L = capped ? MAX_LENGTH : judged.length;
  if (!boundable(base, dim, L)) return undefined;
  const m = lmaxOf(ctx, base, dim, L);
  if (m === undefined) return undefined;
  if (m === null) {
    if (!capped) return undefined;
    const message = `${judged.why[0].toUpperCase()}${judged.why.slice(1)} is beyond the largest length RoPE Lens can check (${fmt(MAX_LENGTH)}); `
      + `${rope.base.key ?? 'rope_theta'} ${fmt(base)} satisfies the RoPE base bound up to it (rotary dim ${dim}), the rest is unchecked.`;
    return finding(CONTEXT_UNCHECKED, 'information', message, rangeFor(ctx.doc, rope.contextLength, rope.base));
  }
  const b = capped ? undefined : bstarOf(ctx, L, dim);
  const bText = b !== undefined ? `; the smallest valid base is b* = ${fmt(b)}${base > b ? ', so a base above b* is not enough by itself' : ''}` : '';
  const message = `${rope.base.key ?? 'rope_theta'} ${fmt(base)} satisfies the RoPE base bound only up to ${fmt(m)} tokens, `
    + `short of ${judged.why} (rotary dim ${dim})${bText}.`;
  // No rewrite for a length RoPE Lens cannot check: a base valid at MAX_LENGTH says nothing about the context.
  const fixes = capped ? [] : baseFixes(ctx, rope, modelTarget(ctx, rope), base, dim, L, m, b);
  return finding(BASE_BELOW_BOUND, severity, message, rangeFor(ctx.doc, rope.base, rope.contextLength), fixes);
}

function baseFixes(ctx: RuleContext, rope: ModelRope, target: RopeTarget, base: number, dim: number, L: number, m: number, b: number | undefined): Fix[] {
  const fixes: Fix[] = [];
  const next = chooseValidBase(Math.max(base * 1.5, b ?? bstarGuess(L) * (dim / 128)), (x) => lmaxOf(ctx, x, dim, L));
  if (next !== undefined) {
    const f = raiseBaseFix(target, base, next, L);
    if (f) fixes.push({ ...f, preferred: true });
  }
  const scaled = rope.scaling && rope.scaling.type !== 'default' && rope.scaling.type !== undefined;
  if (!scaled) {
    // Keep the base; stretch positions so they stay within the range the base holds.
    const original = largestPowerOfTwoAtMost(m);
    if (original >= 256 && original < L) {
      const s = L / original;
      const yarn = yarnFix(target, s, original);
      if (yarn) fixes.push(yarn);
      const lin = linearFix(target, s);
      if (lin) fixes.push(lin);
      if (rope.modelType === 'llama') {
        const l3 = llama3Fix(target, s, original);
        if (l3) fixes.push(l3);
      }
      // Dynamic NTK leaves positions below max_position_embeddings alone: lower it to the length the
      // base holds; servers then derive original × factor (vLLM) and the base grows past it.
      const ctxNode = rope.contextLength.node;
      const dyn = ctx.fileKind === 'model-config' && ctxNode ? dynamicFix(target, s) : undefined;
      if (dyn && ctxNode) {
        fixes.push({ ...dyn, title: `${dyn.title}, max_position_embeddings ${original}`, edits: [...dyn.edits, ...ctx.editor.set(pathTo(ctxNode), original)] });
      }
      const ntkBase = ntkAwareBase(base, s, dim);
      if (lmaxOf(ctx, Math.round(ntkBase * 100) / 100, dim, L) === null) {
        const ntk = ntkFix(target, base, s, dim);
        if (ntk) fixes.push(ntk);
      }
    }
  }
  return fixes;
}

function largestPowerOfTwoAtMost(n: number): number {
  return n >= 1 ? Math.pow(2, Math.floor(Math.log2(n))) : 0;
}
