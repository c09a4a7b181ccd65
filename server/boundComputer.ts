/**
 * The off-thread bound engine behind the server's oracle, per `ropeLens.bound.backend`.
 * TEMPORARY until shared/bstar/engine.ts (BoundEngine) lands: every question is refused, so
 * bound findings simply never appear.
 */
import type { BoundComputer } from './boundOracle';
import type { BoundBackend } from './settings';

export function createBoundComputer(_backend: BoundBackend): BoundComputer {
  const refuse = () => Promise.reject(new Error('bound engine not available yet'));
  return { bstar: refuse, threshold: refuse, lmax: refuse };
}
