/**
 * Bounds in the browser: jobs go to a b* web worker (dist/web/bstarWorker.js, beside the server's
 * bundle) with progress; where no worker can be started (a host without nested workers, or a
 * worker script that fails to load), they run in the server's own worker, one per turn, so
 * answers are the same float64 ones either way. `dispose()` ends the worker, cancelling its job.
 */
import type { BoundComputer } from '../boundOracle';
import type { BoundBackend } from '../../shared/protocol/settings';
import { type BoundJob, type BoundJobMessage, runBoundJob } from './boundJobs';

interface Waiting {
  resolve(v: number | null): void;
  reject(e: Error): void;
  onProgress?(fraction: number): void;
}

type WorkerLike = {
  postMessage(m: unknown): void;
  terminate(): void;
  onmessage: ((e: { data: BoundJobMessage }) => void) | null;
  onerror: ((e: unknown) => void) | null;
};

/** `backend`: ropeLens.bound.backend, which decides whether the b* worker screens proofs on the browser's GPU. */
export function webBoundComputer(workerUrl: string | undefined, log: (line: string) => void = () => undefined, backend: BoundBackend = 'auto'): BoundComputer {
  const WorkerCtor = (globalThis as { Worker?: new (url: string) => WorkerLike }).Worker;
  let worker: WorkerLike | undefined;
  let useWorker = !!(WorkerCtor && workerUrl);
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  const disposed = { aborted: false };

  const inThread = (job: BoundJob, w: Waiting) =>
    setTimeout(() => {
      try {
        w.resolve(runBoundJob(job, disposed, w.onProgress));
      } catch (e) {
        w.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }, 0);

  const start = (): WorkerLike | undefined => {
    if (worker || !useWorker) return worker;
    try {
      worker = new WorkerCtor!(workerUrl!);
    } catch (e) {
      log(`bounds: the b* worker did not start (${(e as Error)?.message ?? e}); computing in the server's worker`);
      useWorker = false;
      return undefined;
    }
    worker.onmessage = ({ data }) => {
      const w = waiting.get(data.id);
      if (!w) return;
      if (data.type === 'log') return log(data.line);
      if (data.type === 'progress') return w.onProgress?.(data.fraction);
      waiting.delete(data.id);
      if (data.type === 'result') w.resolve(data.value);
      else w.reject(new Error(data.message));
    };
    worker.onerror = (e) => {
      // The script did not load or crashed: its jobs (and later ones) run here instead.
      log(`bounds: the b* worker failed (${(e as { message?: string })?.message ?? e}); computing in the server's worker`);
      worker?.terminate();
      worker = undefined;
      useWorker = false;
      for (const [id, w] of waiting) {
        waiting.delete(id);
        const job = jobs.get(id);
        if (job) inThread(job, w);
      }
    };
    return worker;
  };
  const jobs = new Map<number, BoundJob>();

  const run = (job: BoundJob, onProgress?: (fraction: number) => void): Promise<number | null> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const w: Waiting = {
        resolve: (v) => {
          jobs.delete(id);
          resolve(v);
        },
        reject: (e) => {
          jobs.delete(id);
          reject(e);
        },
        onProgress,
      };
      const target = start();
      if (!target) return inThread(job, w);
      jobs.set(id, job);
      waiting.set(id, w);
      target.postMessage({ id, job });
    });

  return {
    bstar: async (length, headDim, onProgress) => (await run({ kind: 'bstar', length, headDim }, onProgress)) as number,
    threshold: async (length, headDim) => (await run({ kind: 'threshold', length, headDim })) as number,
    lmax: (base, headDim, length) => run({ kind: 'lmax', base, headDim, length }),
    robust: (candidate, headDim, length) => run({ kind: 'robust', candidate, headDim, length, backend }),
    dispose() {
      disposed.aborted = true;
      worker?.terminate();
      worker = undefined;
      for (const w of waiting.values()) w.reject(new Error('b* computation was cancelled'));
      waiting.clear();
    },
  };
}
