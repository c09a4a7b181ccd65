/**
 * The robust base to suggest, from the proven table when it holds the answer, else by the live search
 * (chooseBase.ts). One function for the check fix, the planner and the Inspector, so they suggest the
 * same base.
 *
 * The table's smallest robust base R at the rung L′ ≥ L is the smallest round base robust at L′ (no base
 * below it qualifies there), and a base robust at L′ is robust at L. So for a search from `start` ≤ R,
 * R is the answer at L′ and a proven answer at L; when L is a rung it is exactly what the live search at L
 * finds. Above the proven threshold V of L′ every base is valid, so the first round base ≥ start is robust
 * once 0.9·start ≥ V. Anything else is searched live, from the robust base of the rung below L at the
 * lowest (no round base under it is robust there, so none is at L).
 */
import { tableRobustBase, tableRobustFloor, tableValidAbove } from '../bstar/table/provenTable';
import { grouped } from '../core/format';
import { knownChoice, recordChoice } from '../bstar/proofCache';
import { type LmaxFn, MARGIN, type ProveFn, chooseValidBase, roundUpNice } from './chooseBase';

export interface RobustChoice {
  base: number;
  /** The length it is proven at: `length` itself, or the table's rung above it (see `rungNote`). */
  provenAt: number;
  from: 'table' | 'live';
}

/** The smallest round base ≥ start whose ±10% is proven valid at `length` (or at the rung above it); undefined as chooseValidBase. */
export function chooseRobustBase(start: number, dim: number, length: number, lmax: LmaxFn, prove: ProveFn): RobustChoice | undefined {
  const t = tableRobustBase(length, dim);
  if (t && start <= t.value) return { base: t.value, provenAt: t.rung, from: 'table' };
  const v = tableValidAbove(length, dim);
  if (v && Number.isFinite(start) && start * (1 - MARGIN) >= v.value) return { base: roundUpNice(Math.max(start, 2)), provenAt: v.rung, from: 'table' };
  // The live search skips the round bases a shorter rung already rules out (same answer, fewer proofs).
  const floor = tableRobustFloor(length, dim)?.value ?? 0;
  const from = roundUpNice(Math.max(start, floor, 2));
  // A search made before (this process or, through the persistent store, an earlier run) answers at once.
  const known = knownChoice(from, dim, length);
  if (known !== undefined) return { base: known, provenAt: length, from: 'live' };
  const base = chooseValidBase(from, lmax, prove);
  if (base !== undefined) recordChoice(from, dim, length, base);
  return base === undefined ? undefined : { base, provenAt: length, from: 'live' };
}

/** What a message says when the base was proven at a longer rung than asked; '' when proven at `length` itself. */
export function rungNote(choice: RobustChoice, length: number): string {
  if (choice.provenAt <= length) return '';
  return (
    ` It is proven at ${grouped(choice.provenAt)} tokens, the proven table's length at or above ${grouped(length)}` +
    ` (a base valid for every position below ${grouped(choice.provenAt)} is valid below ${grouped(length)} too).`
  );
}
