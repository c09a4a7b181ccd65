/**
 * The CPU's exact scan, skipping what a screen proves irrelevant (pure; the GPU itself lives in
 * shared/node). `scanMinCertified(θ, 0, L)` walks blocks of BLOCK values of m from the top down and
 * stops after the first block holding a value below −tol; otherwise it returns the exact minimum.
 * Its answer decides the sweep's next step, so a GPU run reproduces it exactly, not just "a" witness
 * or "a" minimum: a different witness moves the sweep along other bases, and b* would come out a few
 * ulps apart (seen on llvmpipe at L = 2^18 when the screen picked its own witness).
 *
 * The screen gives, per top-down block j, a lower bound lower[j] ≤ min f over the block (float32
 * chunk minima minus the proven ε; NaN or −∞ when unknown). Then:
 *  - witness: only blocks with lower[j] < −tol can hold a value below −tol, so the first of them (in
 *    the scan's order) whose exact minimum is below −tol is the block the CPU scan stops at, and its
 *    exact minimum is the CPU's answer (earlier blocks were all ≥ −tol, above it);
 *  - certificate: no block holds a value below −tol; the answer is the exact minimum, found by
 *    evaluating blocks in increasing lower[j] until lower[j] exceeds the best value, ties going to
 *    the block the CPU scan reaches first.
 * Each block is evaluated by scanMinCertified itself on that block alone, so the values (and the
 * order among equal values inside a block) are the CPU's. An evaluated block whose exact minimum lies
 * outside [lower[j], lower[j] + 2ε] shows the driver broke the bound's assumptions: 'violated'.
 */
import { BLOCK, ScanHit, scanMinCertified } from '../rope/fb';
import { Cancellable, throwIfAborted } from './cancel';

export interface BlockBounds {
  /** Per top-down block j = [L − (j+1)·BLOCK, L − j·BLOCK) ∩ [0, L): a lower bound of f over it. */
  lower: Float64Array;
  /** The proven bound on |screen value − f| the bounds were made with. */
  eps: number;
}

export type ScreenVerdict = { kind: 'hit'; hit: ScanHit; blocksChecked: number } | { kind: 'violated'; block: number; lower: number; exact: number };

/** Blocks of the CPU scan over m < length, top-down (the order scanMinCertified visits them). */
export function scanBlocks(length: number): number {
  return Math.ceil(length / BLOCK);
}

export function blockRange(length: number, j: number): [number, number] {
  const hi = length - j * BLOCK;
  return [Math.max(0, hi - BLOCK), hi];
}

export function scanMinFromScreen(theta: Float64Array, length: number, s: BlockBounds, tol: number, buf: Float64Array, signal?: Cancellable): ScreenVerdict {
  const { lower, eps } = s;
  const nb = scanBlocks(length);
  let checked = 0;
  const exact = (j: number): ScanHit | { violated: true; exact: number } => {
    throwIfAborted(signal);
    const [lo, hi] = blockRange(length, j);
    const r = scanMinCertified(theta, lo, hi, tol, buf);
    checked++;
    const lb = lower[j];
    // (An unknown bound, NaN or −∞, checks nothing.)
    if (r.f < lb || (Number.isFinite(lb) && r.f > lb + 2 * eps)) return { violated: true, exact: r.f };
    return r;
  };
  // Witness: the first block, top-down, that can and does hold a value below −tol.
  for (let j = 0; j < nb; j++) {
    if (lower[j] >= -tol) continue;
    const r = exact(j);
    if ('violated' in r) return { kind: 'violated', block: j, lower: lower[j], exact: r.exact };
    if (r.f < -tol) return { kind: 'hit', hit: r, blocksChecked: checked };
  }
  // Certificate: the exact minimum over every block (NaN bounds sort first: they are evaluated).
  const order = Array.from({ length: nb }, (_, j) => j);
  const key = (j: number) => (Number.isNaN(lower[j]) ? -Infinity : lower[j]);
  order.sort((a, b) => key(a) - key(b) || a - b);
  let best: ScanHit = { m: 0, f: Infinity };
  let bestBlock = nb;
  for (const j of order) {
    if (key(j) > best.f) break;
    const r = exact(j);
    if ('violated' in r) return { kind: 'violated', block: j, lower: lower[j], exact: r.exact };
    if (r.f < best.f || (r.f === best.f && j < bestBlock)) {
      best = r;
      bestBlock = j;
    }
  }
  return { kind: 'hit', hit: best, blocksChecked: checked };
}

/**
 * Per-block lower bounds from float32 chunk minima of a screen laid on the scan's block grid: chunk c
 * covers m ∈ [r + c·chunk, r + (c+1)·chunk) with r = L mod chunk and chunk dividing BLOCK, so every
 * chunk lies in one block; m < r (the bottom block's first few) is unscreened, so that block's bound is −∞.
 */
export function blockBoundsFromChunks(length: number, chunk: number, minima: Float32Array, eps: number): BlockBounds {
  if (BLOCK % chunk !== 0) throw new Error(`screen chunk ${chunk} does not divide the scan block ${BLOCK}`);
  const nb = scanBlocks(length);
  const lower = new Float64Array(nb).fill(Infinity);
  const r = length % chunk;
  for (let c = 0; c < minima.length; c++) {
    const m = r + c * chunk;
    const j = Math.floor((length - 1 - m) / BLOCK);
    const v = minima[c] - eps;
    // NaN propagates (a NaN screen value means "unknown": the block is evaluated).
    if (Number.isNaN(v) || v < lower[j]) lower[j] = v;
  }
  if (r > 0) lower[nb - 1] = -Infinity;
  return { lower, eps };
}
