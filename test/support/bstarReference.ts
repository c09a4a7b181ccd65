/**
 * An independent check of b* values, sharing no code with shared/bstar: θ_i = b^(−2i/d) by
 * Math.pow and f_b(m) = Σ Math.cos(m·θ_i), evaluated directly for every m < L (no recurrences, no
 * interpolation, no steps). Used by the unit tests (L ≤ 2^20) and the bench (2^22, 2^24).
 */
export const REFERENCE_TOLERANCE = 1e-7;

function thetasByPow(base: number, headDim: number): Float64Array {
  const t = new Float64Array(headDim / 2);
  for (let i = 0; i < t.length; i++) t[i] = Math.pow(base, (-2 * i) / headDim);
  return t;
}

function f(theta: Float64Array, m: number): number {
  let s = 0;
  for (let i = 0; i < theta.length; i++) s += Math.cos(m * theta[i]);
  return s;
}

/** min over m < L of f_b(m) and where it is. */
export function directMin(base: number, headDim: number, length: number): { f: number; m: number } {
  const th = thetasByPow(base, headDim);
  let best = { f: Infinity, m: -1 };
  for (let m = 0; m < length; m++) {
    const v = f(th, m);
    if (v < best.f) best = { f: v, m };
  }
  return best;
}

/** The first m < L with f_b(m) < below (default 0), or null. */
export function directFirstBelow(base: number, headDim: number, length: number, below = 0): { f: number; m: number } | null {
  const th = thetasByPow(base, headDim);
  for (let m = 0; m < length; m++) {
    const v = f(th, m);
    if (v < below) return { f: v, m };
  }
  return null;
}

/**
 * The claim "b* = claimed" checked directly: min f at the claimed base ≥ −1e-7 for every m < L, and
 * an m with f < −1e-7 (invalid, not just below 0) at claimed·(1 − gap).
 */
export function checkBstarClaim(
  claimed: number,
  headDim: number,
  length: number,
  gap = 1e-6,
): {
  minAt: { f: number; m: number };
  below: { base: number; witness: { f: number; m: number } | null };
  holds: boolean;
} {
  const minAt = directMin(claimed, headDim, length);
  const base = claimed * (1 - gap);
  const witness = directFirstBelow(base, headDim, length, -REFERENCE_TOLERANCE);
  return { minAt, below: { base, witness }, holds: minAt.f >= -REFERENCE_TOLERANCE && witness !== null };
}
