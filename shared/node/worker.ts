/**
 * Worker-thread entry (bundled to dist/bstarWorker.js): runs b* jobs off the main thread.
 * Node-only. Cancellation arrives through a shared Int32Array that the float64 sweep reads
 * between batches, so a cancelled job stops within one block of work.
 */
import { parentPort } from 'node:worker_threads';
import { bstar, lmax } from '../bstar/index';
import { estimateThreshold } from '../bstar/threshold';
import { RopeError } from '../core/errors';
import type { JobValue, WorkerMessage, WorkerRequest } from './workerProtocol';
import { openGpuScreen } from './gpuProbe';
import type { FbScreen } from '../gpu/fbKernel';

const screens = new Map<number, FbScreen>();
/** One gpu.js screen per head dimension, opened on first use; throws if gpu.js would fall back. */
function gpuScreen(headDim: number): FbScreen {
  let s = screens.get(headDim);
  if (!s) { s = openGpuScreen(headDim); screens.set(headDim, s); }
  return s;
}

function run(req: WorkerRequest, post: (m: WorkerMessage) => void): JobValue {
  const signal = { get aborted() { return Atomics.load(req.cancel, 0) !== 0; } };
  const job = req.job;
  switch (job.kind) {
    case 'bstar': {
      let lastSent = 0;
      return bstar(job.length, job.headDim, {
        signal,
        lowerBound: job.lowerBound,
        screen: job.backend === 'gpu' ? gpuScreen(job.headDim).witness : undefined,
        onProgress: (fraction) => {
          const now = Date.now();
          if (now - lastSent > 50 || fraction >= 1) { lastSent = now; post({ id: req.id, type: 'progress', fraction }); }
        },
      });
    }
    case 'threshold':
      return estimateThreshold(job.length, job.headDim, job.bstar, signal);
    case 'lmax':
      return { lmax: lmax(job.base, job.headDim, job.length, { signal }) };
  }
}

const port = parentPort;
if (port) {
  const post = (m: WorkerMessage) => port.postMessage(m);
  port.on('message', (req: WorkerRequest) => {
    try {
      post({ id: req.id, type: 'result', value: run(req, post) });
    } catch (e) {
      const code = e instanceof RopeError ? e.code : 'internal';
      post({ id: req.id, type: 'error', code, message: (e as Error)?.message ?? String(e) });
    }
  });
}
