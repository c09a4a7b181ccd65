/**
 * The off-thread bound engine behind the server's oracle, per `ropeLens.bound.backend`.
 * TEMPORARY until shared/bstar/engine.ts (BoundEngine) lands: L_max (one scan, milliseconds) is
 * computed in-process; b* and the threshold (seconds) are refused, so findings that need them wait.
 */
import { lmax } from '../shared/bstar';
import type { BoundComputer } from './boundOracle';
import type { BoundBackend } from './settings';

export function createBoundComputer(_backend: BoundBackend): BoundComputer {
  const refuse = () => Promise.reject(new Error('bound engine not available yet'));
  const later = <T>(f: () => T) => new Promise<T>((resolve, reject) => setImmediate(() => { try { resolve(f()); } catch (e) { reject(e); } }));
  return { bstar: refuse, threshold: refuse, lmax: (b, d, L) => later(() => lmax(b, d, L)) };
}
