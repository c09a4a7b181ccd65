/** Messages between BoundEngine (main thread) and the b* worker (dist/bstarWorker.js). */
import type { BstarResult, NeighbourhoodVerdict, ThresholdResult } from '../bstar/index';
import type { ValidityMap } from '../bstar/validityMap';
import type { JobOf } from '../bstar/jobs';

/** The shared jobs (bstar/jobs.ts), with the backend where the GPU may take part; the engine always sends threshold's b*. */
export type JobRequest =
  | (JobOf<'bstar'> & { backend: 'cpu' | 'gpu' })
  | (JobOf<'threshold'> & { bstar: number })
  | JobOf<'lmax'>
  | (JobOf<'robust'> & { backend: 'cpu' | 'gpu' })
  | (JobOf<'map'> & { backend: 'cpu' | 'gpu' })
  /** insist: --backend gpu, which opens even a software rasterizer (auto only asks what the adapter is). */
  | { kind: 'gpuInfo'; headDim: number; insist?: boolean };

/** What the GPU did in one b* job: full scans it decided, scans left to the CPU, chunks evaluated in float64. */
export interface GpuJobStats {
  gpuScans: number;
  cpuScans: number;
  /** Blocks of BLOCK values of m the screen could not rule out, evaluated in float64. */
  blocksChecked: number;
  fallback?: string;
}

/** The WebGPU adapter as the b* worker sees it (precise: its float32 error is within the proven bound). */
export interface GpuInfoValue {
  available: boolean;
  software: boolean;
  adapter: string;
  precise: boolean;
  reason: string;
  maxError?: number;
  eps?: number;
}

export type JobValue =
  | (BstarResult & { gpu?: GpuJobStats })
  | ThresholdResult
  | { lmax: number | null }
  | GpuInfoValue
  | (NeighbourhoodVerdict & { gpu?: GpuJobStats })
  | (ValidityMap & { gpu?: GpuJobStats });

/** Main → worker. `cancel` is a SharedArrayBuffer-backed Int32Array[1]: non-zero means stop. */
export interface WorkerRequest {
  id: number;
  job: JobRequest;
  cancel: Int32Array;
}

/** Worker → main. */
export type WorkerMessage =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'result'; value: JobValue }
  | { id: number; type: 'error'; code: string; message: string };
