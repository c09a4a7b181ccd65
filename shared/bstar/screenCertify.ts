/**
 * One full scan of a base, decided in float64 from a float32 screen (pure; the GPU itself lives in
 * shared/node). The screen gives, for each chunk of `chunk` consecutive m < L, a float32 minimum g_c
 * with a proven bound |g − f| ≤ ε per value. Then every m in a chunk with g_c ≥ ε has f ≥ 0: the
 * chunk needs no float64 work. Chunks are evaluated exactly (scanMinCertified) in ascending order of
 * g_c until the next one cannot hold anything below the smallest exact value found (g_c − ε ≥ best):
 * the result is scanMinCertified's over all m < L — the first-found value below −tol (a witness) or
 * the exact minimum (the certificate) — at the cost of a few chunks.
 *
 * Every evaluated chunk is also a check of ε: an exact chunk minimum farther than ε from g_c means the
 * driver broke the bound's assumptions, and the caller must scan on the CPU instead ('violated').
 */
import { ScanHit, scanMinCertified } from '../rope/fb';
import { Cancellable, throwIfAborted } from './cancel';

export interface ChunkMinima {
  /** Float32 minimum of f over m ∈ [c·chunk, min(L, (c+1)·chunk)), for each chunk c. */
  minima: Float32Array;
  chunk: number;
  /** Proven bound on |screen value − f| (see shared/node/fbWebgpu.ts). */
  eps: number;
}

export type ScreenVerdict =
  | { kind: 'hit'; hit: ScanHit; chunksChecked: number }
  | { kind: 'violated'; chunk: number; screen: number; exact: number }
  | { kind: 'too-many'; candidates: number };

/** More candidate chunks than this fraction of all: the screen saves too little, scan on the CPU. */
const MAX_CANDIDATE_FRACTION = 0.25;

export function certifyFromScreen(theta: Float64Array, length: number, s: ChunkMinima, tol: number, buf: Float64Array, signal?: Cancellable): ScreenVerdict {
  const { minima, chunk, eps } = s;
  const chunks = Math.ceil(length / chunk);
  let gmin = Infinity;
  for (let c = 0; c < chunks; c++) if (minima[c] < gmin) gmin = minima[c];
  // best ≤ (exact value at the screen's argmin) ≤ gmin + ε, so chunks with g_c ≥ gmin + 2ε are never needed.
  const cut = gmin + 2 * eps;
  const cand: number[] = [];
  for (let c = 0; c < chunks; c++) if (minima[c] < cut || Number.isNaN(minima[c])) cand.push(c);
  if (cand.length > Math.max(16, chunks * MAX_CANDIDATE_FRACTION)) return { kind: 'too-many', candidates: cand.length };
  cand.sort((a, b) => minima[a] - minima[b]);
  let best: ScanHit = { m: 0, f: Infinity };
  let checked = 0;
  for (const c of cand) {
    if (minima[c] - eps >= best.f) break;
    throwIfAborted(signal);
    const from = c * chunk;
    const to = Math.min(length, from + chunk);
    const r = scanMinCertified(theta, from, to, tol, buf);
    checked++;
    // r.f is the chunk's exact minimum, or (early exit) some value below −tol, which the minimum is ≤ to.
    const early = r.f < -tol;
    if (!(minima[c] <= r.f + eps) || (!early && !(minima[c] >= r.f - eps))) {
      return { kind: 'violated', chunk: c, screen: minima[c], exact: r.f };
    }
    if (early) return { kind: 'hit', hit: r, chunksChecked: checked };
    if (r.f < best.f) best = r;
  }
  return { kind: 'hit', hit: best, chunksChecked: checked };
}
