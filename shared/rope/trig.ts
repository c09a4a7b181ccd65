/**
 * cos and sin of large phases, several times faster than Math.cos/Math.sin there (pure float64).
 *
 * V8's Math.cos reduces arguments above 2^20·π/2 ≈ 1.6e6 with the exact (Payne–Hanek) method, about
 * 8× slower than below. At L = 2^22 … 2^24 the fastest RoPE phases m·θ_i reach 1e7, and the b*
 * sweep evaluates them millions of times. Here x is first reduced by k·2π with 2π split in three
 * (Cody–Waite): P1 and P2 have 30 significant bits, so k·P1 and k·P2 are exact for k < 2^23, and
 * x − k·P1 is exact (both within a factor 2); the result r ∈ [−π, π] is off from x − k·2π by at
 * most a few ulp of π plus k·|2π − P1 − P2 − P3| (< 1e-27): |cosPhase(x) − cos(x)| ≤ 2e-15 for
 * |x| ≤ MAX_FAST_PHASE (the unit test checks this against Math.cos on random phases).
 */

const P1 = 6.283185303211212; // 0x1.921fb54p+2: 2π to 30 bits
const P2 = 3.9683743166540886e-9; // next 30 bits
const P3 = 2.068073192717642e-18; // the rest
const INV_2PI = 0.15915494309189535;
/** Below this V8's own reduction is fast; above MAX_FAST_PHASE k would exceed 2^23. */
const SLOW_FROM = 1.6e6;
export const MAX_FAST_PHASE = 5e7;

function reduce(x: number): number {
  const k = Math.round(x * INV_2PI);
  return x - k * P1 - k * P2 - k * P3;
}

/** cos x, within 2e-15 of Math.cos x. */
export function cosPhase(x: number): number {
  const a = x < 0 ? -x : x;
  return a < SLOW_FROM || !(a <= MAX_FAST_PHASE) ? Math.cos(x) : Math.cos(reduce(x));
}

/** sin x, within 2e-15 of Math.sin x. */
export function sinPhase(x: number): number {
  const a = x < 0 ? -x : x;
  return a < SLOW_FROM || !(a <= MAX_FAST_PHASE) ? Math.sin(x) : Math.sin(reduce(x));
}
