/**
 * The sweep's block search for a new witness (pure float64, no Node APIs): an m < L with
 * f_b(m) < −TOLERANCE, confirmed with direct cosines. It proves nothing when it finds none (the
 * sweep then runs the certified scan), so its order is a heuristic and only its speed is at stake.
 *
 * Order of blocks of m: first the few hottest (blocks that produced witnesses recently), then every
 * block by the smallest value it had when last evaluated (never-evaluated blocks first). The second
 * tier matters at long L: when the track of minima the sweep was following dies, witnesses can be
 * rare ("deserts" near valid islands), and a heat-ordered scan visited ~1,200 blocks per desert scan
 * at L = 2^24; the low regions of f drift only slowly with b (the slow components set where many
 * phases can align), so a block that was low a few witnesses ago is the likeliest to hold the next.
 */
import { SEARCH_SLOW_PHASE, TOLERANCE, evalBlockApprox, fAt } from '../rope/fb';
import { Cancellable, throwIfAborted } from './cancel';

/** Approximate values below this are checked exactly (well above the interpolation error). */
const APPROX_MARGIN = 0.05;
/** Hottest blocks visited before every block by last-seen minimum. */
const HOT_FIRST = 4;
/** A first witness that took at least EXPLORE_AFTER blocks makes the search go on to EXPLORE_FACTOR× as many. */
const EXPLORE_AFTER = 16;
const EXPLORE_FACTOR = 2;
/** Buckets of the last-seen minimum for the full-scan order (values below BUCKET_FROM share the first). */
const BUCKET_FROM = -2;
const BUCKETS_PER_UNIT = 4;
const N_BUCKETS = 1 + BUCKETS_PER_UNIT * 24; // minima from BUCKET_FROM to BUCKET_FROM + 24; higher ones share the last
/** Each new witness adds HEAT_GROWTH× more heat than the one before: exponential forgetting, no decay pass. */
const HEAT_GROWTH = 1.03;

/**
 * Blocks of m ordered by heat (witnesses found there, later ones weighing HEAT_GROWTH× more:
 * exponential forgetting without a decay pass), ties top-down. Heat only grows, so one hit moves
 * its block forward by swaps; no sort per scan.
 */
export class HeatOrder {
  readonly order: Int32Array;
  private readonly heat: Float64Array;
  private readonly pos: Int32Array;
  private weight = 1;
  constructor(nBlocks: number) {
    this.heat = new Float64Array(nBlocks);
    this.order = new Int32Array(nBlocks);
    this.pos = new Int32Array(nBlocks);
    for (let q = 0; q < nBlocks; q++) {
      this.order[q] = nBlocks - 1 - q;
      this.pos[nBlocks - 1 - q] = q;
    }
  }
  hit(block: number): void {
    const { heat, order, pos } = this;
    heat[block] += this.weight;
    this.weight *= HEAT_GROWTH;
    if (this.weight > 1e100) {
      for (let j = 0; j < heat.length; j++) heat[j] /= this.weight;
      this.weight = 1;
    }
    let q = pos[block];
    const h = heat[block];
    while (q > 0) {
      const o = order[q - 1];
      if (heat[o] > h || (heat[o] === h && o > block)) break;
      order[q] = o;
      pos[o] = q;
      q--;
    }
    order[q] = block;
    pos[block] = q;
  }
}

/** Search state kept across the bases of one link: heat, last-seen block minima, visit stamps. */
export class WitnessSearch {
  readonly heat: HeatOrder;
  private readonly nBlocks: number;
  /** Last-seen approximate minimum per block (NaN: never evaluated). */
  private readonly lastMin: Float64Array;
  private readonly stamp: Int32Array;
  private scan = 0;

  constructor(
    readonly length: number,
    readonly block: number,
  ) {
    this.nBlocks = Math.ceil(length / block);
    this.heat = new HeatOrder(this.nBlocks);
    this.lastMin = new Float64Array(this.nBlocks).fill(NaN);
    this.stamp = new Int32Array(this.nBlocks);
  }

  /** Record that block j produced the witness the sweep now uses. */
  hit(m: number): void {
    this.heat.hit(Math.floor(m / this.block));
  }

  /**
   * A confirmed m with f < −TOLERANCE at this base (θ, cos2 = cos2Of(θ)), or −1 when none was found.
   * When the first witness took many blocks (witnesses are rare here, so each is dear), the search
   * goes on for as many blocks again and hands every further witness to `more`, so the caller can
   * keep the one that rules out the longest interval of bases.
   */
  find(theta: Float64Array, cos2: Float64Array, buf: Float64Array, signal?: Cancellable, more?: (m: number) => void): number {
    this.scan++;
    const order = this.heat.order;
    const hot = Math.min(HOT_FIRST, this.nBlocks);
    let first = -1,
      visits = 0,
      stopAt = Infinity;
    for (let tier = 0; tier < 2; tier++) {
      // The full order is built only by scans that get past the hottest blocks (about half).
      const seq = tier === 0 ? order : this.byLastMin();
      const to = tier === 0 ? hot : seq.length;
      for (let q = 0; q < to; q++) {
        if ((visits & 63) === 63) throwIfAborted(signal);
        const j = seq[q];
        if (this.stamp[j] === this.scan) continue;
        visits++;
        const m = this.visit(j, theta, cos2, buf);
        if (m < 0) continue;
        if (first < 0) {
          first = m;
          if (!more || visits < EXPLORE_AFTER) return m;
          stopAt = visits * EXPLORE_FACTOR;
        } else {
          more!(m);
        }
        if (visits >= stopAt) return first;
      }
    }
    return first;
  }

  /**
   * Every block, those never evaluated first, then by last-seen minimum in buckets of 1/BUCKETS_PER_UNIT
   * (heat order within a bucket): a counting sort, O(blocks), run only by scans that got this far.
   */
  private byLastMin(): Int32Array {
    const { lastMin, nBlocks } = this;
    const order = this.heat.order;
    const key = (j: number) => {
      const v = lastMin[j];
      if (Number.isNaN(v)) return 0;
      const b = 1 + Math.floor((v - BUCKET_FROM) * BUCKETS_PER_UNIT);
      return b < 1 ? 1 : b >= N_BUCKETS ? N_BUCKETS - 1 : b;
    };
    const start = new Int32Array(N_BUCKETS + 1);
    for (let j = 0; j < nBlocks; j++) start[key(j) + 1]++;
    for (let b = 0; b < N_BUCKETS; b++) start[b + 1] += start[b];
    const out = new Int32Array(nBlocks);
    for (let q = 0; q < nBlocks; q++) {
      const j = order[q];
      out[start[key(j)]++] = j;
    }
    return out;
  }

  /** Evaluate block j once per scan: a confirmed witness in it, or −1; updates its last-seen minimum. */
  private visit(j: number, theta: Float64Array, cos2: Float64Array, buf: Float64Array): number {
    this.stamp[j] = this.scan;
    const m0 = j * this.block;
    const cnt = Math.min(this.length, m0 + this.block) - m0;
    evalBlockApprox(theta, m0, cnt, buf, cos2, SEARCH_SLOW_PHASE);
    let bk = 0;
    for (let k = 1; k < cnt; k++) if (buf[k] < buf[bk]) bk = k;
    this.lastMin[j] = buf[bk];
    if (buf[bk] >= APPROX_MARGIN) return -1;
    // The block's smallest value first (the deepest witness gives the longest step), then the rest.
    if (fAt(theta, m0 + bk) < -TOLERANCE) return m0 + bk;
    for (let k = 0; k < cnt; k++) {
      if (k !== bk && buf[k] < APPROX_MARGIN && fAt(theta, m0 + k) < -TOLERANCE) return m0 + k;
    }
    return -1;
  }
}
