/**
 * Exact b*(L, d) by a certified upward sweep in b (pure float64, no Node APIs).
 *
 * The valid set V_L = {b : f_b(m) ≥ −TOLERANCE for all m < L} is not an interval, so the sweep
 * never bisects. It starts at a base known to be ≤ b* and moves up. At each base b it needs one
 * witness m with f_b(m) < −TOLERANCE; from f, ∂f/∂b and a bound M2 ≥ |∂²f/∂b²| valid on [b, ∞)
 * (see fWithDerivatives) the Taylor upper bound f + Δ·f' + Δ²·M2/2 stays below −TOLERANCE/2 on
 * [b, b+Δ), so that whole interval is invalid and is skipped at once. Witnesses come from a pool
 * (recent m that were negative); only when none is negative does a full scan over m < L run.
 * If that scan finds no value below −TOLERANCE, b is the answer: every base below it was ruled
 * out by a witness, so it is the smallest valid base.
 *
 * V_L ⊆ V_L' for L' < L, so b*(L') ≤ b*(L): the sweep for L is chained through L/2^k, each link
 * starting at the previous answer and inheriting its witness pool.
 */
import { RopeError } from '../errors';
import { BLOCK, TOLERANCE, fAt, fDirect, fWithDerivatives, scanMin, thetas } from './fb';

export interface Cancellable { aborted: boolean }

export interface SweepOptions {
  onProgress?(fraction: number): void;
  signal?: Cancellable;
  /** A base known to be ≤ b*(L, d), e.g. b* of a shorter length. Default 1. */
  lowerBound?: number;
  /** Seeds for the witness pool (values of m; those ≥ L are ignored). Updated in place. */
  pool?: number[];
}

export interface SweepResult {
  bstar: number;
  /** Minimum over m < L of f at b* (≥ −TOLERANCE) and where it occurs. */
  certificate: { minF: number; argminM: number };
  /** A base just below b* that is invalid, with m such that f_base(m) < 0 (direct float64). */
  witness: { base: number; m: number; f: number } | null;
  stats: { steps: number; scans: number };
}

const POOL_MAX = 8;

export function throwIfAborted(signal: Cancellable | undefined): void {
  if (signal?.aborted) throw new RopeError('cancelled', 'b* computation was cancelled');
}

/** One link of the chain: the smallest valid base ≥ start for length L. */
export function sweepFrom(length: number, headDim: number, start: number, pool: number[], signal?: Cancellable): SweepResult {
  const buf = new Float64Array(BLOCK);
  const target = -TOLERANCE / 2;
  let b = start;
  let steps = 0, scans = 0;
  let last: { base: number; m: number } | null = null;
  for (;;) {
    throwIfAborted(signal);
    const th = thetas(b, headDim);
    let w = -1;
    for (let j = 0; j < pool.length; j++) {
      const m = pool[j];
      if (m < length && fAt(th, m) < -TOLERANCE) { w = j; break; }
    }
    if (w < 0) {
      scans++;
      const hit = scanMin(th, 0, length, TOLERANCE, buf);
      if (hit.f >= -TOLERANCE) {
        return {
          bstar: b,
          certificate: { minF: hit.f, argminM: hit.m },
          witness: witnessBelow(b, headDim, last),
          stats: { steps, scans },
        };
      }
      pool.unshift(hit.m);
      if (pool.length > POOL_MAX) pool.length = POOL_MAX;
    } else if (w > 0) {
      // Move to front: a witness that was negative here is likely negative at the next base too.
      const m = pool[w];
      pool.splice(w, 1);
      pool.unshift(m);
    }
    const m = pool[0];
    const { f, d1, m2 } = fWithDerivatives(b, th, m);
    const c = f - target; // < 0
    // Positive root of m2/2·Δ² + d1·Δ + c = 0, in the cancellation-free form.
    const disc = Math.sqrt(d1 * d1 - 2 * m2 * c);
    let delta = (-2 * c) / (d1 + disc);
    if (!(delta > 0)) delta = 0;
    last = { base: b, m };
    const next = b + delta;
    b = next > b ? next : b * (1 + 4 * Number.EPSILON);
    steps++;
  }
}

/** The closest base below b* (tried at shrinking gaps) where a known m gives f < 0 in direct float64. */
function witnessBelow(bstar: number, headDim: number, last: { base: number; m: number } | null): { base: number; m: number; f: number } | null {
  if (!last) return null;
  for (const rel of [1e-12, 1e-10, 1e-9, 1e-8, 1e-7]) {
    const base = bstar * (1 - rel);
    if (base <= last.base) break;
    const f = fDirect(base, headDim, last.m);
    if (f < 0) return { base, m: last.m, f };
  }
  return { base: last.base, m: last.m, f: fDirect(last.base, headDim, last.m) };
}

/** Lengths of the chain ending at L: ceil(L/2^k) down to about 64, ascending. */
export function chainLengths(length: number, from = 1): number[] {
  const out: number[] = [];
  for (let l = length; l > 64 && l > from; l = Math.ceil(l / 2)) out.push(l);
  out.push(Math.max(1, Math.min(length, 64)));
  return [...new Set(out)].filter((l) => l >= Math.min(from, length)).sort((a, b) => a - b);
}

/** b*(L, d) by the chained sweep. Inputs are assumed validated. */
export function sweepBstar(length: number, headDim: number, opts: SweepOptions = {}): SweepResult {
  const pool = opts.pool ?? [];
  let lower = Math.max(1, opts.lowerBound ?? 1);
  const chain = opts.lowerBound && opts.lowerBound > 1 ? [length] : chainLengths(length);
  // Work per link grows roughly like L·log L; weight progress by that.
  const weights = chain.map((l) => l * Math.log2(l + 2));
  const total = weights.reduce((a, b) => a + b, 0);
  let done = 0;
  let res: SweepResult | null = null;
  const stats = { steps: 0, scans: 0 };
  for (let k = 0; k < chain.length; k++) {
    const prev: SweepResult | null = res;
    res = sweepFrom(chain[k], headDim, lower, pool, opts.signal);
    // A link that starts on a valid base keeps the previous link's witness (its m < L too).
    if (!res.witness && prev) res.witness = prev.witness;
    stats.steps += res.stats.steps;
    stats.scans += res.stats.scans;
    lower = res.bstar;
    done += weights[k];
    opts.onProgress?.(done / total);
  }
  return { ...res!, stats };
}
