/**
 * The version of the proof code: a hash of the sources whose arithmetic decides a proof, b* or the
 * round-base rule. A table row or a cached proof made by other code is not trusted (the lookup and
 * the cache compare it with this). test/unit/provenTable.test.ts recomputes the hash from the
 * sources, so an edit of any of them fails that test until this constant is updated (and the table
 * regenerated: `npm run table:proven`).
 */
export const PROOF_SOURCES: readonly string[] = [
  'shared/rope/fb.ts',
  'shared/rope/trig.ts',
  'shared/bstar/neighbourhood.ts',
  'shared/bstar/sweep.ts',
  'shared/bstar/jetStep.ts',
  'shared/bstar/witnessSearch.ts',
  'shared/bstar/threshold.ts',
  'shared/bstar/provenThreshold.ts',
  'shared/fixes/chooseBase.ts',
];

/** First 12 hex digits of sha256 over the sources above (each as `path\n` + its text), in order. */
export const PROOF_CODE_VERSION = '088c4eeda743';
