/**
 * Long certified steps in the base for one witness m (pure float64, no Node APIs).
 *
 * In s = ln(b'/b) every phase is φ_i(s) = φ_i·e^(−a_i·s) (φ_i = m·θ_i, a_i = 2i/d), so
 * f(s) = Σ cos(φ_i·e^(−a_i·s)). The sweep needs the largest h with f < target on all of [0, h].
 * An upper bound on f that is a polynomial in s and valid for every s ≥ 0:
 * - each phase is replaced by its tangent φ_i − a_i·φ_i·s. The gap φ_i·(e^(−a·s) − 1 + a·s) lies in
 *   [0, a²·φ_i·s²/2] and |cos u − cos v| ≤ |u − v|, so one s² term covers it;
 * - Σ cos(φ_i − a_i·φ_i·s) is bounded by its Taylor polynomial of degree K − 1 (exact coefficients
 *   ±Σ (a_i·φ_i)^k·cos or sin φ_i / k!) plus the Lagrange remainder Σ (a_i·φ_i)^K·s^K/K!.
 * That polynomial stays below the target on [0, h] when its Bernstein coefficients on [0, h] are all
 * negative (convex-hull property). Compared with the former cubic bound (with a crude |f'''| bound)
 * the step is several times longer for the same trig cost (d/2 cos and sin).
 */

import { cosPhase, sinPhase } from '../rope/trig';

/** Order of the remainder term (the Taylor polynomial has degree K − 1); step() unrolls K = 10. */
export const JET_ORDER = 10;
const K = JET_ORDER;

const FACT: Float64Array = (() => {
  const f = new Float64Array(K + 1);
  f[0] = 1;
  for (let n = 1; n <= K; n++) f[n] = f[n - 1] * n;
  return f;
})();
/** BINOM_RATIO[k][j] = C(k, j)/C(K, j): power → Bernstein coefficients on [0, 1]. */
const BINOM_RATIO: Float64Array[] = (() => {
  const C = (n: number, r: number) => {
    let v = 1;
    for (let t = 1; t <= r; t++) v = (v * (n - r + t)) / t;
    return v;
  };
  const out: Float64Array[] = [];
  for (let k = 0; k <= K; k++) {
    const r = new Float64Array(k + 1);
    for (let j = 0; j <= k; j++) r[j] = C(k, j) / C(K, j);
    out.push(r);
  }
  return out;
})();

/** Reusable buffers for one sweep (no allocation per step). */
export class JetStepper {
  private readonly coef = new Float64Array(K + 1);
  private readonly acc = new Float64Array(K + 1);
  private readonly v = new Float64Array(K + 1);
  /** f at the last base evaluated by step(). */
  f = 0;

  /**
   * For witness m at base b (θ = thetas(b, d)): f_b(m), and the largest relative step s ≥ 0 such that
   * f < target on every base in [b, b·e^s] (0 when f ≥ target). Cost: d/2 cos + sin and O(d·K) flops.
   */
  step(theta: Float64Array, m: number, target: number): number {
    const n = theta.length;
    const d = 2 * n;
    // Scale: W = max a_i·φ_i, so that in x = W·s the coefficients are O(1).
    let W = 0;
    for (let i = 1; i < n; i++) {
      const r = ((2 * i) / d) * m * theta[i];
      if (r > W) W = r;
    }
    // Σ α^k cos φ (k even) and Σ α^k sin φ (k odd), the remainder Σ α^K and the curvature Σ α·β/2,
    // in locals (K = 10 unrolled: this loop is a third of the sweep's time at long L).
    let s1 = 0,
      s2 = 0,
      s3 = 0,
      s4 = 0,
      s5 = 0,
      s6 = 0,
      s7 = 0,
      s8 = 0,
      s9 = 0;
    let rem = 0,
      curv = 0,
      f = cosPhase(m * theta[0]); // θ_0 = 1 for every base: constant in s
    const invW = W > 0 ? 1 / W : 0;
    for (let i = 1; i < n; i++) {
      const phi = m * theta[i];
      const c = cosPhase(phi);
      f += c;
      if (W === 0) continue;
      const sn = sinPhase(phi);
      const a = (2 * i) / d;
      const alpha = a * phi * invW;
      curv += alpha * a * invW;
      const a2 = alpha * alpha;
      const p3 = alpha * a2,
        q4 = a2 * a2;
      const p5 = p3 * a2,
        q6 = q4 * a2;
      const p7 = p5 * a2,
        q8 = q6 * a2;
      const p9 = p7 * a2;
      s1 += alpha * sn;
      s2 += a2 * c;
      s3 += p3 * sn;
      s4 += q4 * c;
      s5 += p5 * sn;
      s6 += q6 * c;
      s7 += p7 * sn;
      s8 += q8 * c;
      s9 += p9 * sn;
      rem += q8 * a2; // α^K
    }
    const acc = this.acc;
    acc[1] = s1;
    acc[2] = s2;
    acc[3] = s3;
    acc[4] = s4;
    acc[5] = s5;
    acc[6] = s6;
    acc[7] = s7;
    acc[8] = s8;
    acc[9] = s9;
    this.f = f;
    if (!(f < target) || W === 0) return 0;
    const coef = this.coef;
    coef[0] = f;
    // d^k/dx^k cos(φ − αx) at 0 = Re(e^{iφ}(−iα)^k): signs +sin, −cos, −sin, +cos, ...
    for (let k = 1; k < K; k++) {
      const sign = (k & 3) === 1 || (k & 3) === 0 ? 1 : -1;
      coef[k] = (sign * acc[k]) / FACT[k];
    }
    // Phase curvature φ(e^(−βx) − 1 + βx) ∈ [0, αβx²/2] shifts each cosine by at most that much.
    coef[2] += 0.5 * curv;
    coef[K] = rem / FACT[K];
    const x = this.firstSafe(target);
    // A hair short of the proven interval, so rounding in b·e^s never lands past it.
    return x * invW * (1 - 1e-9);
  }

  /** U(x) = Σ coef_k x^k (coef[0] = f < target): the largest x found with U < target on [0, x]. */
  private firstSafe(target: number): number {
    const coef = this.coef;
    const U = (x: number) => {
      let s = coef[K];
      for (let k = K - 1; k >= 0; k--) s = s * x + coef[k];
      return s - target;
    };
    // Bracket the first crossing by doubling, then bisect.
    let lo = 0,
      hi = 1 / 64;
    while (U(hi) < 0 && hi < 1e6) {
      lo = hi;
      hi *= 2;
    }
    for (let it = 0; it < 40 && hi - lo > 1e-6 * hi; it++) {
      const mid = 0.5 * (lo + hi);
      if (U(mid) < 0) lo = mid;
      else hi = mid;
    }
    // Certify [0, x] by Bernstein coefficients; shrink until they are all negative.
    let x = lo;
    for (let tries = 0; tries < 60 && x > 0; tries++) {
      if (this.bernsteinNegative(x, target)) return x;
      x *= 0.75;
    }
    return 0;
  }

  /** All Bernstein coefficients of U(x·t) − target on t ∈ [0, 1] are negative. */
  private bernsteinNegative(x: number, target: number): boolean {
    const v = this.v,
      coef = this.coef;
    let p = 1;
    for (let k = 0; k <= K; k++) {
      v[k] = coef[k] * p;
      p *= x;
    }
    v[0] -= target;
    for (let k = 0; k <= K; k++) {
      const r = BINOM_RATIO[k];
      let s = 0;
      for (let j = 0; j <= k; j++) s += r[j] * v[j];
      if (!(s < 0)) return false;
    }
    return true;
  }
}
