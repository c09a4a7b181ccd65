/**
 * A BoundOracle that computes synchronously with the b* engine and caches answers: what the CLI
 * uses. (The language server has its own asynchronous oracle.) b* and the threshold cost a
 * certified sweep, so lengths above `maxSweepLength` answer undefined for them (the finding then
 * says up to where the base holds, without b*); lmax is one scan and always answered.
 */
import type { BoundOracle } from './types';
import { bstar as computeBstar, lmax as computeLmax, robustNeighbourhood, threshold as computeThreshold } from '../bstar/index';
import type { NeighbourhoodVerdict } from '../bstar/neighbourhood';
import { provenOnce } from '../bstar/proofCache';

export interface SyncOracleOptions {
  /** Largest L for which b* and the threshold are computed (default 65536). */
  maxSweepLength?: number;
  /**
   * Largest L for which a suggested base's ±10% neighbourhood is proven (default: every length). The
   * proof costs ~L² cosines: ~4 s for a robust candidate at 262,144 tokens on one core, ~45 s at
   * 1,048,576; beyond a limit the base-raising fix says its base was checked at 41 points only.
   */
  maxProofLength?: number;
  /** Runs one neighbourhood proof (default: on this thread; the CLI passes one that uses every core). */
  prove?: (candidate: number, headDim: number, length: number) => NeighbourhoodVerdict;
}

export function createSyncOracle(opts: SyncOracleOptions = {}): BoundOracle & { cacheSize(): number } {
  const maxSweep = opts.maxSweepLength ?? 65536;
  const maxProof = opts.maxProofLength ?? Number.POSITIVE_INFINITY;
  const prove = opts.prove ?? ((c: number, d: number, L: number) => robustNeighbourhood(c, d, L));
  const lmaxCache = new Map<string, number | null>();
  const bstarCache = new Map<string, number | undefined>();
  const thresholdCache = new Map<string, number | undefined>();
  return {
    ...(Number.isFinite(maxProof) ? { proofLimit: maxProof } : {}),
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
      if (length > maxProof) return undefined;
      return provenOnce(candidate, headDim, length, prove);
    },
    cacheSize: () => lmaxCache.size + bstarCache.size + thresholdCache.size,
  };
}
