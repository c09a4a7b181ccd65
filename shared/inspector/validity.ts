/**
 * Which bases are valid for a length L: L_max(b) (first m with f_b(m) < 0) on a log grid of bases
 * around b*. The valid set is not an interval (narrow islands above b*, everything valid only past a
 * threshold), so the grid is scanned in full and never bisected. Each L_max is the b* engine's
 * float64 first-negative scan; the exact b* and threshold, when the host has them from the b*
 * engine, are passed in and drawn as markers.
 */
import { defaultInvFreq } from '../rope/invFreq';
import { firstNegative } from '../rope/fb';
import type { ValidityScan } from './types';
import type { InspectorMap } from './mapResolution';
import { enUS } from '../core/format';

export interface ValidityOptions {
  /** Grid points per decade of base. */
  perDecade?: number;
  /** Exact values from the b* engine, when known. */
  bstar?: number;
  threshold?: number;
  /** The smallest proven-robust round base (drawn as a marker). */
  robust?: number;
  /** How the exact values were obtained (shown under the chart). */
  exactNote?: string;
  /** Stop once this many consecutive grid bases are valid (and the grid has passed `base`). */
  validRun?: number;
  maxPoints?: number;
  /** The engine's map (exact L_max per base, computed off-thread): drawn instead of this module's grid. */
  map?: InspectorMap;
}

/** L_max(b) capped at `length` (= valid). */
export function lmaxCapped(base: number, rotaryDim: number, length: number): number {
  const hit = firstNegative(defaultInvFreq(base, rotaryDim), 0, length);
  return hit ? hit.m : length;
}

export function islandsOf(bases: number[], lmax: number[], length: number): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= bases.length; i++) {
    const ok = i < bases.length && lmax[i] >= length;
    if (ok && start < 0) start = i;
    if (!ok && start >= 0) {
      out.push([bases[start], bases[i - 1]]);
      start = -1;
    }
  }
  return out;
}

export function validityScan(length: number, rotaryDim: number, base: number, opts: ValidityOptions = {}): ValidityScan {
  if (opts.map && opts.map.bases.length > 0) return fromEngineMap(length, rotaryDim, opts.map, opts);
  const perDecade = opts.perDecade ?? 16;
  const validRun = opts.validRun ?? 12;
  const maxPoints = opts.maxPoints ?? 160;
  const step = Math.pow(10, 1 / perDecade);
  const bases: number[] = [];
  const lmax: number[] = [];
  let run = 0;
  let insertedBase = false;
  // Measured b*(L, 128) lies between 4·L and 62·L, and smaller head dims need larger bases, so a
  // grid from L/8 starts below the first island; if it does not, the note says so.
  let b = Math.max(2, length / 8);
  const push = (x: number) => {
    const l = lmaxCapped(x, rotaryDim, length);
    bases.push(x);
    lmax.push(l);
    run = l >= length ? run + 1 : 0;
  };
  while (bases.length < maxPoints && b < 1e13) {
    if (!insertedBase && base >= b / step && base < b) {
      push(base);
      insertedBase = true;
    }
    push(b);
    if (run >= validRun && b > base * 1.5) break;
    b *= step;
  }
  const islands = islandsOf(bases, lmax, length);
  const last = islands.length ? islands[islands.length - 1] : undefined;
  const lastIsRun = last !== undefined && run > 0 && last[1] === bases[bases.length - 1];
  const firstValid = islands.length ? islands[0][0] : undefined;
  const notes: string[] = opts.exactNote ? [opts.exactNote] : [];
  let bstar = opts.bstar;
  let threshold = opts.threshold;
  if (bstar === undefined && firstValid !== undefined) {
    bstar = firstValid;
    notes.push(`b* marker: first valid grid base (an upper bound; the grid steps ${((step - 1) * 100).toFixed(0)}% and can miss narrower islands).`);
  }
  if (lmax.length && lmax[0] >= length) {
    notes.push('The grid starts at a valid base: b* lies below the plotted range.');
  }
  if (threshold === undefined && lastIsRun) {
    threshold = last![0];
    notes.push('Threshold marker: start of the last valid run on the grid.');
  }
  return {
    length,
    rotaryDim,
    bases,
    lmax,
    islands,
    bstar,
    threshold,
    robust: opts.robust,
    note: notes.join(' ') || undefined,
    engine: `float64 CPU (b* engine scans), ${perDecade} bases per decade`,
  };
}

/** The chart from the engine's map: its bases and exact L_max as they are, the exact markers from the host. */
function fromEngineMap(length: number, rotaryDim: number, map: InspectorMap, opts: ValidityOptions): ValidityScan {
  const lmax = map.lmax.map((l) => Math.min(l, length));
  const where =
    map.backend === 'gpu' ? `the engine's map on the GPU (${map.reason})` : `the engine's map on the CPU (${map.reason}; a hardware GPU draws more bases)`;
  return {
    length,
    rotaryDim,
    bases: map.bases,
    lmax,
    islands: islandsOf(map.bases, lmax, length),
    bstar: opts.bstar,
    threshold: opts.threshold,
    robust: opts.robust,
    note: opts.exactNote,
    engine: `exact float64 L_max at ${enUS(map.bases.length)} log-spaced bases, ${where}`,
  };
}
