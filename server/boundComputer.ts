/**
 * The off-thread bound engine behind the server's oracle: the b* engine's worker thread, with the
 * user's backend choice (`ropeLens.bound.backend`) passed on each job.
 */
import { BoundEngine } from '../shared/bstar/engine';
import type { BoundComputer } from './boundOracle';
import type { BoundBackend } from './settings';

export function createBoundComputer(backend: BoundBackend): BoundComputer {
  const engine = new BoundEngine();
  return {
    bstar: async (length, headDim) => (await engine.bstar(length, headDim, { backend })).bstar,
    threshold: async (length, headDim) => (await engine.threshold(length, headDim, { backend })).threshold,
    lmax: async (base, headDim, length) => (await engine.lmax(base, headDim, length, { backend })).lmax,
    dispose: () => engine.dispose(),
  };
}
