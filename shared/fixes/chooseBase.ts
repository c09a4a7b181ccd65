/**
 * Picks a base to suggest for a context: valid for L *with margin*. b* itself sits at the left
 * edge of a narrow valid island (most bases just above it are invalid), so we look for a round
 * number whose whole neighbourhood (±10%) is valid, checking each candidate with lmax.
 */

/** lmax(base): first failing m, null if valid, undefined if not known yet. */
export type LmaxFn = (base: number) => number | null | undefined;

const NEIGHBOURHOOD = [0.9, 0.95, 1, 1.05, 1.1];
const STEP = 1.25;
const MAX_TRIES = 60;
const LOOKAHEAD = 12;

/** Rounds up to two significant digits: 231,643 → 240,000. */
export function roundUpNice(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const p = Math.pow(10, Math.floor(Math.log10(x)) - 1);
  return Math.ceil(x / p - 1e-9) * p;
}

/**
 * The smallest round base ≥ `start` (tried geometrically) valid for L together with its ±10%
 * neighbourhood; undefined when the oracle cannot answer yet or nothing is found.
 * `start` is typically b* (or an estimate) and never below the current base.
 */
export function chooseValidBase(start: number, lmax: LmaxFn): number | undefined {
  let candidate = roundUpNice(Math.max(start, 2));
  // While an earlier candidate is still unknown, later ones are asked too (up to LOOKAHEAD of them),
  // so an asynchronous oracle answers the whole ladder in one round instead of one rung per round.
  let unknownSince = -1;
  for (let i = 0; i < MAX_TRIES && Number.isFinite(candidate); i++) {
    let state: 'valid' | 'invalid' | 'unknown' = 'valid';
    for (const k of NEIGHBOURHOOD) {
      const r = lmax(candidate * k);
      if (r === undefined) state = 'unknown';
      else if (r !== null) { state = 'invalid'; break; }
    }
    if (state === 'valid' && unknownSince < 0) return candidate;
    if (state === 'unknown' && unknownSince < 0) unknownSince = i;
    if (unknownSince >= 0 && (state === 'valid' || i - unknownSince >= LOOKAHEAD)) return undefined;
    candidate = roundUpNice(candidate * STEP);
  }
  return undefined;
}

/** A starting guess for b*(L, d): the paper's fit 0.0424·L^1.628 (d = 128), kept conservative. */
export function bstarGuess(length: number): number {
  return 0.0424 * Math.pow(length, 1.628);
}
