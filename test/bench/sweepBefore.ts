/**
 * BENCH BASELINE ONLY: the b* sweep as it was before the jet steps (cubic Taylor steps, heat order
 * sorted per scan, exact final scan), kept verbatim so `npm run bench` can time old against new in
 * the same run (its block scans use today's fb.ts, whose witness search interpolates more
 * components, so it is slightly faster than it was). Not used by the product.
 *
 * Exact b*(L, d) by a certified upward sweep in b (pure float64, no Node APIs).
 *
 * The valid set V_L = {b : f_b(m) ≥ −TOLERANCE for all m < L} is not an interval, so the sweep
 * never bisects. It starts at a base known to be ≤ b* and moves up. At each base b it needs one
 * witness m with f_b(m) < −TOLERANCE; with f, f', f'' and bounds on |f''|, |f'''| valid on [b, ∞)
 * (fWithDerivatives), a Taylor upper bound stays below −TOLERANCE/2 on [b, b+Δ) (safeStep), so that
 * whole interval is invalid and is skipped at once. Witnesses are looked for, cheapest first: the
 * witness just used, a small pool, windows of ±96 around the 8 most recent witnesses (new ones
 * mostly appear there), then a scan of all m < L that visits first the blocks of m that produced
 * witnesses recently. Searches use an approximate evaluation and confirm every hit with direct
 * cosines; only when none is found does an exact scan run. If that scan finds no value below
 * −TOLERANCE, b is the answer: every base below it was ruled out by a witness.
 *
 * V_L ⊆ V_L' for L' < L, so b*(L') ≤ b*(L): the sweep for L is chained through L/2^k, each link
 * starting at the previous answer and inheriting its witness pool.
 */
import { RopeError } from '../../shared/core/errors';
import {
  BLOCK,
  Derivatives,
  TOLERANCE,
  safeStep,
  cos2Of,
  evalBlockApprox,
  fAt,
  searchApprox,
  fDirect,
  fWithDerivatives,
  scanMin,
  thetas,
} from '../../shared/rope/fb';

export interface Cancellable {
  aborted: boolean;
}

export interface SweepOptions {
  onProgress?(fraction: number): void;
  signal?: Cancellable;
  /** A base known to be ≤ b*(L, d), e.g. b* of a shorter length. Default 1. */
  lowerBound?: number;
  /** Seeds for the witness pool (values of m; those ≥ L are ignored). Updated in place. */
  pool?: number[];
  /**
   * Optional witness screen (e.g. the gpu.js kernel): proposes an m with f_base(m) < 0 for a base,
   * or −1. Used in place of the CPU witness scan; every proposal is re-checked in float64 here, and a
   * base is only ever declared valid by the exact CPU scan.
   */
  screen?: WitnessScreen;
}

export type WitnessScreen = (base: number, length: number) => number;

export interface SweepResult {
  bstar: number;
  /** Minimum over m < L of f at b* (≥ −TOLERANCE) and where it occurs. */
  certificate: { minF: number; argminM: number };
  /** A base just below b* that is invalid, with m such that f_base(m) < 0 (direct float64). */
  witness: { base: number; m: number; f: number } | null;
  /** Work done: certified steps, witness scans, witnesses found near earlier ones / in the pool. */
  stats: { steps: number; scans: number; nearHits: number; poolHits: number };
  /** Every link of the chain: b*(L_k) for L_k = ceil(L/2^k) when no lowerBound was given. */
  links?: { length: number; bstar: number }[];
}

const POOL_MAX = 8;
/** The sweep gives up above this base (reachable only for tiny d with huge L). */
const MAX_BASE = 1e300;
/** Links per halving of L in the chain. */
const CHAIN_PER_OCTAVE = 1;
/** Recent witnesses whose ±NEAR_RADIUS windows are searched before a scan (new witnesses mostly appear there). */
const RECENT_MAX = 8;
const NEAR_RADIUS = 96;
/** Each new witness adds HEAT_GROWTH× more heat than the one before: exponential forgetting, no decay pass. */
const HEAT_GROWTH = 1.03;

function remember(recent: number[], m: number): void {
  const at = recent.indexOf(m);
  if (at >= 0) recent.splice(at, 1);
  recent.unshift(m);
  if (recent.length > RECENT_MAX) recent.length = RECENT_MAX;
}

/** Most negative m within ±NEAR_RADIUS of a recent witness (most recent first), or −1. */
function searchNear(th: Float64Array, cos2: Float64Array, length: number, recent: number[], buf: Float64Array): number {
  for (const c of recent) {
    if (c >= length) continue;
    const m0 = Math.max(0, c - NEAR_RADIUS);
    const cnt = Math.min(length, c + NEAR_RADIUS + 1) - m0;
    evalBlockApprox(th, m0, cnt, buf, cos2);
    let bk = -1,
      bf = Infinity;
    for (let k = 0; k < cnt; k++)
      if (buf[k] < bf) {
        bf = buf[k];
        bk = k;
      }
    if (!(bf < 0.05)) continue;
    // The window's smallest approximate value, confirmed with direct cosines.
    if (fAt(th, m0 + bk) < -TOLERANCE) {
      remember(recent, m0 + bk);
      return m0 + bk;
    }
  }
  return -1;
}

/** Block indices by descending heat, ties top-down (large m first). */
function heatOrder(heat: Float64Array, order: Int32Array): void {
  const idx = Array.from(order);
  idx.sort((a, b) => heat[b] - heat[a] || b - a);
  order.set(idx);
}

export function throwIfAborted(signal: Cancellable | undefined): void {
  if (signal?.aborted) throw new RopeError('cancelled', 'b* computation was cancelled');
}

function toFront(pool: number[], m: number): void {
  const at = pool.indexOf(m);
  if (at >= 0) pool.splice(at, 1);
  pool.unshift(m);
  if (pool.length > POOL_MAX) pool.length = POOL_MAX;
}

/**
 * One link of the chain: the smallest valid base ≥ start for length L. Witness search order, cheapest
 * first: the witness used last, the other pool entries, windows around recent witnesses, a full scan.
 */
export function sweepFrom(length: number, headDim: number, start: number, pool: number[], signal?: Cancellable, screen?: WitnessScreen): SweepResult {
  const buf = new Float64Array(BLOCK);
  const target = -TOLERANCE / 2;
  let b = start;
  let steps = 0,
    scans = 0,
    nearHits = 0,
    poolHits = 0;
  let last: { base: number; m: number } | null = null;
  // Witness counts per block of m: scans visit the blocks that produced witnesses before first.
  const nBlocks = Math.ceil(length / BLOCK);
  const heat = new Float64Array(nBlocks);
  const order = new Int32Array(nBlocks);
  let heatWeight = 1;
  for (let j = 0; j < nBlocks; j++) order[j] = nBlocks - 1 - j;
  const recent: number[] = pool.slice(0, RECENT_MAX);
  for (;;) {
    throwIfAborted(signal);
    if (!(b < MAX_BASE)) throw new RopeError('unsupported-length', `b* exceeds ${MAX_BASE} for L = ${length}, d = ${headDim}`);
    const th = thetas(b, headDim);
    let m = -1;
    let fd: Derivatives | null = null;
    if (pool.length > 0 && pool[0] < length) {
      fd = fWithDerivatives(b, th, pool[0]);
      if (fd.f < -TOLERANCE) m = pool[0];
    }
    for (let j = 1; m < 0 && j < pool.length; j++) {
      if (pool[j] < length && fAt(th, pool[j]) < -TOLERANCE) {
        m = pool[j];
        poolHits++;
      }
    }
    if (m < 0) {
      const cos2 = cos2Of(th);
      m = searchNear(th, cos2, length, recent, buf);
      if (m >= 0) nearHits++;
      if (m < 0) {
        scans++;
        // A cheap approximate search finds most witnesses; only when it finds none does the exact
        // scan run, which either finds one or certifies b.
        heatOrder(heat, order);
        let found = -1;
        if (screen) {
          const w = screen(b, length);
          if (w >= 0 && w < length && fAt(th, w) < -TOLERANCE) found = w;
        } else {
          found = searchApprox(th, 0, length, TOLERANCE, buf, cos2, signal, order);
        }
        const hit = found >= 0 ? { m: found, f: -Infinity } : scanMin(th, 0, length, TOLERANCE, buf, cos2, signal);
        if (hit.f >= -TOLERANCE) {
          return {
            bstar: b,
            certificate: { minF: hit.f, argminM: hit.m },
            witness: witnessBelow(b, headDim, last),
            stats: { steps, scans, nearHits, poolHits },
          };
        }
        m = hit.m;
        remember(recent, m);
      }
    }
    if (pool[0] !== m) {
      // Later witnesses weigh more (geometric growth = exponential forgetting without a decay pass).
      heat[Math.floor(m / BLOCK)] += heatWeight;
      heatWeight *= HEAT_GROWTH;
      if (heatWeight > 1e100) {
        for (let j = 0; j < nBlocks; j++) heat[j] /= heatWeight;
        heatWeight = 1;
      }
      toFront(pool, m);
      fd = fWithDerivatives(b, th, m);
    }
    const delta = safeStep(fd!, target);
    last = { base: b, m };
    const next = b + delta;
    b = next > b ? next : b * (1 + 4 * Number.EPSILON);
    steps++;
  }
}

/** The closest base below b* (tried at shrinking gaps) where a known m gives f < 0 in direct float64. */
function witnessBelow(bstar: number, headDim: number, last: { base: number; m: number } | null): { base: number; m: number; f: number } | null {
  if (!last) return null;
  for (const rel of [1e-12, 1e-10, 1e-9, 1e-8, 1e-7]) {
    const base = bstar * (1 - rel);
    if (base <= last.base) break;
    const f = fDirect(base, headDim, last.m);
    if (f < 0) return { base, m: last.m, f };
  }
  return { base: last.base, m: last.m, f: fDirect(last.base, headDim, last.m) };
}

/**
 * Lengths of the chain ending at L, ascending: ceil(L/2^(j/perOctave)) down to about 64. Every
 * ceil(L/2^k) is included, so a chain to 2^20 also yields b* at every power of two.
 */
export function chainLengths(length: number, perOctave = CHAIN_PER_OCTAVE): number[] {
  const out = new Set<number>([length]);
  for (let j = 1; ; j++) {
    const l = Math.ceil(length / Math.pow(2, j / perOctave));
    const exact = j % perOctave === 0 ? Math.ceil(length / 2 ** (j / perOctave)) : l;
    if (exact <= 64) break;
    out.add(exact);
  }
  out.add(Math.min(length, 64));
  return [...out].sort((a, b) => a - b);
}

/**
 * b*(L, d) by the chained sweep. Inputs are assumed validated. With a lowerBound, each link starts
 * at max(lowerBound, previous answer): still ≤ b*(L), because b*(L) ∈ V_L ⊆ V_{L_k}.
 */
export function sweepBstar(length: number, headDim: number, opts: SweepOptions = {}): SweepResult {
  const pool = opts.pool ?? [];
  const lowerBound = Math.max(1, opts.lowerBound ?? 1);
  const chain = chainLengths(length);
  // Work per link grows roughly like L·log L; weight progress by that.
  const weights = chain.map((l) => l * Math.log2(l + 2));
  const total = weights.reduce((a, b) => a + b, 0);
  let done = 0;
  let res: SweepResult | null = null;
  const stats = { steps: 0, scans: 0, nearHits: 0, poolHits: 0 };
  const links: { length: number; bstar: number }[] = [];
  for (let k = 0; k < chain.length; k++) {
    const prev: SweepResult | null = res;
    res = sweepFrom(chain[k], headDim, Math.max(lowerBound, prev?.bstar ?? 1), pool, opts.signal, opts.screen);
    // A link that starts on a valid base keeps the previous link's witness (its m < L too).
    if (!res.witness && prev) res.witness = prev.witness;
    stats.steps += res.stats.steps;
    stats.scans += res.stats.scans;
    stats.nearHits += res.stats.nearHits;
    stats.poolHits += res.stats.poolHits;
    links.push({ length: chain[k], bstar: res.bstar });
    done += weights[k];
    opts.onProgress?.(done / total);
  }
  return { ...res!, stats, links };
}
