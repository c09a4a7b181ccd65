/**
 * Exact b*(L, d) by a certified upward sweep in b (pure float64, no Node APIs).
 *
 * The valid set V_L = {b : f_b(m) ≥ −TOLERANCE for all m < L} is not an interval, so the sweep
 * never bisects. It starts at a base known to be ≤ b* and moves up. At each base b it needs one
 * witness m with f_b(m) < −TOLERANCE; with f, f', f'' and bounds on |f''|, |f'''| valid on [b, ∞)
 * (fWithDerivatives), a Taylor upper bound stays below −TOLERANCE/2 on [b, b+Δ) (safeStep), so that
 * whole interval is invalid and is skipped at once. Witnesses are looked for, cheapest first: the
 * witness just used, a small pool, windows of ±96 around the 8 most recent witnesses (new ones
 * mostly appear there), then a search over blocks of all m < L (witnessSearch.ts: blocks that
 * produced witnesses recently, then every block by its last-seen minimum; when a
 * witness was dear to find, a few more are collected and the one with the longest step wins).
 * Searches use an approximate evaluation and confirm every hit with direct cosines; only when none
 * is found does an exact scan run. If that scan finds no value below
 * −TOLERANCE, b is the answer: every base below it was ruled out by a witness.
 *
 * V_L ⊆ V_L' for L' < L, so b*(L') ≤ b*(L): the sweep for L is chained through L/2^k, each link
 * starting at the previous answer and inheriting its witness pool.
 */
import { RopeError } from '../core/errors';
import { JetStepper } from './jetStep';
import { ScanHit, SEARCH_SLOW_PHASE, scanMinCertified, BLOCK, TOLERANCE, cos2Of, evalBlockApprox, fAt, fDirect, thetas } from '../rope/fb';

import { Cancellable, throwIfAborted } from './cancel';
import { WitnessSearch } from './witnessSearch';

export type { Cancellable } from './cancel';
export { throwIfAborted } from './cancel';

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
  /**
   * Optional stand-in for the exact scan over all m < L (the WebGPU screen, via screenCertify.ts): it
   * must return exactly what scanMinCertified(θ, 0, L) returns, or null to let the CPU scan. Every
   * other step is the CPU's, so b* is the same to the last bit with or without it.
   */
  exactScan?: ExactScan;
}

export type WitnessScreen = (base: number, length: number) => number;
export type ExactScan = (base: number, length: number, theta: Float64Array, buf: Float64Array) => ScanHit | null;

export interface SweepResult {
  bstar: number;
  /** Minimum over m < L of f at b* (≥ −TOLERANCE) and where it occurs. */
  certificate: { minF: number; argminM: number };
  /** A base just below b* that is invalid, with m such that f_base(m) < 0 (direct float64). */
  witness: { base: number; m: number; f: number } | null;
  /** Work done: certified steps, witness scans, witnesses found near earlier ones, steps that kept the last witness. */
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
const NEAR_PER_WINDOW = 3;
/** Granularity of the heat map that orders witness scans (finer = less work per scan hit). */
const SEARCH_BLOCK = 1024;
/** Approximate values below this are checked exactly. */
const APPROX_MARGIN = 0.05;
/** Confirmed witnesses compared per event (the one with the longest certified step wins). */
const CANDIDATES = 1;
/** Progress is reported every PROGRESS_EVERY + 1 steps (a power of two minus one), as 1 − e^(−ln(b/start)/PROGRESS_SCALE). */
const PROGRESS_EVERY = 1023;
const PROGRESS_SCALE = Math.log(4);

function remember(recent: number[], m: number): void {
  const at = recent.indexOf(m);
  if (at >= 0) recent.splice(at, 1);
  recent.unshift(m);
  if (recent.length > RECENT_MAX) recent.length = RECENT_MAX;
}

/**
 * Witness candidates near recent witnesses (most recent first): in each ±NEAR_RADIUS window, the
 * NEAR_PER_WINDOW smallest approximate values below APPROX_MARGIN go to `consider` (which checks
 * them exactly). Stops once `enough()` says so.
 */
function gatherNear(
  th: Float64Array,
  cos2: Float64Array,
  length: number,
  recent: number[],
  buf: Float64Array,
  consider: (m: number) => void,
  enough: () => boolean,
): void {
  const picks = [-1, -1, -1];
  for (const c of recent) {
    if (c >= length) continue;
    const m0 = Math.max(0, c - NEAR_RADIUS);
    const cnt = Math.min(length, c + NEAR_RADIUS + 1) - m0;
    evalBlockApprox(th, m0, cnt, buf, cos2, SEARCH_SLOW_PHASE);
    picks.fill(-1);
    for (let k = 0; k < cnt; k++) {
      const v = buf[k];
      if (!(v < APPROX_MARGIN)) continue;
      // Keep the NEAR_PER_WINDOW smallest (insertion into a tiny sorted list).
      let at = NEAR_PER_WINDOW;
      while (at > 0 && (picks[at - 1] < 0 || buf[picks[at - 1]] > v)) at--;
      if (at >= NEAR_PER_WINDOW) continue;
      for (let q = NEAR_PER_WINDOW - 1; q > at; q--) picks[q] = picks[q - 1];
      picks[at] = k;
    }
    for (let q = 0; q < NEAR_PER_WINDOW && picks[q] >= 0; q++) consider(m0 + picks[q]);
    if (enough()) return;
  }
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
export function sweepFrom(
  length: number,
  headDim: number,
  start: number,
  pool: number[],
  signal?: Cancellable,
  screen?: WitnessScreen,
  onProgress?: (fraction: number) => void,
  exactScan?: ExactScan,
): SweepResult {
  const buf = new Float64Array(BLOCK);
  const jet = new JetStepper();
  const target = -TOLERANCE / 2;
  let b = start;
  let steps = 0,
    scans = 0,
    nearHits = 0,
    poolHits = 0;
  let last: { base: number; m: number } | null = null;
  // Scans visit first the blocks of m that produced witnesses or were low recently.
  const search = new WitnessSearch(length, SEARCH_BLOCK);
  const recent: number[] = pool.slice(0, RECENT_MAX);

  const lnStart = Math.log(start);
  for (;;) {
    throwIfAborted(signal);
    // The end is unknown (b*(L)/b*(L/2) ranges from 1 to ~15): an estimate that rises with ln b
    // and reaches 1 only when the link ends.
    if (onProgress && (steps & PROGRESS_EVERY) === 0) onProgress(1 - Math.exp(-(Math.log(b) - lnStart) / PROGRESS_SCALE));
    if (!(b < MAX_BASE)) throw new RopeError('unsupported-length', `b* exceeds ${MAX_BASE} for L = ${length}, d = ${headDim}`);
    const th = thetas(b, headDim);
    let m = -1;
    let sj = 0;
    if (pool.length > 0 && pool[0] < length) {
      sj = jet.step(th, pool[0], target);
      if (jet.f < -TOLERANCE) {
        m = pool[0];
        poolHits++;
      }
    }
    if (m < 0) {
      // The witness ran out: compare several confirmed witnesses and keep the one whose certified
      // step reaches furthest (steps differ by 10× between witnesses at the same base).
      let best = -1,
        bestStep = -1,
        confirmed = 0;
      const tried = new Set<number>();
      const consider = (c: number) => {
        if (c >= length || tried.has(c)) return;
        tried.add(c);
        if (!(fAt(th, c) < -TOLERANCE)) return;
        const st = jet.step(th, c, target);
        if (!(jet.f < -TOLERANCE)) return;
        confirmed++;
        if (st > bestStep) {
          bestStep = st;
          best = c;
        }
      };
      const enough = () => confirmed >= CANDIDATES;
      if (!enough()) {
        const cos2 = cos2Of(th);
        const before = best;
        gatherNear(th, cos2, length, recent, buf, consider, enough);
        if (best >= 0 && best !== before) nearHits++;
        if (best < 0) {
          scans++;
          // A cheap approximate search finds most witnesses; only when it finds none does the exact
          // scan run, which either finds one or certifies b.
          let found = -1;
          if (screen) {
            const w = screen(b, length);
            if (w >= 0 && w < length && fAt(th, w) < -TOLERANCE) found = w;
          } else {
            found = search.find(th, cos2, buf, signal, consider);
            if (found >= 0) consider(found);
            if (best >= 0) found = best;
          }
          const hit = found >= 0 ? { m: found, f: -Infinity } : (exactScan?.(b, length, th, buf) ?? scanMinCertified(th, 0, length, TOLERANCE, buf, signal));
          if (hit.f >= -TOLERANCE) {
            return {
              bstar: b,
              certificate: { minF: hit.f, argminM: hit.m },
              witness: witnessBelow(b, headDim, last),
              stats: { steps, scans, nearHits, poolHits },
            };
          }
          consider(hit.m);
          if (best < 0) {
            best = hit.m;
            bestStep = 0;
          }
        }
      }
      m = best;
      sj = bestStep;
      remember(recent, m);
      search.hit(m);
      toFront(pool, m);
    }
    last = { base: b, m };
    const next = b * Math.exp(sj);
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
  // Measured: each doubling of L costs ~4–8× the link before it (the last link is ~80% of the time).
  const weights = chain.map((l) => l * l * Math.log2(l + 2));
  const total = weights.reduce((a, b) => a + b, 0);
  let done = 0;
  let res: SweepResult | null = null;
  const stats = { steps: 0, scans: 0, nearHits: 0, poolHits: 0 };
  const links: { length: number; bstar: number }[] = [];
  for (let k = 0; k < chain.length; k++) {
    const prev: SweepResult | null = res;
    const before = done;
    const within = opts.onProgress ? (f: number) => opts.onProgress!((before + weights[k] * f) / total) : undefined;
    res = sweepFrom(chain[k], headDim, Math.max(lowerBound, prev?.bstar ?? 1), pool, opts.signal, opts.screen, within, opts.exactScan);
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
