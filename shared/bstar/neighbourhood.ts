/**
 * Proof that a base's whole neighbourhood is valid (pure float64, no Node APIs): every real base in
 * [(1 − MARGIN)·c, (1 + MARGIN)·c] has f_b(m) ≥ −TOLERANCE for every integer m < L. A grid of bases
 * is not enough (validity is not monotone in b; islands narrower than any grid step exist), so the
 * grid is joined by a derivative bound in s = ln b:
 *     ∂f/∂s = Σᵢ sin(m·θᵢ)·m·θᵢ·aᵢ,  aᵢ = 2i/d,  so |∂f/∂s| ≤ m·S(b),  S(b) = Σᵢ aᵢ·b^(−aᵢ),
 * and S falls as b grows, so S at the neighbourhood's lower end bounds it everywhere. On a cell
 * [s_k, s_k+1] × (block of m with largest m M) with h = s_k+1 − s_k, each f(·, m) is M·S-Lipschitz, so
 *     f ≥ (f(s_k, m) + f(s_k+1, m) − M·S·h) / 2 ≥ (min_k + min_k+1 − M·S·h) / 2
 * with min_k the minimum of f over the block at base k. A cell the bound cannot clear is halved in s,
 * the block evaluated in float64 at the midpoint, until it clears or a value below −TOLERANCE is found.
 *
 * The grid's step comes from the bound: M·S·h ≈ GRID_DROP at the top block, so the proof costs about
 * (grid bases) × L cosines, with GRID_DROP trading grid bases for refinements.
 *
 * A screen (the WebGPU float32 screen with its proven ε) may supply lower bounds per (grid base,
 * block). The proof then evaluates in float64 only what the lower bounds cannot clear, and takes every
 * decision on float64 values exactly as the CPU does, so the verdict and the witness are the same with
 * and without it: grid bases are visited from the top down, then cells block by block from
 * the top of m down (bases top down within a block), and the first failure in that order is the witness.
 */
import { BLOCK, TOLERANCE, cos2Of, evalBlock, firstNegative, thetas } from '../rope/fb';
import { Cancellable, throwIfAborted } from './cancel';

/** The neighbourhood is [(1 − MARGIN)·c, (1 + MARGIN)·c]. */
export const NEIGHBOURHOOD_MARGIN = 0.1;
/** Values of m per cell of the proof (a divisor of BLOCK, so a screen's chunks line up). */
export const PROOF_BLOCK = 256;
/** The f-drop the derivative bound allows across one grid step at the top block. */
export const GRID_DROP = 64;
/**
 * A screen also evaluates this many sub-cells per grid cell: lower bounds there clear a cell without
 * float64 work. A cell is skipped only when every sub-cell clears, i.e. when no value below −tol can
 * lie in it; the float64 refinement of such a cell would find nothing either, so the first failing
 * cell, and its witness, are the CPU's.
 */
export const SCREEN_SUBCELLS = 64;
/** (Bases × blocks) per screen request: keeps each answer a few MB. */
const SCREEN_SLICE = 1 << 22;
/** Halvings of one cell before the proof gives up on it (the candidate then counts as not robust). */
const MAX_DEPTH = 40;
/** Relative slack on the Lipschitz constant and the step (rounding of S, of ln b, of θ). */
const SLACK = 1e-9;

export interface NeighbourhoodWitness {
  /** A base in the neighbourhood and an m with f_base(m) < −TOLERANCE (or, undecided, the cell's least value). */
  base: number;
  m: number;
  f: number;
}

export interface ProofStats {
  gridBases: number;
  blocks: number;
  /** Cells halved at least once, and block evaluations made by the halvings. */
  cellsRefined: number;
  refineEvals: number;
  /** Grid (base, block) values evaluated in float64 (all of them without a screen). */
  exactBlocks: number;
  screened: boolean;
  /** Bases the screen evaluated (the grid and SCREEN_SUBCELLS − 1 more inside each of its cells). */
  screenBases: number;
}

export type NeighbourhoodVerdict =
  | { robust: true; stats: ProofStats }
  | {
      robust: false;
      witness: NeighbourhoodWitness;
      undecided: boolean;
      stats: ProofStats;
      /** The block of m (index j, blocks of PROOF_BLOCK) being judged when the proof failed: merges parts. */
      atBlock: number;
    };

/**
 * Lower bounds of f over (grid base k, block j), row-major [k·blocks + j], block j = [j·B, min((j+1)·B, L)).
 * NaN or −∞ mean unknown. null: no screen this time (the proof runs on the CPU).
 */
export type NeighbourhoodScreen = (bases: Float64Array, headDim: number, length: number, block: number) => Float64Array | null;

export interface ProofPart {
  index: number;
  count: number;
  /**
   * Shared between the parts: [0] holds 1 + the highest block where a part has failed (0: none). A
   * part stops when a failure above its next block is known: its lower blocks cannot change the
   * merged verdict, and it answers robust for what it judged.
   */
  failedAbove?: Int32Array;
}

export interface ProofOptions {
  signal?: Cancellable;
  screen?: NeighbourhoodScreen;
  /** Override GRID_DROP (tests, benchmarks). */
  gridDrop?: number;
  /** Override SCREEN_SUBCELLS (tests, benchmarks). */
  subcells?: number;
  /**
   * Judge only the blocks j with j mod count = index (one part of a proof split across threads; see
   * mergeProofParts). Without it, every block.
   */
  part?: ProofPart;
}

/** S(b) = Σᵢ aᵢ·b^(−aᵢ): |∂f/∂ln b| ≤ m·S(b) for every m, and S is non-increasing in b. */
export function derivativeScale(base: number, headDim: number): number {
  const th = thetas(base, headDim);
  let s = 0;
  for (let i = 1; i < th.length; i++) s += ((2 * i) / headDim) * th[i];
  return s * (1 + SLACK);
}

/** The proof's grid of bases, lowest first: its ends are exactly (1 ∓ MARGIN)·c. */
export function proofGrid(candidate: number, headDim: number, length: number, gridDrop = GRID_DROP): Float64Array {
  const lo = candidate * (1 - NEIGHBOURHOOD_MARGIN);
  const hi = candidate * (1 + NEIGHBOURHOOD_MARGIN);
  const span = Math.log(hi / lo);
  const top = (length - 1) * derivativeScale(lo, headDim);
  const cells = Math.max(1, Math.ceil((span * top) / gridDrop));
  const out = new Float64Array(cells + 1);
  for (let k = 0; k <= cells; k++) out[k] = lo * Math.exp((span * k) / cells);
  out[0] = lo;
  out[cells] = hi;
  return out;
}

/** Minimum of f over block j at one base (float64 block scan), with its argmin. */
function blockMin(theta: Float64Array, cos2: Float64Array, j: number, length: number, buf: Float64Array): { f: number; m: number } {
  const m0 = j * PROOF_BLOCK;
  const count = Math.min(PROOF_BLOCK, length - m0);
  evalBlock(theta, m0, count, buf, cos2);
  let f = Infinity,
    at = m0;
  for (let k = 0; k < count; k++) {
    if (buf[k] < f) {
      f = buf[k];
      at = m0 + k;
    }
  }
  return { f, m: at };
}

/**
 * Is every base within ±MARGIN of `candidate` valid for `length`? Inputs are assumed validated
 * (base > 1, even d ≥ 2, 1 ≤ L ≤ MAX_LENGTH).
 *
 * Blocks of m are visited from the top down (f is smallest at large m, so a failing neighbourhood
 * fails in the first blocks visited); within a block, the grid bases top down, then its cells top
 * down. The first failure in that order is the witness. Lower blocks need a coarser grid (the
 * derivative bound grows with m): a block uses every `stride`-th grid base, the largest power of two
 * that keeps M·S·h ≤ GRID_DROP, so a proof costs about half of (grid bases) × L cosines. Values at a
 * block's grid bases are kept while the block is judged, so a cell's refinement starts from them.
 */
export function proveNeighbourhood(candidate: number, headDim: number, length: number, opts: ProofOptions = {}): NeighbourhoodVerdict {
  const tol = TOLERANCE;
  const gridDrop = opts.gridDrop ?? GRID_DROP;
  const grid = proofGrid(candidate, headDim, length, gridDrop);
  const nBases = grid.length;
  const cells = nBases - 1;
  const nb = Math.ceil(length / PROOF_BLOCK);
  const S = derivativeScale(grid[0], headDim);
  const span = Math.log(grid[cells] / grid[0]);
  const stats: ProofStats = { gridBases: nBases, blocks: nb, cellsRefined: 0, refineEvals: 0, exactBlocks: 0, screened: false, screenBases: 0 };
  const screened = opts.screen ? screenCells(opts.screen, grid, headDim, length, S, opts.subcells ?? SCREEN_SUBCELLS, opts.signal) : null;
  stats.screened = screened !== null;
  stats.screenBases = screened?.bases ?? 0;
  const th: (Float64Array | undefined)[] = new Array(nBases);
  const c2: (Float64Array | undefined)[] = new Array(nBases);
  const at = (k: number) => {
    let t = th[k];
    if (!t) {
      t = thetas(grid[k], headDim);
      th[k] = t;
      c2[k] = cos2Of(t);
    }
    return { th: t, cos2: c2[k]! };
  };
  // One block's float64 values at each grid base (evaluated on demand), and their minima.
  const vals = new Float64Array(nBases * PROOF_BLOCK);
  const mins = new Float64Array(nBases);
  let j = nb - 1;
  const part = opts.part;
  const notRobust = (witness: NeighbourhoodWitness, undecided = false): NeighbourhoodVerdict => {
    if (part?.failedAbove) raiseTo(part.failedAbove, j + 1);
    return { robust: false, witness, undecided, stats, atBlock: j };
  };

  for (; j >= 0; j--) {
    if (part && j % part.count !== part.index) continue;
    if (part?.failedAbove && Atomics.load(part.failedAbove, 0) > j + 1) break;
    throwIfAborted(signalOf(opts));
    const m0 = j * PROOF_BLOCK;
    const count = Math.min(PROOF_BLOCK, length - m0);
    const mTop = m0 + count - 1;
    mins.fill(NaN);
    const exact = (k: number): number => {
      if (Number.isNaN(mins[k])) {
        const t = at(k);
        const out = vals.subarray(k * PROOF_BLOCK, k * PROOF_BLOCK + count);
        evalBlock(t.th, m0, count, out, t.cos2);
        let f = Infinity;
        for (let q = 0; q < count; q++) if (out[q] < f) f = out[q];
        mins[k] = f;
        stats.exactBlocks++;
      }
      return mins[k];
    };
    const lowerOf = (k: number): number => {
      if (!Number.isNaN(mins[k])) return mins[k];
      const v = screened ? screened.coarse[k * nb + j] : NaN;
      return Number.isNaN(v) ? exact(k) : v;
    };
    // The coarsest stride (a power of two) whose cells keep the drop within GRID_DROP at this block.
    const need = Math.max(1, Math.ceil((span * mTop * S) / gridDrop));
    let stride = 1;
    while (stride * 2 * need <= cells) stride *= 2;
    const nodes: number[] = [];
    for (let k = 0; k < cells; k += stride) nodes.push(k);
    nodes.push(cells);

    // Grid bases, top down: the first one with a value below −tol is the witness (its first such m).
    for (let i = nodes.length - 1; i >= 0; i--) {
      const k = nodes[i];
      if (lowerOf(k) < -tol && exact(k) < -tol) return notRobust({ base: grid[k], ...firstBelow(at(k).th, 0, length, tol, new Float64Array(BLOCK)) });
    }
    // Cells, top down: screen bounds first, exact minima where they do not clear the cell.
    for (let i = nodes.length - 2; i >= 0; i--) {
      const k = nodes[i],
        k1 = nodes[i + 1];
      if (screened && allCleared(screened.cleared, k, k1, nb, j)) continue;
      const h = stepOf(grid[k], grid[k1]);
      const drop = mTop * S * h;
      if ((lowerOf(k) + lowerOf(k1) - drop) / 2 >= -tol) continue;
      if ((exact(k) + exact(k1) - drop) / 2 >= -tol) continue;
      stats.cellsRefined++;
      const fLo = vals.slice(k * PROOF_BLOCK, k * PROOF_BLOCK + count);
      const fHi = vals.slice(k1 * PROOF_BLOCK, k1 * PROOF_BLOCK + count);
      const w = refineRange(grid[k], grid[k1], fLo, fHi, m0, 0);
      if (w) return notRobust(w.witness, w.undecided);
    }
  }
  return { robust: true, stats };

  /**
   * A cell the block minima cannot clear: per m, f at both ends gives its own bound. The range of m
   * that still fails is evaluated at the midpoint base (one float64 block scan) and each half is
   * judged the same way, until every m clears or a value below −tol turns up. Order: upper half
   * first, m upward. fx, fy: f at bases x < y for m = m0 … m0 + fx.length − 1.
   */
  function refineRange(
    x: number,
    y: number,
    fx: Float64Array,
    fy: Float64Array,
    m0: number,
    depth: number,
  ): { witness: NeighbourhoodWitness; undecided: boolean } | null {
    const h = stepOf(x, y);
    let first = -1,
      last = -1;
    for (let q = 0; q < fx.length; q++) {
      if ((fx[q] + fy[q] - (m0 + q) * S * h) / 2 >= -tol) continue;
      if (first < 0) first = q;
      last = q;
    }
    if (first < 0) return null;
    if (depth >= MAX_DEPTH || !(y > x)) {
      let q = first;
      for (let r = first; r <= last; r++) if (Math.min(fx[r], fy[r]) < Math.min(fx[q], fy[q])) q = r;
      return { witness: { base: x, m: m0 + q, f: Math.min(fx[q], fy[q]) }, undecided: true };
    }
    const mid = Math.sqrt(x * y);
    const tm = thetas(mid, headDim);
    const n = last - first + 1;
    const fm = new Float64Array(n);
    evalBlock(tm, m0 + first, n, fm, cos2Of(tm));
    stats.refineEvals++;
    for (let q = 0; q < n; q++) if (fm[q] < -tol) return { witness: { base: mid, m: m0 + first + q, f: fm[q] }, undecided: false };
    return (
      refineRange(mid, y, fm, fy.subarray(first, last + 1), m0 + first, depth + 1) ??
      refineRange(x, mid, fx.subarray(first, last + 1), fm, m0 + first, depth + 1)
    );
  }
}

/**
 * The verdict of a proof split into parts (each run with `part: { index, count }` for every index):
 * the same as the whole proof's. The whole proof judges blocks from the top of m down and stops at the
 * first failure; a part stops at its own first failure, and every block above the highest failing
 * block passed in its own part, so that failure is the whole proof's, witness and all.
 */
export function mergeProofParts(parts: readonly NeighbourhoodVerdict[]): NeighbourhoodVerdict {
  const stats: ProofStats = { gridBases: 0, blocks: 0, cellsRefined: 0, refineEvals: 0, exactBlocks: 0, screened: false, screenBases: 0 };
  let failed: Extract<NeighbourhoodVerdict, { robust: false }> | undefined;
  for (const p of parts) {
    stats.gridBases = p.stats.gridBases;
    stats.blocks = p.stats.blocks;
    stats.cellsRefined += p.stats.cellsRefined;
    stats.refineEvals += p.stats.refineEvals;
    stats.exactBlocks += p.stats.exactBlocks;
    if (!p.robust && (!failed || p.atBlock > failed.atBlock)) failed = p;
  }
  return failed ? { ...failed, stats } : { robust: true, stats };
}

/** cell[0] = max(cell[0], v), atomically. */
function raiseTo(cell: Int32Array, v: number): void {
  for (let now = Atomics.load(cell, 0); now < v; now = Atomics.load(cell, 0)) if (Atomics.compareExchange(cell, 0, now, v) === now) return;
}

/** Did the screen clear every finest cell from grid base k to k1 at block j? */
function allCleared(cleared: Uint8Array, k: number, k1: number, nb: number, j: number): boolean {
  for (let c = k; c < k1; c++) if (!cleared[c * nb + j]) return false;
  return true;
}

/**
 * The first m in [from, to) with f < −tol (as lmax reports it); `fallback` (a block minimum already
 * below −tol) when the scan, whose blocks start elsewhere, rounds that value to just above −tol.
 */
function firstBelow(
  theta: Float64Array,
  from: number,
  to: number,
  tol: number,
  buf: Float64Array,
  fallback?: { f: number; m: number },
): { m: number; f: number } {
  const hit = firstNegative(theta, from, to, tol, buf);
  if (hit) return { m: hit.m, f: hit.f };
  if (fallback) return { m: fallback.m, f: fallback.f };
  const cos2 = cos2Of(theta);
  let best = { m: from, f: Infinity };
  for (let j = Math.floor(from / PROOF_BLOCK); j * PROOF_BLOCK < to; j++) {
    const r = blockMin(theta, cos2, j, to, buf);
    if (r.f < best.f) best = r;
  }
  return best;
}

/**
 * The screen over the grid and its sub-cells, slice by slice: lower bounds at the grid bases (for
 * the grid's own check) and, per (cell, block), whether every sub-cell clears. null: no screen.
 */
function screenCells(
  screen: NeighbourhoodScreen,
  grid: Float64Array,
  headDim: number,
  length: number,
  S: number,
  R: number,
  signal?: Cancellable,
): { coarse: Float64Array; cleared: Uint8Array; bases: number } | null {
  const cells = grid.length - 1;
  const nb = Math.ceil(length / PROOF_BLOCK);
  const coarse = new Float64Array(grid.length * nb).fill(NaN);
  const cleared = new Uint8Array(cells * nb);
  const span = Math.log(grid[cells] / grid[0]);
  const per = Math.max(1, Math.floor(SCREEN_SLICE / (nb * R)));
  let bases = 0;
  for (let k0 = 0; k0 < cells; k0 += per) {
    throwIfAborted(signal);
    const k1 = Math.min(cells, k0 + per);
    const fine = new Float64Array((k1 - k0) * R + 1);
    for (let k = k0; k < k1; k++) {
      for (let r = 0; r < R; r++) fine[(k - k0) * R + r] = r === 0 ? grid[k] : grid[0] * Math.exp((span * (k * R + r)) / (cells * R));
    }
    fine[fine.length - 1] = grid[k1];
    const lower = screen(fine, headDim, length, PROOF_BLOCK);
    if (!lower) return null;
    bases += fine.length;
    for (let k = k0; k <= k1; k++) coarse.set(lower.subarray((k - k0) * R * nb, ((k - k0) * R + 1) * nb), k * nb);
    for (let k = k0; k < k1; k++) {
      for (let j = 0; j < nb; j++) {
        const mTop = Math.min((j + 1) * PROOF_BLOCK, length) - 1;
        let ok = true;
        for (let r = 0; r < R && ok; r++) {
          const a = (k - k0) * R + r;
          const v = (lower[a * nb + j] + lower[(a + 1) * nb + j] - mTop * S * stepOf(fine[a], fine[a + 1])) / 2;
          ok = v >= -TOLERANCE;
        }
        cleared[k * nb + j] = ok ? 1 : 0;
      }
    }
  }
  return { coarse, cleared, bases };
}

/** ln(y/x) rounded up: the step in s the derivative bound is applied over. */
function stepOf(x: number, y: number): number {
  return (Math.log(y) - Math.log(x)) * (1 + SLACK) + 2 * Number.EPSILON * Math.abs(Math.log(y));
}

function signalOf(opts: ProofOptions): Cancellable | undefined {
  return opts.signal;
}
