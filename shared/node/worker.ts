/**
 * Worker-thread entry (bundled to dist/bstarWorker.js): runs b* jobs off the main thread.
 * Node-only. Cancellation arrives through a shared Int32Array that the float64 sweep reads
 * between batches, so a cancelled job stops within one block of work.
 *
 * The 'gpu' backend: the sweep's exact scans (all m < L at one base, run when the cheap searches find
 * no witness, and to certify the answer) are pruned by the WebGPU screen (gpuBridge.ts) and decided in
 * float64 from it (bstar/screenCertify.ts), returning exactly the CPU scan's answer; every other step
 * is the CPU's, so b* is the CPU's to the last bit.
 */
import { parentPort } from 'node:worker_threads';
import type { ExactScan, NeighbourhoodScreen } from '../bstar/index';
import { computeJob } from '../bstar/jobs';
import { blockBoundsFromChunks, scanMinFromScreen } from '../bstar/screenCertify';
import { BLOCK, TOLERANCE, thetas } from '../rope/fb';
import { RopeError } from '../core/errors';
import type { GpuInfoValue, GpuJobStats, JobValue, WorkerMessage, WorkerRequest } from './workerProtocol';
import { GpuBridge } from './gpuBridge';
import { chunkFor, packFrequencies } from './fbWebgpu';
import { describeAdapter } from './webgpuLoad';

/** Below this length a scan stays on the CPU even on the gpu backend: a GPU round trip costs more. */
export const GPU_SCAN_MIN_LENGTH = 2048;

let bridge: ReturnType<typeof GpuBridge.open> | null = null;
/** The device; a software rasterizer is opened only for `insist` (--backend gpu), when it loads Dawn here. */
function gpu(insist = true): ReturnType<typeof GpuBridge.open> {
  if (!bridge || (insist && !bridge.bridge && bridge.info?.software)) bridge = GpuBridge.open(undefined, { openSoftware: insist });
  return bridge;
}

function gpuInfo(headDim: number, insist: boolean): GpuInfoValue {
  const g = gpu(insist);
  // Described, not opened nor calibrated: auto never runs on a software rasterizer.
  if (!g.bridge && g.info) return { available: true, software: true, adapter: describeAdapter(g.info), reason: g.reason, precise: false };
  if (!g.bridge) return { available: false, software: false, adapter: 'none', reason: g.reason, precise: false };
  const c = g.bridge.calibrate(headDim);
  return {
    available: true,
    software: g.bridge.info.software,
    adapter: describeAdapter(g.bridge.info),
    precise: c.precise,
    maxError: c.maxError,
    eps: c.eps,
    reason: c.precise ? '' : `the GPU's float32 error (${c.maxError.toExponential(2)}) exceeds half the proven bound ε = ${c.eps.toExponential(2)}`,
  };
}

/**
 * The sweep's exact scan with the GPU pruning it (null: the CPU scans, for short L or once the GPU has
 * misbehaved). The screen's chunks lie on the scan's block grid, so screenCertify.ts can reproduce the
 * CPU scan's answer exactly from the blocks the screen cannot rule out.
 */
function gpuExactScan(headDim: number, stats: GpuJobStats, signal: { readonly aborted: boolean }): ExactScan | undefined {
  const g = gpu().bridge;
  if (!g || !g.calibrate(headDim).precise) return undefined;
  const eps = g.calibrate(headDim).eps;
  let disabled = false;
  return (_base, length, theta, buf) => {
    if (disabled || length < GPU_SCAN_MIN_LENGTH) return null;
    const chunk = Math.min(chunkFor(1, length), BLOCK);
    const r = length % chunk;
    let minima: Float32Array;
    try {
      minima = g.minima({ freq: packFrequencies([theta]), n: headDim / 2, bases: 1, count: length - r, offset: r, chunk });
    } catch (e) {
      disabled = true;
      stats.fallback = (e as Error)?.message ?? String(e);
      return null;
    }
    stats.gpuScans++;
    const v = scanMinFromScreen(theta, length, blockBoundsFromChunks(length, chunk, minima, eps), TOLERANCE, buf, signal);
    if (v.kind === 'hit') {
      stats.blocksChecked += v.blocksChecked;
      return v.hit;
    }
    // The driver broke the bound's assumptions: never trust it again in this job.
    disabled = true;
    stats.fallback = `float64 minimum ${v.exact} of block ${v.block} lies outside the screen's bound ${v.lower} (+2ε, ε = ${eps})`;
    stats.cpuScans++;
    return null;
  };
}

/**
 * The WebGPU screen for a neighbourhood proof: float32 minima per (grid base, block of m) minus the
 * proven ε, as lower bounds (the proof decides everything in float64 from them). null: the CPU proves,
 * because there is no precise adapter or the GPU failed (the reason goes into stats.fallback).
 */
function gpuNeighbourhoodScreen(headDim: number, stats: GpuJobStats): NeighbourhoodScreen | undefined {
  const g = gpu().bridge;
  if (!g) return undefined;
  const c = g.calibrate(headDim);
  if (!c.precise) {
    stats.fallback = `the GPU's float32 error ${c.maxError.toExponential(2)} exceeds half the proven bound ε = ${c.eps.toExponential(2)}`;
    return undefined;
  }
  return (bases, d, length, block) => {
    // One request per slice of bases keeps each answer within the bridge's shared buffer.
    const blocks = Math.ceil(length / block);
    const out = new Float64Array(bases.length * blocks);
    const per = Math.max(1, Math.floor((1 << 22) / blocks));
    try {
      for (let k0 = 0; k0 < bases.length; k0 += per) {
        const n = Math.min(per, bases.length - k0);
        const th = Array.from({ length: n }, (_, k) => thetas(bases[k0 + k], d));
        const minima = g.minima({ freq: packFrequencies(th), n: d / 2, bases: n, count: length, offset: 0, chunk: block });
        for (let i = 0; i < n * blocks; i++) out[k0 * blocks + i] = minima[i] - c.eps;
        stats.gpuScans += n;
      }
    } catch (e) {
      stats.fallback = (e as Error)?.message ?? String(e);
      return null;
    }
    return out;
  };
}

/**
 * One job: the computation is the shared table's (bstar/jobs.ts); what is this worker's own is the
 * GPU (its screens, and what it did, in `gpu`), progress messages and cancellation through shared memory.
 */
function run(req: WorkerRequest, post: (m: WorkerMessage) => void): JobValue {
  const signal = {
    get aborted() {
      return Atomics.load(req.cancel, 0) !== 0;
    },
  };
  const job = req.job;
  const stats: GpuJobStats = { gpuScans: 0, cpuScans: 0, blocksChecked: 0 };
  switch (job.kind) {
    case 'bstar': {
      let lastSent = 0;
      const exactScan = job.backend === 'gpu' ? gpuExactScan(job.headDim, stats, signal) : undefined;
      const onProgress = (fraction: number) => {
        const now = Date.now();
        if (now - lastSent > 50 || fraction >= 1) {
          lastSent = now;
          post({ id: req.id, type: 'progress', fraction });
        }
      };
      const r = computeJob(job, { signal, exactScan, onProgress });
      return exactScan ? { ...r, gpu: stats } : r;
    }
    case 'threshold':
      return computeJob(job, { signal });
    case 'lmax':
      return { lmax: computeJob(job, { signal }) };
    case 'map':
    case 'robust': {
      const screen = job.backend === 'gpu' ? gpuNeighbourhoodScreen(job.headDim, stats) : undefined;
      const v = computeJob(job, { signal, screen });
      stats.blocksChecked = v.stats.exactBlocks;
      return job.backend === 'gpu' ? { ...v, gpu: stats } : v;
    }
    case 'gpuInfo':
      return gpuInfo(job.headDim, job.insist === true);
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
