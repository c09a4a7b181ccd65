/**
 * The lengths the proven table holds: 1,024 to 16,777,216 tokens, four rungs per octave
 * (round(1024 · 2^(k/4))). A proof is monotone in the length (a base valid for every m < L′ is valid
 * for every L ≤ L′), so a fact proven at the rung at or above L holds at L.
 */
export const LADDER_MIN = 1024;
export const LADDER_MAX = 1 << 24;
export const STEPS_PER_OCTAVE = 4;

/** Every rung, shortest first. */
export const LADDER: readonly number[] = (() => {
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const L = Math.round(LADDER_MIN * Math.pow(2, k / STEPS_PER_OCTAVE));
    if (L > LADDER_MAX) break;
    out.push(L);
  }
  return out;
})();

/** The shortest rung ≥ L, or undefined above the ladder (and for a length that is not a positive integer). */
export function ladderCeil(length: number): number | undefined {
  if (!Number.isSafeInteger(length) || length < 1) return undefined;
  return LADDER.find((r) => r >= length);
}

/** The longest rung ≤ L, or undefined below the ladder (and for a length that is not a positive integer). */
export function ladderFloor(length: number): number | undefined {
  if (!Number.isSafeInteger(length) || length < LADDER_MIN) return undefined;
  let r = LADDER[0];
  for (const x of LADDER) if (x <= length) r = x;
  return r;
}

/** The rung just below `rung` (undefined for the first). */
export function ladderBelow(rung: number): number | undefined {
  const i = LADDER.indexOf(rung);
  return i > 0 ? LADDER[i - 1] : undefined;
}
