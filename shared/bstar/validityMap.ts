/**
 * The validity map: L_max(b) = the first m < L with f_b(m) < −TOLERANCE (L when there is none) for
 * every base of a grid (pure float64, no Node APIs). Each L_max is exact on either backend: the float64
 * scan walks blocks of MAP_BLOCK values of m upward and stops at the first value below −tol; a screen
 * (the WebGPU float32 screen minus its proven ε) only lets the scan skip blocks whose lower bound is at
 * or above −tol, which cannot hold such a value. The blocks it does evaluate are evaluated exactly as
 * the CPU evaluates them (same block starts), so both give the same L_max to the position.
 */
import { TOLERANCE, cos2Of, evalBlock, thetas } from '../rope/fb';
import { Cancellable, throwIfAborted } from './cancel';
import type { NeighbourhoodScreen } from './neighbourhood';

/** Values of m per block of the map's scan (and per screen chunk). */
export const MAP_BLOCK = 256;
/** (Bases × blocks) per screen request. */
const SLICE = 1 << 22;

export interface MapStats {
  /** Blocks evaluated in float64 (all the blocks up to each L_max without a screen). */
  exactBlocks: number;
  screened: boolean;
}

export interface ValidityMap {
  bases: number[];
  /** L_max per base; = length when the base is valid for every m < L. */
  lmax: number[];
  stats: MapStats;
}

/** A log grid of `count` bases from `from` to `to` (both included). */
export function logGrid(from: number, to: number, count: number): number[] {
  const out: number[] = [];
  const r = Math.log(to / from);
  for (let k = 0; k < count; k++) out.push(k === 0 ? from : k === count - 1 ? to : from * Math.exp((r * k) / (count - 1)));
  return out;
}

/** L_max of one base by the map's block scan (from block `fromBlock` upward, skipping blocks `skip` clears). */
function lmaxOfBase(base: number, headDim: number, length: number, buf: Float64Array, stats: MapStats, skip?: (j: number) => boolean): number {
  const th = thetas(base, headDim);
  const cos2 = cos2Of(th);
  const nb = Math.ceil(length / MAP_BLOCK);
  for (let j = 0; j < nb; j++) {
    if (skip?.(j)) continue;
    const m0 = j * MAP_BLOCK;
    const count = Math.min(MAP_BLOCK, length - m0);
    evalBlock(th, m0, count, buf, cos2);
    stats.exactBlocks++;
    for (let k = 0; k < count; k++) if (buf[k] < -TOLERANCE) return m0 + k;
  }
  return length;
}

export function validityMap(bases: number[], headDim: number, length: number, opts: { screen?: NeighbourhoodScreen; signal?: Cancellable } = {}): ValidityMap {
  const stats: MapStats = { exactBlocks: 0, screened: false };
  const buf = new Float64Array(MAP_BLOCK);
  const nb = Math.ceil(length / MAP_BLOCK);
  const out: number[] = new Array(bases.length);
  const per = Math.max(1, Math.floor(SLICE / nb));
  let screenOn = opts.screen !== undefined;
  for (let k0 = 0; k0 < bases.length; k0 += per) {
    throwIfAborted(opts.signal);
    const slice = bases.slice(k0, k0 + per);
    const lower = screenOn ? opts.screen!(Float64Array.from(slice), headDim, length, MAP_BLOCK) : null;
    if (screenOn && !lower) screenOn = false;
    stats.screened ||= lower !== null;
    for (let k = 0; k < slice.length; k++) {
      throwIfAborted(opts.signal);
      out[k0 + k] = lmaxOfBase(slice[k], headDim, length, buf, stats, lower ? (j) => lower[k * nb + j] >= -TOLERANCE : undefined);
    }
  }
  return { bases, lmax: out, stats };
}
