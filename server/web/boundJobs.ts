/**
 * The bound questions the browser server computes (b*, threshold, L_max, robust neighbourhoods), as plain messages: the
 * same float64 functions as the Node engine's worker (shared/bstar), run in the b* web worker
 * (boundWorker.ts) or, where a worker cannot start one of its own, in the server's worker.
 */
import { bstar, lmax } from '../../shared/bstar/index';
import { estimateThreshold } from '../../shared/bstar/threshold';
import { proveNeighbourhood } from '../../shared/bstar/neighbourhood';
import type { Cancellable } from '../../shared/bstar/cancel';

export type BoundJob =
  | { kind: 'bstar'; length: number; headDim: number }
  | { kind: 'threshold'; length: number; headDim: number }
  | { kind: 'lmax'; base: number; headDim: number; length: number }
  | { kind: 'robust'; candidate: number; headDim: number; length: number };

export type BoundJobMessage =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'result'; value: number | null }
  | { id: number; type: 'error'; message: string };

/** The answer to one job: b*, the threshold estimate, or L_max (null: valid for every m < L). */
export function runBoundJob(job: BoundJob, signal: Cancellable, onProgress?: (fraction: number) => void): number | null {
  switch (job.kind) {
    case 'bstar':
      return bstar(job.length, job.headDim, { signal, onProgress }).bstar;
    case 'threshold': {
      const b = bstar(job.length, job.headDim, { signal }).bstar;
      return estimateThreshold(job.length, job.headDim, b, signal).threshold;
    }
    case 'lmax':
      return lmax(job.base, job.headDim, job.length, { signal });
    case 'robust': {
      // The neighbourhood proof on the CPU (float64): null when every base within ±10% is proven valid,
      // else the failing base, as the Node engine's 'robust' job answers.
      const v = proveNeighbourhood(job.candidate, job.headDim, job.length, { signal });
      return v.robust ? null : v.witness.base;
    }
  }
}
