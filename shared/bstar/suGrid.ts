/**
 * Port of seed 001's published grid search (the baseline the benchmark compares against), float64:
 * B = 1000·L; for k = 1…5 split (0, B] into 10^k equal steps, walk up and keep the first step
 * whose f_b(m) ≥ 0 for every m < L. It is not exact: a grid can step over the valid island at b*,
 * and 1000·L is not always valid.
 *
 * Two speed-ups that cannot change the answer: a candidate stops at its first negative m, and the
 * m that failed the previous candidates are tried first (`witnessCache`), so most candidates are
 * rejected by a handful of cosines instead of a scan. Both make the baseline faster, never slower.
 */
import { BLOCK, fAt, firstNegative, thetas } from '../rope/fb';

export function suGridBstar(length: number, headDim: number, opts: { witnessCache?: boolean } = {}): { bstar: number; candidates: number; scans: number } {
  const useCache = opts.witnessCache ?? true;
  const buf = new Float64Array(BLOCK);
  const recent: number[] = [];
  let B = 1000 * length;
  let candidates = 0,
    scans = 0;
  const valid = (b: number): boolean => {
    const th = thetas(b, headDim);
    if (useCache) for (const m of recent) if (fAt(th, m) < 0) return false;
    scans++;
    // Su's test is y ≥ 0 exactly: tolerance 0.
    const hit = firstNegative(th, 0, length, 0, buf);
    if (!hit) return true;
    if (useCache) {
      recent.unshift(hit.m);
      if (recent.length > 8) recent.pop();
    }
    return false;
  };
  for (let k = 1; k <= 5; k++) {
    const n = 10 ** k;
    for (let j = 1; j <= n; j++) {
      const b = (j / n) * B;
      candidates++;
      if (b > 1 && valid(b)) {
        B = b;
        break;
      }
    }
  }
  return { bstar: B, candidates, scans };
}
