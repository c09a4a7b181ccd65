/**
 * The Inspector's validity map (chart d) from the server's engine: which bases it covers and how many.
 * A hardware GPU screens the map (bstar/validityMap.ts), so it draws a fine grid; the CPU draws a coarser
 * one sized to a few seconds of the bound worker's time. Either way every L_max is exact, and the chart
 * says how many bases it shows and which backend computed them.
 */

/** Bases in the map when a GPU computes it. */
export const GPU_MAP_POINTS = 2048;
/** Work the CPU map may take, in evaluations of one frequency at one m (~1.2e9 a second on one core here). */
export const CPU_MAP_BUDGET = 3e9;
export const CPU_MAP_MIN_POINTS = 64;
export const CPU_MAP_MAX_POINTS = 512;

/** How many bases the map has on `backend`: the CPU's count falls with L·d (a valid base costs L·d/2 evaluations). */
export function mapPoints(backend: 'cpu' | 'gpu', length: number, headDim: number): number {
  if (backend === 'gpu') return GPU_MAP_POINTS;
  const affordable = Math.floor(CPU_MAP_BUDGET / (length * (headDim / 2)));
  return Math.max(CPU_MAP_MIN_POINTS, Math.min(CPU_MAP_MAX_POINTS, affordable));
}

/**
 * From a little below b* (or the file's base, when lower) to past the threshold (or the file's base,
 * when higher), so the chart shows b*'s island, the invalid stretches above it and the all-valid end.
 * Rounded to 4 significant digits so the map's cache key does not change with every sub-ulp difference.
 */
export function mapRange(bstar: number, threshold: number, base: number): { from: number; to: number } {
  const round = (x: number) => Number(x.toPrecision(4));
  return { from: round(Math.min(bstar, base) / 1.25), to: round(Math.max(threshold, base) * 1.5) };
}

export interface InspectorMap {
  bases: number[];
  lmax: number[];
  backend: 'cpu' | 'gpu';
  /** Why that backend (the engine's backendReason). */
  reason: string;
}

/** Longest target whose threshold the panel proves (bstar/provenThreshold.ts: ~5 s of proofs at 32,768, d = 128). */
export const INSPECTOR_THRESHOLD_PROOF_MAX_LENGTH = 32768;

/** How far the threshold is proven (the engine's provenThreshold job, as the panel gets it). */
export interface InspectorThresholdProof {
  provenAbove: number;
  /** True when the largest invalid base found lies just below provenAbove: the threshold is located. */
  located: boolean;
  invalidAt: number;
  proofs: number;
}
