/**
 * f_b(m) = Σ_{i<d/2} cos(m·θ_i), θ_i = b^(−2i/d): direct evaluation, its b-derivatives, and
 * fast block scans over m. Pure float64, no Node APIs (the webview bundle imports this).
 *
 * Scans use the Chebyshev recurrence cos((k+1)θ) = 2cosθ·cos(kθ) − cos((k−1)θ), restarted
 * from Math.cos at every block of BLOCK values of m. A rounding error made at step j grows
 * like (k−j)·ε over a block, so the error stays below ~1e-10 in f, far inside the 1e-7
 * tolerance, at about a third of the cost of a complex rotation.
 */

import { RopeError } from '../errors';

/** Values of f at or above −TOLERANCE count as non-negative (float64 reference tolerance). */
export const TOLERANCE = 1e-7;
export const BLOCK = 1024;
/** Scans look at the cancellation flag every CHECK_EVERY blocks (~1 ms of work at d = 128). */
const CHECK_EVERY = 8;

function cancelled(): RopeError {
  return new RopeError('cancelled', 'b* computation was cancelled');
}

/**
 * θ_i = base^(−2i/d) for i < d/2, as exp(−(2i/d)·ln b) and products of
 * neighbours: within a few ulp of numpy's
 * `b ** (-2*i/d)` and ~10× cheaper than Math.pow. The phase error m·θ_i·(2i/d)·ln b·ε stays
 * below 1e-10 rad for m ≤ 2^24, invisible next to the 1e-7 tolerance.
 */
export function thetas(base: number, headDim: number): Float64Array {
  const n = headDim / 2;
  const t = new Float64Array(n);
  const lnb = Math.log(base);
  const r = Math.exp((-2 / headDim) * lnb);
  // Exact exp every 4th index, products in between: relative error ≤ ~4 ulp.
  for (let i = 0; i < n; i++) t[i] = (i & 3) === 0 ? Math.exp(((-2 * i) / headDim) * lnb) : t[i - 1] * r;
  return t;
}

/** f_b(m) by direct cosines: the reference every reported number is checked against. */
export function fDirect(base: number, headDim: number, m: number): number {
  const n = headDim / 2;
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.cos(m * Math.pow(base, (-2 * i) / headDim));
  return s;
}

/** f_b(m) with precomputed θ. */
export function fAt(theta: Float64Array, m: number): number {
  let s = 0;
  for (let i = 0; i < theta.length; i++) s += Math.cos(m * theta[i]);
  return s;
}

/**
 * f, ∂f/∂b and a bound M2 ≥ |∂²f/∂b²| valid on [b, ∞) for one m.
 * With φ_i = m·b^(−a_i), a_i = 2i/d: φ' = −a φ/b, φ'' = a(a+1)φ/b²;
 * (cos φ)'' = −cos φ·φ'² − sin φ·φ'', so |(cos φ)''| ≤ a²φ²/b² + a(a+1)φ/b², and φ/b falls as
 * b grows, so the value at b bounds the whole ray.
 */
export function fWithDerivatives(base: number, theta: Float64Array, m: number): { f: number; d1: number; m2: number } {
  const d = theta.length * 2;
  let f = 0, d1 = 0, m2 = 0;
  for (let i = 0; i < theta.length; i++) {
    const a = (2 * i) / d;
    const phi = m * theta[i];
    f += Math.cos(phi);
    d1 += Math.sin(phi) * a * phi;
    m2 += a * a * phi * phi + a * (a + 1) * phi;
  }
  return { f, d1: d1 / base, m2: m2 / (base * base) };
}

/** 2·cos θ_i: the Chebyshev recurrence coefficients, shared by every block at one base. */
export function cos2Of(theta: Float64Array): Float64Array {
  const c = new Float64Array(theta.length);
  for (let i = 0; i < theta.length; i++) c[i] = 2 * Math.cos(theta[i]);
  return c;
}

/**
 * f_b(m) for m in [m0, m0+count) into out[0..count). count ≤ BLOCK keeps the recurrence short.
 */
export function evalBlock(theta: Float64Array, m0: number, count: number, out: Float64Array, cos2: Float64Array = cos2Of(theta)): void {
  out.fill(0, 0, count);
  const n = theta.length;
  let i = 0;
  // Four independent recurrences per pass: one chain alone is latency-bound.
  for (; i + 4 <= n; i += 4) {
    const ta = theta[i], tb = theta[i + 1], tc = theta[i + 2], td = theta[i + 3];
    const ca = cos2[i], cb = cos2[i + 1], cc = cos2[i + 2], cd = cos2[i + 3];
    let a0 = Math.cos((m0 - 1) * ta), a1 = Math.cos(m0 * ta);
    let b0 = Math.cos((m0 - 1) * tb), b1 = Math.cos(m0 * tb);
    let c0 = Math.cos((m0 - 1) * tc), c1 = Math.cos(m0 * tc);
    let d0 = Math.cos((m0 - 1) * td), d1 = Math.cos(m0 * td);
    for (let k = 0; k < count; k++) {
      out[k] += (a1 + b1) + (c1 + d1);
      const a2 = ca * a1 - a0, b2 = cb * b1 - b0, c2 = cc * c1 - c0, d2 = cd * d1 - d0;
      a0 = a1; a1 = a2; b0 = b1; b1 = b2; c0 = c1; c1 = c2; d0 = d1; d1 = d2;
    }
  }
  for (; i < n; i++) {
    const th = theta[i];
    const c2 = cos2[i];
    let x0 = Math.cos((m0 - 1) * th);
    let x1 = Math.cos(m0 * th);
    for (let k = 0; k < count; k++) {
      out[k] += x1;
      const x2 = c2 * x1 - x0;
      x0 = x1;
      x1 = x2;
    }
  }
}

export interface ScanHit { m: number; f: number }

/** Work counters (values of m evaluated by block scans), read by the benchmark. */
export const scanCounters = { terms: 0, depths: null as number[] | null };

/**
 * First m in [from, to) (ascending) with f < −tol, or null. Blocks grow from 64 to BLOCK values of
 * m, so a base that fails early costs little and a long scan still runs at full block speed.
 */
export function firstNegative(
  theta: Float64Array, from: number, to: number, tol = TOLERANCE, buf: Float64Array = new Float64Array(BLOCK), signal?: { aborted: boolean },
): ScanHit | null {
  const cos2 = cos2Of(theta);
  let size = 64;
  for (let m0 = from; m0 < to; m0 += size, size = Math.min(BLOCK, size * 2)) {
    if (signal?.aborted) throw cancelled();
    const cnt = Math.min(size, to - m0);
    evalBlock(theta, m0, cnt, buf, cos2);
    for (let k = 0; k < cnt; k++) if (buf[k] < -tol) return { m: m0 + k, f: buf[k] };
  }
  return null;
}

/**
 * Minimum of f over [from, to), stopping early (returning that m) as soon as a block holds a value
 * below −tol; blocks are visited from the top down, because large m are where f is smallest.
 */
export function scanMin(
  theta: Float64Array, from: number, to: number, tol = TOLERANCE, buf: Float64Array = new Float64Array(BLOCK),
  cos2: Float64Array = cos2Of(theta), signal?: { aborted: boolean },
): ScanHit {
  let best: ScanHit = { m: from, f: Infinity };
  for (let hi = to; hi > from; hi -= BLOCK) {
    if (signal?.aborted && ((to - hi) / BLOCK) % CHECK_EVERY === 0) throw cancelled();
    const m0 = Math.max(from, hi - BLOCK);
    const cnt = hi - m0;
    evalBlock(theta, m0, cnt, buf, cos2);
    scanCounters.terms += cnt;
    let bk = -1, bf = best.f;
    for (let k = 0; k < cnt; k++) if (buf[k] < bf) { bf = buf[k]; bk = k; }
    if (bk >= 0) best = { m: m0 + bk, f: bf };
    if (best.f < -tol) { scanCounters.depths?.push(to - m0); return best; }
  }
  scanCounters.depths?.push(to - from);
  return best;
}
