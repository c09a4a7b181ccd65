/** Messages between BoundEngine (main thread) and the b* worker (dist/bstarWorker.js). */
import type { BstarResult, ThresholdResult } from '../bstar/index';

export type JobRequest =
  | { kind: 'bstar'; length: number; headDim: number; lowerBound?: number; backend: 'cpu' | 'gpu' }
  | { kind: 'threshold'; length: number; headDim: number; bstar: number }
  | { kind: 'lmax'; base: number; headDim: number; length: number };

export type JobValue = BstarResult | ThresholdResult | { lmax: number | null };

/** Main → worker. `cancel` is a SharedArrayBuffer-backed Int32Array[1]: non-zero means stop. */
export interface WorkerRequest { id: number; job: JobRequest; cancel: Int32Array }

/** Worker → main. */
export type WorkerMessage =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'result'; value: JobValue }
  | { id: number; type: 'error'; code: string; message: string };
