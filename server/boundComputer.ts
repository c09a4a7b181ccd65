/**
 * The off-thread bound engine behind the server's oracle: the b* engine's worker thread, with the
 * user's backend choice (`ropeLens.bound.backend`) passed on each job. Once every answer is in
 * and nothing was asked for a while, the worker is stopped (it holds tens of MB of sweep buffers
 * and its own V8 heap); the answers stay cached here, and the next question starts a fresh worker.
 */
import { BoundEngine } from '../shared/node/engine';
import type { BoundComputer } from './boundOracle';
import type { BoundBackend } from './settings';
import { logGrid } from '../shared/bstar/validityMap';
import { mapPoints } from '../shared/inspector/mapResolution';
import { knownProof, recordProof, useProofStore } from '../shared/bstar/proofCache';
import { userProofStore } from '../shared/node/proofStore';

/** Idle time after the last answer before the worker is stopped. */
export const WORKER_IDLE_MS = 2000;

export function createBoundComputer(backend: BoundBackend, idleMs = WORKER_IDLE_MS): BoundComputer {
  const engine = new BoundEngine();
  useProofStore(userProofStore());
  let active = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const track = async <T>(job: () => Promise<T>): Promise<T> => {
    active++;
    if (idleTimer) clearTimeout(idleTimer);
    try {
      return await job();
    } finally {
      if (--active === 0) {
        idleTimer = setTimeout(() => {
          if (active === 0) void engine.dispose().then(collectGarbage);
        }, idleMs);
        idleTimer.unref();
      }
    }
  };
  return {
    bstar: (length, headDim, onProgress) => track(async () => (await engine.bstar(length, headDim, { backend, onProgress })).bstar),
    threshold: (length, headDim) => track(async () => (await engine.threshold(length, headDim, { backend })).threshold),
    lmax: (base, headDim, length) => track(async () => (await engine.lmax(base, headDim, length, { backend })).lmax),
    robust: (candidate, headDim, length) =>
      track(async () => {
        // The user's proof cache first (shared with the CLI and the hook): a proof at 262,144 tokens costs seconds.
        const known = knownProof(candidate, headDim, length);
        if (known !== undefined) return known;
        const v = await engine.robust(candidate, headDim, length, { backend });
        const answer = v.verdict.robust ? null : v.verdict.witness.base;
        recordProof(candidate, headDim, length, answer);
        return answer;
      }),
    validityMap: (from, to, headDim, length) =>
      track(async () => {
        // The grid's size depends on where it runs: a fine one on a hardware GPU, a coarser one on the CPU.
        const where = await engine.chooseProofBackend(backend, headDim);
        const r = await engine.validityMap(logGrid(from, to, mapPoints(where.backend, length, headDim)), headDim, length, { backend });
        return { bases: r.map.bases, lmax: r.map.lmax, backend: r.backend, reason: r.backendReason };
      }),
    thresholdProof: (length, headDim) =>
      track(async () => {
        const t = await engine.provenThreshold(length, headDim, { backend });
        const p = t.proven;
        return { provenAbove: p.provenAbove, located: p.located, invalidAt: p.invalidAt.base, proofs: p.proofs };
      }),
    dispose: () => {
      if (idleTimer) clearTimeout(idleTimer);
      return engine.dispose();
    },
  };
}

/**
 * After a burst of bound work the heap holds the burst's garbage until V8 decides to collect; when
 * the server is started with --expose-gc (the VS Code client does), collect once so an idle
 * server's memory returns to what it really keeps.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
