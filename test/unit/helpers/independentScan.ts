/**
 * An independent float64 reference for table and cache tests, sharing no code with shared/rope/fb.ts:
 * θᵢ = b^(−2i/d) by Math.pow, f_b(m) = Σ cos(m·θᵢ) by a complex rotation re-synced with Math.cos and
 * Math.sin every 2,048 steps (error ~1e-12 at these lengths).
 */
const TOL = 1e-7;

/** The first m < L with f_b(m) < −1e-7, or null when the base is valid for L. */
export function firstInvalidM(base: number, d: number, L: number): number | null {
  const half = d / 2;
  const th = Array.from({ length: half }, (_, i) => Math.pow(base, (-2 * i) / d));
  const cr = th.map(Math.cos);
  const sr = th.map(Math.sin);
  const re = new Float64Array(half);
  const im = new Float64Array(half);
  for (let m = 0; m < L; m++) {
    if ((m & 2047) === 0) {
      for (let i = 0; i < half; i++) {
        re[i] = Math.cos(m * th[i]);
        im[i] = Math.sin(m * th[i]);
      }
    }
    let f = 0;
    for (let i = 0; i < half; i++) {
      f += re[i];
      const r = re[i] * cr[i] - im[i] * sr[i];
      im[i] = re[i] * sr[i] + im[i] * cr[i];
      re[i] = r;
    }
    if (f < -TOL) return m;
  }
  return null;
}

/** Bases among n spread in ln b across [0.9c, 1.1c] that the scan finds invalid for L. */
export function invalidAcrossNeighbourhood(c: number, d: number, L: number, n: number): number[] {
  const bad: number[] = [];
  for (let k = 0; k < n; k++) {
    const b = 0.9 * c * Math.pow(1.1 / 0.9, k / (n - 1));
    if (firstInvalidM(b, d, L) !== null) bad.push(b);
  }
  return bad;
}

/** A small seeded generator (mulberry32): a failing sample can be re-run from the printed seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
