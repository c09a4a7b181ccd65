/**
 * The bound questions the browser server computes (b*, threshold, L_max, robust neighbourhoods), as plain messages:
 * computed by the same job table as the Node engine's worker (shared/bstar/jobs.ts), run in the b* web
 * worker (boundWorker.ts) or, where a worker cannot start one of its own, in the server's worker. What is
 * the browser's own: its GPU screen (asynchronous, browserGpu.ts) and answers that travel as one number.
 */
import type { Cancellable } from '../../shared/bstar/cancel';
import { runWithAsyncScreen } from '../../shared/bstar/asyncScreen';
import { type JobOf, type JobOutputs, computeJob } from '../../shared/bstar/jobs';
import type { BoundBackend } from '../../shared/protocol/settings';
import { type BrowserGpu, GPU_ANSWER_MS, screenFor, withinTime } from './browserGpu';

/** The shared jobs the browser asks (threshold computes its b* first); `backend`: ropeLens.bound.backend for proofs. */
export type BoundJob = JobOf<'bstar'> | JobOf<'threshold'> | JobOf<'lmax'> | (JobOf<'robust'> & { backend?: BoundBackend });

export type BoundJobMessage =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'result'; value: number | null }
  | { id: number; type: 'error'; message: string }
  /** A line for the server's log (which backend proved a neighbourhood, and why not the GPU). */
  | { id: number; type: 'log'; line: string };

/** The answer to one job: b*, the threshold estimate, or L_max (null: valid for every m < L). */
export function runBoundJob(job: BoundJob, signal: Cancellable, onProgress?: (fraction: number) => void): number | null {
  switch (job.kind) {
    case 'bstar':
      return computeJob(job, { signal, onProgress }).bstar;
    case 'threshold':
      return computeJob(job, { signal }).threshold;
    case 'lmax':
      return computeJob(job, { signal });
    case 'robust':
      return failingBase(computeJob(job, { signal }));
  }
}

/** A neighbourhood proof's answer as one number: null when every base within ±10% is proven valid, else the failing base. */
function failingBase(v: JobOutputs['robust']): number | null {
  return v.robust ? null : v.witness.base;
}

/**
 * A job where the browser's GPU may screen: the neighbourhood proof with the WebGPU screen when
 * `ropeLens.bound.backend` and the adapter allow (browserGpu.ts), else on the CPU with the reason in
 * `log`. Decisions are float64 on the CPU either way, so the answer is runBoundJob's. Other jobs run
 * as runBoundJob does (the b* sweep's screen is Node's only).
 */
export async function runBoundJobWithGpu(
  job: BoundJob,
  signal: Cancellable,
  gpu: () => Promise<BrowserGpu>,
  log: (line: string) => void,
  onProgress?: (fraction: number) => void,
): Promise<number | null> {
  if (job.kind !== 'robust' || job.backend === 'cpu') return runBoundJob(job, signal, onProgress);
  const chosen = await screenFor(await gpu(), job.backend ?? 'auto', job.headDim);
  if ('reason' in chosen) {
    log(`bounds: neighbourhood proofs on the CPU: ${chosen.reason}`);
    return runBoundJob(job, signal, onProgress);
  }
  // Said before the proof: a long one (L = 131,072 on a software adapter) takes a while.
  log(`bounds: neighbourhood proofs screened on the browser's GPU (${chosen.adapter}, ε = ${chosen.eps.toExponential(2)}), decided in float64`);
  const v = await runWithAsyncScreen(
    (screen) => computeJob(job, { signal, screen }),
    (bases, d, length, block) =>
      withinTime(chosen.screen.lowerBounds(bases, d, length, block, chosen.eps), GPU_ANSWER_MS).catch((e) => {
        log(`bounds: the GPU screen failed (${(e as Error)?.message ?? e}); this proof goes on on the CPU`);
        return null;
      }),
  );
  return failingBase(v);
}
