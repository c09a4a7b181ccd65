/**
 * Picks a base to suggest for a context: valid for L *with margin*. b* itself sits at the left
 * edge of a narrow valid island, and validity is not monotone in the base (islands of valid bases
 * alternate with invalid gaps up to a much higher threshold), so a candidate's margin is proven,
 * never assumed: every real base of its ±10% neighbourhood must be valid. A cheap screen comes
 * first (41 bases on a 0.5% grid, through the cached lmax oracle, which rules out most candidates
 * and gives long jumps); a candidate that passes it goes to the proof over the continuum
 * (bstar/neighbourhood.ts), because a grid alone misses narrow invalid stretches (the 0.5% grid's
 * choice failed at 16k–128k tokens, d = 128).
 */

/** lmax(base): first failing m, null if valid, undefined if not known yet. */
export type LmaxFn = (base: number) => number | null | undefined;
/**
 * prove(candidate): null when every base within ±10% is proven valid; otherwise a base of the
 * neighbourhood that is invalid (or that the proof could not clear); undefined if not known yet.
 */
export type ProveFn = (candidate: number) => number | null | undefined;

/** The neighbourhood checked around a candidate c: c·(1 + j/200) for j = −20 … 20. */
export const MARGIN = 0.1;
/** Grid points on each side of the candidate: 20 → steps of 0.5%. */
const GRID_STEPS = 20;
/** Multipliers of the neighbourhood, highest first (an invalid high point lets the search jump furthest). */
export const NEIGHBOURHOOD: readonly number[] = Array.from({ length: 2 * GRID_STEPS + 1 }, (_, j) => 1 + ((GRID_STEPS - j) * MARGIN) / GRID_STEPS);
const MAX_CANDIDATES = 2000;
/**
 * How far above `start` the search goes. Far enough for every practical head (b* to the all-valid
 * threshold is at most ~40× for d = 128 up to 1M tokens); tiny rotary dims only become valid at
 * absurd bases (d = 4 at 65,536: 4.3e14, where one pair no longer turns), which are no suggestion.
 */
const MAX_RATIO = 1e6;
const LOOKAHEAD = 12;

/** Rounds up to two significant digits: 231,643 → 240,000. */
export function roundUpNice(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const p = Math.pow(10, Math.floor(Math.log10(x)) - 1);
  return Math.ceil(x / p - 1e-9) * p;
}

/** The next round number (two significant digits) strictly above `x`. */
export function nextNice(x: number): number {
  const r = roundUpNice(x);
  if (r > x * (1 + 1e-12)) return r;
  const p = Math.pow(10, Math.floor(Math.log10(r)) - 1);
  return roundUpNice(r + p);
}

/** The neighbourhood points of a candidate, highest first. */
export function neighbourhoodOf(candidate: number): number[] {
  return NEIGHBOURHOOD.map((k) => candidate * k);
}

/**
 * The smallest round base (two significant digits) ≥ `start` whose whole ±10% neighbourhood is
 * proven valid for L; undefined when an oracle cannot answer yet or nothing is found. Every round
 * number is a candidate (none is skipped by a geometric step); an invalid base p found on a
 * candidate's grid or by its proof rules out every candidate whose ±10% interval contains p (their
 * whole neighbourhood is not valid), so the search jumps to the first round number above p / 0.9.
 * Points are checked highest first, so the jump is as long as the first failure allows. `start` is
 * typically b* / 0.9 (no base below b* is valid).
 */
export function chooseValidBase(start: number, lmax: LmaxFn, prove: ProveFn): number | undefined {
  let candidate = roundUpNice(Math.max(start, 2));
  const limit = candidate * MAX_RATIO;
  // While an earlier candidate is still unknown, later ones are asked too (up to LOOKAHEAD of them),
  // so an asynchronous oracle answers a whole ladder in one round instead of one rung per round.
  let unknownSince = -1;
  for (let i = 0; i < MAX_CANDIDATES && candidate <= limit; i++) {
    let state: 'valid' | 'invalid' | 'unknown' = 'valid';
    let invalidAt = 0;
    for (const point of neighbourhoodOf(candidate)) {
      const r = lmax(point);
      if (r === undefined) state = 'unknown';
      else if (r !== null) {
        state = 'invalid';
        invalidAt = point;
        break;
      }
    }
    if (state === 'valid') {
      // The grid passed: only the proof over the continuum makes the candidate robust.
      const p = prove(candidate);
      if (p === undefined) state = 'unknown';
      else if (p !== null) {
        state = 'invalid';
        invalidAt = p;
      }
    }
    if (state === 'valid' && unknownSince < 0) return candidate;
    if (state === 'unknown' && unknownSince < 0) unknownSince = i;
    if (unknownSince >= 0 && (state === 'valid' || i - unknownSince >= LOOKAHEAD)) return undefined;
    candidate = state === 'invalid' ? nextNice(Math.max(candidate, invalidAt / (1 - MARGIN))) : nextNice(candidate);
  }
  return undefined;
}

/** A starting guess for b*(L, d): the paper's fit 0.0424·L^1.628 (d = 128), kept conservative. */
export function bstarGuess(length: number): number {
  return 0.0424 * Math.pow(length, 1.628);
}
