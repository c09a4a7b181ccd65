/**
 * Public, pure float64 API of the b* engine (usable in Node and the webview bundle):
 * lmax (first failing m for a base), bstar (exact smallest valid base, certified) and threshold.
 * Node-only pieces (worker threads, cache) live in ./engine.
 */
import { BLOCK, TOLERANCE, firstNegativeFast, thetas } from '../rope/fb';
import { Cancellable, ExactScan, SweepResult, WitnessScreen, sweepBstar } from './sweep';
import { ThresholdResult, estimateThreshold } from './threshold';
import { checkBase, checkHeadDim, checkLength } from './validate';
import { RopeError } from '../core/errors';
import { NeighbourhoodScreen, NeighbourhoodVerdict, ProofPart, proveNeighbourhood } from './neighbourhood';

export { TOLERANCE, fDirect } from '../rope/fb';
export { MAX_LENGTH } from './validate';
export type { ThresholdResult } from './threshold';
export type { ExactScan, WitnessScreen } from './sweep';
export type { NeighbourhoodScreen, NeighbourhoodVerdict } from './neighbourhood';

export interface BstarOptions {
  onProgress?(fraction: number): void;
  signal?: AbortSignal | Cancellable;
  /** A base known to be ≤ b*(L, d) (e.g. b* of a shorter length): the sweep starts there. */
  lowerBound?: number;
  /** Witness proposals from a screen such as the gpu.js kernel; each is re-checked in float64. */
  screen?: WitnessScreen;
  /** The exact scan over all m < L, pruned by a screen with a proven error bound (the WebGPU screen); null → CPU scan. */
  exactScan?: ExactScan;
}

export interface BstarResult {
  /** Smallest base whose f_b(m) ≥ −TOLERANCE for every m < L (relative error ≤ 1e-9 in practice). */
  bstar: number;
  /** At b*: min over m < L of f (≥ −TOLERANCE) and its argmin. */
  certificate: { minF: number; argminM: number };
  /** Just below b*: an invalid base and m with f < 0 there (null when b* = 1, the domain's edge). */
  witness: { base: number; m: number; f: number } | null;
  ms: number;
}

/**
 * First m < L with f_b(m) < −TOLERANCE, or null if the base is valid for L (the length up to which
 * the base satisfies the bound is the returned m).
 */
export function lmax(base: number, headDim: number, length: number, opts: { signal?: AbortSignal | Cancellable } = {}): number | null {
  checkBase(base);
  checkHeadDim(headDim);
  checkLength(length);
  const hit = firstNegativeFast(thetas(base, headDim), 0, length, TOLERANCE, new Float64Array(BLOCK), opts.signal);
  return hit ? hit.m : null;
}

/**
 * The generalised bound over any set of frequencies (effective inv_freq after scaling, per-dimension
 * factors, …): the first m < L with Σᵢ cos(m·θᵢ) < −TOLERANCE, or null when it holds for every m < L.
 * Same float64 scan as lmax (certified block approximation, exact re-check of every candidate); the
 * frequencies are sorted fastest first because the approximation treats the tail as the slow ones.
 */
export function lmaxOfFrequencies(invFreq: ArrayLike<number>, length: number, opts: { signal?: AbortSignal | Cancellable } = {}): number | null {
  checkLength(length);
  if (invFreq.length === 0) throw new RopeError('invalid-dimension', 'the frequency set is empty');
  const theta = Float64Array.from(invFreq);
  for (let i = 0; i < theta.length; i++) {
    if (!Number.isFinite(theta[i]) || theta[i] < 0) {
      throw new RopeError('invalid-parameter', `frequency ${i} must be a finite number ≥ 0, got ${String(theta[i])}`);
    }
  }
  theta.sort().reverse();
  const hit = firstNegativeFast(theta, 0, length, TOLERANCE, new Float64Array(BLOCK), opts.signal);
  return hit ? hit.m : null;
}

/** Exact b*(L, d) by a certified sweep (see sweep.ts). */
export function bstar(length: number, headDim: number, opts: BstarOptions = {}): BstarResult {
  checkLength(length);
  checkHeadDim(headDim);
  if (opts.lowerBound !== undefined && !(Number.isFinite(opts.lowerBound) && opts.lowerBound >= 1)) {
    throw new RopeError('invalid-base', `lowerBound must be a finite base ≥ 1, got ${String(opts.lowerBound)}`);
  }
  if (headDim === 2 && length > 2) {
    // One frequency, θ_0 = 1 for every base: f_b(m) = cos m < 0 at m = 2, so V_L is empty.
    throw new RopeError('invalid-dimension', `no base is valid for head dimension 2 and length ${length}: f_b(m) = cos(m) is negative at m = 2 for every base`);
  }
  const t0 = Date.now();
  const r: SweepResult = sweepBstar(length, headDim, {
    onProgress: opts.onProgress,
    signal: opts.signal,
    lowerBound: opts.lowerBound,
    screen: opts.screen,
    exactScan: opts.exactScan,
  });
  return { bstar: r.bstar, certificate: r.certificate, witness: r.witness, ms: Date.now() - t0 };
}

/**
 * The base above which every base is valid: an estimate from a grid scan, plus a proven (loose)
 * bound `certifiedAbove`; `guarantee` says exactly what is established.
 */
export function threshold(length: number, headDim: number, opts: { signal?: AbortSignal | Cancellable; bstar?: number } = {}): ThresholdResult {
  checkLength(length);
  checkHeadDim(headDim);
  const b = opts.bstar ?? bstar(length, headDim, { signal: opts.signal }).bstar;
  return estimateThreshold(length, headDim, b, opts.signal);
}

/** b*(L_k, d) for every link L_k = ceil(L/2^k) (from 64 up to L) of one chained sweep: a table for the price of b*(L). */
export function bstarChain(length: number, headDim: number, opts: Omit<BstarOptions, 'lowerBound'> = {}): { length: number; bstar: number }[] {
  checkLength(length);
  checkHeadDim(headDim);
  return sweepBstar(length, headDim, { onProgress: opts.onProgress, signal: opts.signal }).links ?? [];
}

/**
 * Is every real base within ±10% of `candidate` valid for L (f ≥ −TOLERANCE for every m < L)?
 * Proven over the continuum (grid + derivative bound + float64 refinement, see neighbourhood.ts);
 * a `screen` (the WebGPU float32 screen) only spares float64 work, the verdict and witness are the same.
 */
export function robustNeighbourhood(
  candidate: number,
  headDim: number,
  length: number,
  opts: { signal?: AbortSignal | Cancellable; screen?: NeighbourhoodScreen; part?: ProofPart } = {},
): NeighbourhoodVerdict {
  checkBase(candidate * 0.9);
  checkHeadDim(headDim);
  checkLength(length);
  return proveNeighbourhood(candidate, headDim, length, { signal: opts.signal, screen: opts.screen, part: opts.part });
}
