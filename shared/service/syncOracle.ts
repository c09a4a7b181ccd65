/**
 * A BoundOracle that computes synchronously with the b* engine and caches answers: what the CLI
 * uses. (The language server has its own asynchronous oracle.) b* and the threshold cost a
 * certified sweep, so lengths above `maxSweepLength` answer undefined for them (the finding then
 * says up to where the base holds, without b*); lmax is one scan and always answered.
 */
import type { BoundOracle } from './types';
import { bstar as computeBstar, lmax as computeLmax, robustNeighbourhood, threshold as computeThreshold } from '../bstar/index';

export interface SyncOracleOptions {
  /** Largest L for which b* and the threshold are computed (default 65536). */
  maxSweepLength?: number;
  /**
   * Largest L for which a suggested base's ±10% neighbourhood is proven (default 131072: the proof
   * costs ~L² cosines, seconds per candidate there on one core); beyond it the base-raising fix is not
   * offered by the CLI (the language server proves it on its worker, a GPU machine much faster).
   */
  maxProofLength?: number;
}

export function createSyncOracle(opts: SyncOracleOptions = {}): BoundOracle & { cacheSize(): number } {
  const maxSweep = opts.maxSweepLength ?? 65536;
  const maxProof = opts.maxProofLength ?? 131072;
  const lmaxCache = new Map<string, number | null>();
  const bstarCache = new Map<string, number | undefined>();
  const thresholdCache = new Map<string, number | undefined>();
  const robustCache = new Map<string, number | null>();
  return {
    proofLimit: maxProof,
    lmax(base, headDim, length) {
      const k = `${base}/${headDim}/${length}`;
      if (!lmaxCache.has(k)) lmaxCache.set(k, computeLmax(base, headDim, length));
      return lmaxCache.get(k)!;
    },
    bstar(length, headDim) {
      const k = `${length}/${headDim}`;
      if (!bstarCache.has(k)) bstarCache.set(k, length <= maxSweep ? computeBstar(length, headDim).bstar : undefined);
      return bstarCache.get(k);
    },
    threshold(length, headDim) {
      const k = `${length}/${headDim}`;
      if (!thresholdCache.has(k)) {
        const b = this.bstar(length, headDim);
        thresholdCache.set(k, b === undefined ? undefined : computeThreshold(length, headDim, { bstar: b }).threshold);
      }
      return thresholdCache.get(k);
    },
    robust(candidate, headDim, length) {
      const k = `${candidate}/${headDim}/${length}`;
      if (length > maxProof) return undefined;
      if (!robustCache.has(k)) {
        const v = robustNeighbourhood(candidate, headDim, length);
        robustCache.set(k, v.robust ? null : v.witness.base);
      }
      return robustCache.get(k)!;
    },
    cacheSize: () => lmaxCache.size + bstarCache.size + thresholdCache.size + robustCache.size,
  };
}
