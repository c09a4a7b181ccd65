/**
 * The bound jobs, kind by kind, as the float64 functions that answer them: one table for the Node
 * engine's b* worker (shared/node/worker.ts) and the browser's (server/web/boundJobs.ts), so the two
 * cannot answer the same question differently. Pure computation, no Node or browser API: each side
 * keeps only what is its own (its GPU screens, how jobs and answers travel, how a job is cancelled)
 * and hands its screens in through JobHooks. A screen only spares float64 work; the answer is the
 * same with or without one.
 */
import { type BstarResult, type NeighbourhoodVerdict, bstar, lmax, robustNeighbourhood, threshold } from './index';
import type { Cancellable } from './cancel';
import type { NeighbourhoodScreen } from './neighbourhood';
import type { ExactScan } from './sweep';
import type { ThresholdResult } from './threshold';
import { type ValidityMap, validityMap } from './validityMap';

/** What each kind of job asks (the numbers only: which backend and how it travels are the caller's). */
export type JobInput =
  /** lowerBound: a base known to be ≤ b* (b* of a shorter length), where the sweep may start. */
  | { kind: 'bstar'; length: number; headDim: number; lowerBound?: number }
  /** bstar: b*(length, headDim) when the caller has it; without it, it is computed first. */
  | { kind: 'threshold'; length: number; headDim: number; bstar?: number }
  | { kind: 'lmax'; base: number; headDim: number; length: number }
  | { kind: 'robust'; candidate: number; headDim: number; length: number }
  | { kind: 'map'; bases: number[]; headDim: number; length: number };

/** The input of one kind of job. */
export type JobOf<K extends JobInput['kind']> = Extract<JobInput, { kind: K }>;

/** What each kind of job answers. */
export interface JobOutputs {
  bstar: BstarResult;
  threshold: ThresholdResult;
  /** null: valid for every m < length. */
  lmax: number | null;
  robust: NeighbourhoodVerdict;
  map: ValidityMap;
}

/** What the caller brings to a job: cancellation, progress (b*), and its GPU screens, if any. */
export interface JobHooks {
  signal?: Cancellable;
  /** The b* sweep's progress, 0..1 (the other jobs say nothing until they answer). */
  onProgress?: (fraction: number) => void;
  /** The b* sweep's exact scans, pruned by a screen (Node's WebGPU bridge). */
  exactScan?: ExactScan;
  /** A neighbourhood proof's or a validity map's lower bounds per (base, block of m). */
  screen?: NeighbourhoodScreen;
}

/** The answer to one job, computed here and now (synchronously; a long job checks `signal` as it goes). */
export function computeJob<J extends JobInput>(job: J, hooks: JobHooks = {}): JobOutputs[J['kind']] {
  return computeAnyJob(job, hooks) as JobOutputs[J['kind']];
}

function computeAnyJob(job: JobInput, { signal, onProgress, exactScan, screen }: JobHooks): JobOutputs[JobInput['kind']] {
  switch (job.kind) {
    case 'bstar':
      return bstar(job.length, job.headDim, { signal, onProgress, lowerBound: job.lowerBound, exactScan });
    case 'threshold':
      return threshold(job.length, job.headDim, { signal, bstar: job.bstar });
    case 'lmax':
      return lmax(job.base, job.headDim, job.length, { signal });
    case 'robust':
      return robustNeighbourhood(job.candidate, job.headDim, job.length, { signal, screen });
    case 'map':
      return validityMap(job.bases, job.headDim, job.length, { signal, screen });
  }
}
