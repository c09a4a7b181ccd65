/**
 * f_b(m) = Σ_{i<d/2} cos(m·θ_i), θ_i = b^(−2i/d): direct evaluation, its b-derivatives, and
 * fast block scans over m. Pure float64, no Node APIs (the webview bundle imports this).
 *
 * Scans use the Chebyshev recurrence cos((k+1)θ) = 2cosθ·cos(kθ) − cos((k−1)θ), restarted
 * from cosPhase (Math.cos, fast for large phases) at every block of BLOCK values of m, four independent recurrences per pass. A
 * rounding error made at step j grows like (k−j)·ε over a block: the measured error in f is
 * ≤ 7e-10 up to m = 2^20 (far inside the 1e-7 tolerance), at ~5e8 terms/s on one core, about
 * twice a complex-rotation recurrence.
 */

import { RopeError } from '../core/errors';
import { cosPhase } from './trig';

/** Values of f at or above −TOLERANCE count as non-negative (float64 reference tolerance). */
export const TOLERANCE = 1e-7;
export const BLOCK = 1024;
/** Scans look at the cancellation flag every CHECK_EVERY blocks (~1 ms of work at d = 128). */
const CHECK_EVERY = 8;

function cancelled(): RopeError {
  return new RopeError('cancelled', 'b* computation was cancelled');
}

/**
 * θ_i = base^(−2i/d) for i < d/2: exp(−(2i/d)·ln b) at every 4th index and products of neighbours
 * in between, within a few ulp of numpy's `b ** (-2*i/d)` and several times cheaper than Math.pow.
 * The resulting phase error m·θ_i·(few ulp) is below 1e-9 rad for m ≤ 2^20.
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

/** f_b(m) with precomputed θ (cosPhase: within 2e-15 of Math.cos per term, several times faster at m·θ > 1.6e6). */
export function fAt(theta: Float64Array, m: number): number {
  let s = 0;
  for (let i = 0; i < theta.length; i++) s += cosPhase(m * theta[i]);
  return s;
}

export interface Derivatives {
  f: number;
  d1: number;
  d2: number;
  m2: number;
  m3: number;
}

/**
 * f, ∂f/∂b, ∂²f/∂b² at b for one m, and bounds M2 ≥ |∂²f/∂b²|, M3 ≥ |∂³f/∂b³| valid on [b, ∞).
 * With φ_i = m·b^(−a_i), a_i = 2i/d: φ' = −aφ/b, φ'' = a(a+1)φ/b², φ''' = −a(a+1)(a+2)φ/b³;
 * (cos φ)'' = −cos φ·φ'² − sin φ·φ'', (cos φ)''' = sin φ·φ'³ − 3cos φ·φ'φ'' − sin φ·φ'''.
 * Every bound term is a power of φ/b times a power of 1/b, which falls as b grows, so the value
 * at b bounds the whole ray.
 */
export function fWithDerivatives(base: number, theta: Float64Array, m: number): Derivatives {
  const d = theta.length * 2;
  let f = 0,
    d1 = 0,
    d2 = 0,
    m2 = 0,
    m3 = 0;
  for (let i = 0; i < theta.length; i++) {
    const a = (2 * i) / d;
    const phi = m * theta[i];
    const c = Math.cos(phi),
      s = Math.sin(phi);
    const p1 = a * phi,
      p2 = a * (a + 1) * phi; // |φ'|·b and |φ''|·b²
    f += c;
    d1 += s * p1;
    d2 -= c * p1 * p1 + s * p2;
    m2 += p1 * p1 + p2;
    m3 += p1 * p1 * p1 + 3 * p1 * p2 + p2 * (a + 2);
  }
  const b2 = base * base;
  return { f, d1: d1 / base, d2: d2 / b2, m2: m2 / b2, m3: m3 / (b2 * base) };
}

/**
 * Largest h such that f stays below `target` on [b, b+h], from two valid upper bounds:
 * f + f'·h + M2·h²/2 and f + f'·h + f''·h²/2 + M3·h³/6 (the second is far tighter for short steps).
 * Requires f < target; returns 0 otherwise.
 */
export function safeStep(fd: Derivatives, target: number): number {
  const c = fd.f - target;
  if (!(c < 0)) return 0;
  const disc = Math.sqrt(fd.d1 * fd.d1 - 2 * fd.m2 * c);
  const quad = (-2 * c) / (fd.d1 + disc);
  const cubic = firstRootCubic(c, fd.d1, fd.d2 / 2, fd.m3 / 6);
  const h = Math.max(quad > 0 ? quad : 0, cubic);
  return Number.isFinite(h) ? h : 0;
}

/** Largest h known to keep P(h) = c + c1·h + c2·h² + c3·h³ < 0 on [0, h] (c < 0, c3 > 0). */
function firstRootCubic(c: number, c1: number, c2: number, c3: number): number {
  if (!(c3 > 0)) return 0;
  const P = (h: number) => c + h * (c1 + h * (c2 + h * c3));
  // P is monotone between its critical points (roots of 3c3·h² + 2c2·h + c1): walk them in order.
  const ends: number[] = [];
  const disc = c2 * c2 - 3 * c3 * c1;
  if (disc > 0) {
    const r = Math.sqrt(disc);
    for (const t of [(-c2 - r) / (3 * c3), (-c2 + r) / (3 * c3)]) if (t > 0) ends.push(t);
  }
  let lo = 0;
  for (const e of ends) {
    if (P(e) >= 0) return bisect(P, lo, e);
    lo = e;
  }
  let hi = Math.max(2 * lo, 1e-300);
  while (P(hi) < 0) hi *= 2;
  return bisect(P, lo, hi);
}

/** With P(lo) < 0 ≤ P(hi) and P monotone on [lo, hi]: the largest point found with P < 0. */
function bisect(P: (h: number) => number, lo: number, hi: number): number {
  for (let k = 0; k < 100 && hi - lo > 1e-13 * hi; k++) {
    const mid = 0.5 * (lo + hi);
    if (P(mid) < 0) lo = mid;
    else hi = mid;
  }
  return lo;
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
export function evalBlock(theta: Float64Array, m0: number, count: number, out: Float64Array, cos2: Float64Array = cos2Of(theta), nExact = theta.length): void {
  out.fill(0, 0, count);
  let i = 0;
  // Four independent recurrences per pass: one chain alone is latency-bound.
  for (; i + 4 <= nExact; i += 4) {
    const ta = theta[i],
      tb = theta[i + 1],
      tc = theta[i + 2],
      td = theta[i + 3];
    const ca = cos2[i],
      cb = cos2[i + 1],
      cc = cos2[i + 2],
      cd = cos2[i + 3];
    let a0 = cosPhase((m0 - 1) * ta),
      a1 = cosPhase(m0 * ta);
    let b0 = cosPhase((m0 - 1) * tb),
      b1 = cosPhase(m0 * tb);
    let c0 = cosPhase((m0 - 1) * tc),
      c1 = cosPhase(m0 * tc);
    let d0 = cosPhase((m0 - 1) * td),
      d1 = cosPhase(m0 * td);
    for (let k = 0; k < count; k++) {
      out[k] += a1 + b1 + (c1 + d1);
      const a2 = ca * a1 - a0,
        b2 = cb * b1 - b0,
        c2 = cc * c1 - c0,
        d2 = cd * d1 - d0;
      a0 = a1;
      a1 = a2;
      b0 = b1;
      b1 = b2;
      c0 = c1;
      c1 = c2;
      d0 = d1;
      d1 = d2;
    }
  }
  for (; i < nExact; i++) {
    const th = theta[i];
    const c2 = cos2[i];
    let x0 = cosPhase((m0 - 1) * th);
    let x1 = cosPhase(m0 * th);
    for (let k = 0; k < count; k++) {
      out[k] += x1;
      const x2 = c2 * x1 - x0;
      x0 = x1;
      x1 = x2;
    }
  }
}

/**
 * Like evalBlock, but for a search that verifies its hits: components that turn by less than
 * SLOW_PHASE rad across the block (the slow ones, θ_i falls with i) are summed once at the start,
 * middle and end and interpolated quadratically (error ≲ 1e-3 each). Roughly halves the cost at
 * large b. Never used for a certificate.
 */
export function evalBlockApprox(theta: Float64Array, m0: number, count: number, out: Float64Array, cos2: Float64Array, slowPhase = SLOW_PHASE): number {
  let nFast = theta.length;
  while (nFast > 0 && theta[nFast - 1] * count < slowPhase) nFast--;
  evalBlock(theta, m0, count, out, cos2, nFast);
  if (nFast === theta.length) return 0;
  const h = (count - 1) / 2;
  let y0 = 0,
    y1 = 0,
    y2 = 0,
    cube = 0;
  for (let i = nFast; i < theta.length; i++) {
    const t = theta[i];
    y0 += cosPhase(m0 * t);
    y1 += cosPhase((m0 + h) * t);
    y2 += cosPhase((m0 + 2 * h) * t);
    cube += t * t * t;
  }
  if (h === 0) {
    out[0] += y0;
    return 0;
  }
  const a1 = (-3 * y0 + 4 * y1 - y2) / (2 * h);
  const a2 = (y0 - 2 * y1 + y2) / (2 * h * h);
  for (let k = 0; k < count; k++) out[k] += y0 + k * (a1 + k * a2);
  // Quadratic interpolation at 0, h, 2h: |error| ≤ max|g'''|·h³/(9√3), and |d³/dk³ cos((m0+k)θ)| ≤ θ³.
  return (cube * h * h * h) / (9 * Math.sqrt(3));
}

/** Added to the interpolation bound: rounding in the recurrence and the interpolant (≤ 1e-8 for m ≤ 2^20). */
const ROUNDING_MARGIN = 1e-6;

/**
 * Certified check that f_b(m) ≥ −tol for every m in [from, to), at evalBlockApprox speed: a value is
 * trusted when it clears −tol by the block's error bound, and any other m is evaluated exactly.
 * Blocks are visited top-down (invalid bases fail there first).
 */
export function allAtLeast(theta: Float64Array, from: number, to: number, tol: number, buf: Float64Array, signal?: { aborted: boolean }): boolean {
  const cos2 = cos2Of(theta);
  for (let hi = to; hi > from; hi -= BLOCK) {
    if (signal?.aborted) throw cancelled();
    const m0 = Math.max(from, hi - BLOCK);
    const cnt = hi - m0;
    const bar = -tol + evalBlockApprox(theta, m0, cnt, buf, cos2) + ROUNDING_MARGIN;
    for (let k = 0; k < cnt; k++) if (buf[k] < bar && fAt(theta, m0 + k) < -tol) return false;
  }
  return true;
}

/** firstNegative with the certified approximation of allAtLeast: same answer, about half the work at large b. */
export function firstNegativeFast(
  theta: Float64Array,
  from: number,
  to: number,
  tol: number,
  buf: Float64Array,
  signal?: { aborted: boolean },
): ScanHit | null {
  const cos2 = cos2Of(theta);
  let size = 64;
  for (let m0 = from; m0 < to; m0 += size, size = Math.min(BLOCK, size * 2)) {
    if (signal?.aborted) throw cancelled();
    const cnt = Math.min(size, to - m0);
    const bar = -tol + evalBlockApprox(theta, m0, cnt, buf, cos2) + ROUNDING_MARGIN;
    for (let k = 0; k < cnt; k++) {
      if (buf[k] < bar) {
        const f = fAt(theta, m0 + k);
        if (f < -tol) return { m: m0 + k, f };
      }
    }
  }
  return null;
}

const SLOW_PHASE = 0.25;
/** Searches confirm every hit exactly, so they can interpolate more components (coarser, cheaper). */
export const SEARCH_SLOW_PHASE = 1.2;
/** Approximate values below this are checked exactly (well above the interpolation error). */
const APPROX_MARGIN = 0.05;

/**
 * Search [from, to) from the top down for an m with f < −tol using evalBlockApprox, confirming each
 * candidate with direct cosines. Returns a confirmed m or −1 (−1 proves nothing: certify with scanMin).
 */
export function searchApprox(
  theta: Float64Array,
  from: number,
  to: number,
  tol: number,
  buf: Float64Array,
  cos2: Float64Array,
  signal?: { aborted: boolean },
  order?: ArrayLike<number>,
  block = BLOCK,
): number {
  // Blocks are [j·block, (j+1)·block) ∩ [from, to), visited in `order` (block indices) or top-down.
  const first = Math.floor(from / block),
    last = Math.ceil(to / block) - 1;
  const count = last - first + 1;
  for (let q = 0; q < count; q++) {
    if (signal?.aborted) throw cancelled();
    const j = order ? order[q] : last - q;
    const m0 = Math.max(from, j * block);
    const cnt = Math.min(to, (j + 1) * block) - m0;
    if (cnt <= 0) continue;
    evalBlockApprox(theta, m0, cnt, buf, cos2, SEARCH_SLOW_PHASE);
    // The block's smallest value first (the deepest witness gives the longest step), then the rest.
    let bk = 0;
    for (let k = 1; k < cnt; k++) if (buf[k] < buf[bk]) bk = k;
    if (buf[bk] >= APPROX_MARGIN) continue;
    if (fAt(theta, m0 + bk) < -tol) return m0 + bk;
    for (let k = 0; k < cnt; k++) {
      if (k !== bk && buf[k] < APPROX_MARGIN && fAt(theta, m0 + k) < -tol) return m0 + k;
    }
  }
  return -1;
}

export interface ScanHit {
  m: number;
  f: number;
}

/**
 * First m in [from, to) (ascending) with f < −tol, or null. Blocks grow from 64 to BLOCK values of
 * m, so a base that fails early costs little and a long scan still runs at full block speed.
 */
export function firstNegative(
  theta: Float64Array,
  from: number,
  to: number,
  tol = TOLERANCE,
  buf: Float64Array = new Float64Array(BLOCK),
  signal?: { aborted: boolean },
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
  theta: Float64Array,
  from: number,
  to: number,
  tol = TOLERANCE,
  buf: Float64Array = new Float64Array(BLOCK),
  cos2: Float64Array = cos2Of(theta),
  signal?: { aborted: boolean },
): ScanHit {
  let best: ScanHit = { m: from, f: Infinity };
  for (let hi = to; hi > from; hi -= BLOCK) {
    if (signal?.aborted && ((to - hi) / BLOCK) % CHECK_EVERY === 0) throw cancelled();
    const m0 = Math.max(from, hi - BLOCK);
    const cnt = hi - m0;
    evalBlock(theta, m0, cnt, buf, cos2);
    let bk = -1,
      bf = best.f;
    for (let k = 0; k < cnt; k++)
      if (buf[k] < bf) {
        bf = buf[k];
        bk = k;
      }
    if (bk >= 0) best = { m: m0 + bk, f: bf };
    if (best.f < -tol) return best;
  }
  return best;
}

/**
 * scanMin's answer (the exact minimum over [from, to), or the first block's value below −tol) at
 * evalBlockApprox speed: a value is evaluated with direct cosines only when its approximation,
 * lowered by the block's proven error bound, could be below the smallest exact value so far (or
 * below −tol). Every other m provably lies above both, so the minimum and the verdict are exact.
 */
export function scanMinCertified(
  theta: Float64Array,
  from: number,
  to: number,
  tol = TOLERANCE,
  buf: Float64Array = new Float64Array(BLOCK),
  signal?: { aborted: boolean },
): ScanHit {
  const cos2 = cos2Of(theta);
  let best: ScanHit = { m: from, f: Infinity };
  for (let hi = to; hi > from; hi -= BLOCK) {
    if (signal?.aborted && ((to - hi) / BLOCK) % CHECK_EVERY === 0) throw cancelled();
    const m0 = Math.max(from, hi - BLOCK);
    const cnt = hi - m0;
    const err = evalBlockApprox(theta, m0, cnt, buf, cos2) + ROUNDING_MARGIN;
    // The block's approximate argmin first, so `best` is tight before the rest are screened.
    let kmin = 0;
    for (let k = 1; k < cnt; k++) if (buf[k] < buf[kmin]) kmin = k;
    for (let pass = 0; pass < 2; pass++) {
      for (let k = pass === 0 ? kmin : 0; k < (pass === 0 ? kmin + 1 : cnt); k++) {
        if (pass === 1 && k === kmin) continue;
        if (!(buf[k] - err < best.f)) continue;
        const f = fAt(theta, m0 + k);
        if (f < best.f) best = { m: m0 + k, f };
      }
    }
    if (best.f < -tol) return best;
  }
  return best;
}
