/**
 * Which length a base is judged against, and oracle calls that record what is still pending.
 * With a scaling that stretches positions (YaRN, llama3, longrope, linear) the base only has to
 * hold over the original context; `dynamic` leaves positions up to max_position_embeddings
 * untouched, so the base must hold there.
 */
import type { ModelRope } from '../config/modelRope';
import type { RuleContext } from './context';
import { fmt, numParam } from './context';
import { MAX_LENGTH, isWorkableDim, isWorkableSize } from '../core/limits';
import { MARGIN, bstarGuess } from '../fixes/chooseBase';
import { RobustChoice, chooseRobustBase } from '../fixes/robustChoice';
import { tableRobustBase } from '../bstar/table/provenTable';

export interface JudgedLength {
  length: number;
  why: string;
}

export function judgedLength(rope: ModelRope, trainingLength?: number): JudgedLength | undefined {
  const ctx = rope.contextLength.value;
  const s = rope.scaling;
  const type = s?.type;
  const original = numParam(s, 'original_max_position_embeddings') ?? rope.originalContextLength?.value;
  if ((type === 'yarn' || type === 'llama3' || type === 'longrope') && original) {
    return { length: Math.round(original), why: `the original context (original_max_position_embeddings ${fmt(original)})` };
  }
  if ((type === 'yarn' || type === 'llama3' || type === 'longrope') && ctx > 0 && !(trainingLength && trainingLength > ctx)) {
    // No original written: transformers stretches from max_position_embeddings.
    return { length: Math.round(ctx), why: `the original context ${fmt(ctx)} (max_position_embeddings) that the ${type} scaling stretches from` };
  }
  if (type === 'linear') {
    const f = numParam(s, 'factor');
    if (f && f >= 1) return { length: Math.ceil(ctx / f), why: `the context ${fmt(ctx)} divided by the linear factor ${f}` };
  }
  const L = Math.max(ctx, trainingLength ?? 0);
  return L > 0
    ? { length: Math.round(L), why: trainingLength && trainingLength > ctx ? `the training length ${fmt(trainingLength)}` : `the context ${fmt(ctx)}` }
    : undefined;
}

/** True when base, dimension and length are something the bound can be computed for. */
export function boundable(base: number, dim: number, length: number): boolean {
  return Number.isFinite(base) && base > 1 && isWorkableDim(dim) && dim >= 2 && dim % 2 === 0 && isWorkableSize(length, MAX_LENGTH) && length >= 2;
}

export function lmaxOf(ctx: RuleContext, base: number, dim: number, length: number): number | null | undefined {
  const v = ctx.oracle.lmax(base, dim, length);
  if (v === undefined) ctx.pending.push({ length, headDim: dim, base });
  return v;
}

/** The neighbourhood proof for a suggested base (null: every base within ±10% is valid). */
export function robustOf(ctx: RuleContext, candidate: number, dim: number, length: number): number | null | undefined {
  const v = ctx.oracle.robust(candidate, dim, length);
  if (v === undefined) ctx.pending.push({ length, headDim: dim, base: candidate });
  return v;
}

export function bstarOf(ctx: RuleContext, length: number, dim: number): number | undefined {
  const v = ctx.oracle.bstar(length, dim);
  if (v === undefined) ctx.pending.push({ length, headDim: dim });
  return v;
}

/**
 * The smallest round base ≥ `base` whose every base within ±10% is proven valid at L: the base
 * `rope/base-below-bound` raises to and a trained extension's candidate (`plan` proves the same).
 * Undefined past the oracle's proof limit or while the proofs are not computed. No base below b* is
 * valid, so the search starts where a neighbourhood can clear it.
 */
/**
 * The smallest robust base at or above `base` (and above b*), from the proven table or a live proof;
 * past the oracle's proof limit only the table answers (its proofs were made ahead of time).
 */
export function robustChoiceOf(ctx: RuleContext, base: number, dim: number, L: number, bstar = bstarOf(ctx, L, dim)): RobustChoice | undefined {
  const start = Math.max(base, (bstar ?? bstarGuess(L) * (dim / 128)) / (1 - MARGIN));
  const limit = ctx.oracle.proofLimit;
  if (limit !== undefined && L > limit) {
    const t = tableRobustBase(L, dim);
    return t && start <= t.value ? { base: t.value, provenAt: t.rung, from: 'table' } : undefined;
  }
  return chooseRobustBase(
    start,
    dim,
    L,
    (x) => lmaxOf(ctx, x, dim, L),
    (c) => robustOf(ctx, c, dim, L),
  );
}

export function robustBaseOf(ctx: RuleContext, base: number, dim: number, L: number, bstar = bstarOf(ctx, L, dim)): number | undefined {
  return robustChoiceOf(ctx, base, dim, L, bstar)?.base;
}
