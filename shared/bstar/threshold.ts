/**
 * The base above which every base is valid for (L, d). Pure float64, no Node APIs.
 *
 * Two numbers with different strengths:
 * - certifiedAbove: every base ≥ it is valid, proven. With h(x) = cos x for x ≤ π and −1 beyond,
 *   h ≤ cos and h is non-increasing, so g_b(m) = Σ h(m·θ_i) ≤ f_b(m) is non-increasing in m and
 *   non-decreasing in b; g_b(L−1) ≥ 0 therefore makes b and every larger base valid. It is loose
 *   (100–500× the estimate for d = 128).
 * - threshold (estimate): the largest invalid base found by scanning a geometric grid downward
 *   from a start where the grid is valid, refined between the last invalid and first valid grid
 *   points. Invalid bases between grid points can be missed, so it can be low by up to one
 *   refinement step or miss a narrow invalid stretch higher up.
 */
import { TOLERANCE, allAtLeast, thetas } from '../rope/fb';
import { Cancellable, throwIfAborted } from './cancel';

export interface ThresholdResult {
  threshold: number;
  certifiedAbove: number;
  guarantee: string;
}

const GRID_RATIO = 1.02;
const REFINE_STEPS = 10;

function gBound(base: number, headDim: number, m: number): number {
  let s = 0;
  for (let i = 0; i < headDim / 2; i++) {
    const x = m * Math.pow(base, (-2 * i) / headDim);
    s += x <= Math.PI ? Math.cos(x) : -1;
  }
  return s;
}

/** Smallest base (to 1e-12 relative) with g_b(L−1) ≥ 0; bisection is sound because g is monotone in b. */
export function certifiedValidAbove(length: number, headDim: number): number {
  const m = length - 1;
  if (gBound(1, headDim, m) >= 0) return 1;
  let lo = 1,
    hi = 2;
  while (gBound(hi, headDim, m) < 0) {
    lo = hi;
    hi *= 2;
  }
  while (hi / lo - 1 > 1e-12) {
    const mid = Math.sqrt(lo * hi);
    if (gBound(mid, headDim, m) >= 0) hi = mid;
    else lo = mid;
  }
  return hi;
}

function isValid(base: number, headDim: number, length: number, buf: Float64Array, signal?: Cancellable): boolean {
  return allAtLeast(thetas(base, headDim), 0, length, TOLERANCE, buf, signal);
}

export function estimateThreshold(length: number, headDim: number, bstar: number, signal?: Cancellable): ThresholdResult {
  const certifiedAbove = certifiedValidAbove(length, headDim);
  const buf = new Float64Array(1024);
  const guarantee =
    `estimate: largest invalid base found on a ${((GRID_RATIO - 1) * 100).toFixed(0)}% geometric grid scanned downward, ` +
    `refined to ${(((GRID_RATIO - 1) / REFINE_STEPS) * 100).toFixed(1)}%; each grid base is checked exactly for every m < L ` +
    `in float64, but invalid bases between grid points can be missed. Proven: every base ≥ ${certifiedAbove.toPrecision(4)} is valid.`;
  if (bstar >= certifiedAbove) return { threshold: bstar, certifiedAbove, guarantee };
  // Find a top U where a few consecutive grid points are valid, moving up if needed.
  let top = Math.min(certifiedAbove, bstar * 64);
  for (;;) {
    throwIfAborted(signal);
    let ok = true;
    for (let k = 0; k < 3 && ok; k++) ok = isValid(top / Math.pow(GRID_RATIO, k), headDim, length, buf, signal);
    if (ok || top >= certifiedAbove) break;
    top = Math.min(certifiedAbove, top * 4);
  }
  // Walk down to the first invalid grid point.
  let upper = top;
  let lower = bstar;
  for (let b = top; b > bstar; b /= GRID_RATIO) {
    throwIfAborted(signal);
    if (!isValid(b, headDim, length, buf, signal)) {
      lower = b;
      break;
    }
    upper = b;
  }
  // Refine between the invalid grid point and the valid one above it.
  let est = lower;
  for (let k = REFINE_STEPS - 1; k >= 1; k--) {
    throwIfAborted(signal);
    const b = lower * Math.pow(upper / lower, k / REFINE_STEPS);
    if (!isValid(b, headDim, length, buf, signal)) {
      est = b;
      break;
    }
  }
  return { threshold: Math.max(est, bstar), certifiedAbove, guarantee };
}
