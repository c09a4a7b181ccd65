/**
 * BoundEngine (Node-only): runs b*, threshold and lmax jobs on a worker thread so a language
 * server never blocks, caches answers per (L, d) in an LRU, cancels through a shared flag that
 * the sweep reads between batches, and reports which backend ran.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RopeError, RopeErrorCode } from '../core/errors';
import type { BstarResult, NeighbourhoodVerdict, ThresholdResult } from '../bstar/index';
import type { ValidityMap } from '../bstar/validityMap';
import type { GpuInfoValue, GpuJobStats, JobRequest, JobValue, WorkerMessage, WorkerRequest } from './workerProtocol';
import { checkBase, checkHeadDim, checkLength } from '../bstar/validate';
import { Lru } from './lru';
import { AdapterProbe, probeAdapter } from './adapterProbe';
import { describeAdapter } from './webgpuLoad';
import { ProvenThreshold, THRESHOLD_PROOF_MAX_LENGTH, proveThreshold } from '../bstar/provenThreshold';

export type { GpuInfoValue } from './workerProtocol';

/** 'auto' uses a hardware GPU from this length on, where ROPE_LENS_GPU_AUTO=1 lets it (see gpuAutoOnHardware). */
export const GPU_AUTO_MIN_LENGTH = 1 << 17;

/**
 * Whether 'auto' may pick a hardware GPU at all. The GPU stands in only for the sweep's exact scans (so
 * that b* stays bit-identical, see bstar/screenCertify.ts), and those are ~3% of the CPU sweep (measured
 * on the 2-vCPU dev machine: 0.34 s of 10.3 s for b*(2^22, 128), 69 ms of 2.4 s at 2^20): a device start
 * and the screens' round trips cost about what they save. So 'auto' stays on the CPU; ROPE_LENS_GPU_AUTO=1
 * restores the length crossover above, for a device run that wants to compare.
 */
export function gpuAutoOnHardware(): boolean {
  return typeof process !== 'undefined' && process.env.ROPE_LENS_GPU_AUTO === '1';
}

export type Backend = 'auto' | 'gpu' | 'cpu';
export type RanOn = 'cpu' | 'gpu';

export interface EngineOptions {
  /** Path of the bundled worker (dist/bstarWorker.js). Default: next to the running bundle, else the repo's dist/. */
  workerScript?: string;
  /** Entries kept per cache (b* and threshold each). Default 64. */
  cacheSize?: number;
  /** Override GPU detection (tests). */
  gpuProbe?: (headDim: number) => GpuInfoValue | Promise<GpuInfoValue>;
  /** Override the out-of-process adapter probe that 'auto' asks (tests). */
  adapterProbe?: () => Promise<AdapterProbe>;
}

export interface EngineMap {
  map: ValidityMap;
  backend: RanOn;
  backendReason: string;
  gpu?: GpuJobStats;
  ms: number;
}

export interface EngineRobust {
  /** True when every real base within ±10% of the candidate is proven valid. */
  robust: boolean;
  verdict: NeighbourhoodVerdict;
  backend: RanOn;
  backendReason: string;
  gpu?: GpuJobStats;
  ms: number;
}

export interface JobOptions {
  backend?: Backend;
  signal?: AbortSignal;
  onProgress?(fraction: number): void;
}

export interface EngineBstar extends BstarResult {
  backend: RanOn;
  /** Why that backend ran (the choice, the adapter, the crossover length, or why the GPU was not used). */
  backendReason: string;
  /** GPU work in the job that computed it (gpu backend only). */
  gpu?: GpuJobStats;
  cached: boolean;
}
type Stored = BstarResult & { backend: RanOn; backendReason: string; gpu?: GpuJobStats };
export interface EngineThreshold extends ThresholdResult {
  bstar: number;
  backend: RanOn;
  cached: boolean;
}

export { THRESHOLD_PROOF_MAX_LENGTH } from '../bstar/provenThreshold';

export interface EngineProvenThreshold extends EngineThreshold {
  proven: ProvenThreshold;
  /** Where the neighbourhood proofs ran (null: none ran). */
  proofBackend: RanOn | null;
  proofReason: string;
}

/** Where dist/bstarWorker.js is: beside this bundle (dist/*.js), or the repo's dist/ when running TS sources. */
export function defaultWorkerScript(): string {
  const candidates = [join(__dirname, 'bstarWorker.js'), resolve(__dirname, '../../dist/bstarWorker.js')];
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

interface Pending {
  resolve(v: JobValue): void;
  reject(e: Error): void;
  onProgress?(f: number): void;
  cancel: Int32Array;
}

export class BoundEngine {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private bstarCache: Lru<string, Stored>;
  private thresholdCache: Lru<string, ThresholdResult & { bstar: number }>;
  private robustCache = new Lru<string, EngineRobust>(256);
  private inflight = new Map<string, Promise<Stored>>();
  private gpu = new Map<string, Promise<GpuInfoValue>>();
  private readonly script: string;

  constructor(private readonly opts: EngineOptions = {}) {
    this.script = opts.workerScript ?? defaultWorkerScript();
    this.bstarCache = new Lru(opts.cacheSize ?? 64);
    this.thresholdCache = new Lru(opts.cacheSize ?? 64);
  }

  /** Cached b* without computing (for synchronous oracles); undefined if not known yet. */
  peekBstar(length: number, headDim: number): Stored | undefined {
    return this.bstarCache.get(key(length, headDim));
  }
  peekThreshold(length: number, headDim: number): (ThresholdResult & { bstar: number }) | undefined {
    return this.thresholdCache.get(key(length, headDim));
  }

  /** The WebGPU adapter as the b* worker sees it for this head dimension (asked once, lazily). */
  gpuInfo(headDim: number, insist = false): Promise<GpuInfoValue> {
    // insist (--backend gpu) opens even a software rasterizer; auto only learns what the adapter is.
    const k = `${headDim}:${insist}`;
    let p = this.gpu.get(k);
    if (!p) {
      // Mesa's EGL reads this from the C environment, which only the main thread's process.env
      // writes through to: without a display, llvmpipe is reached surfaceless.
      process.env.EGL_PLATFORM ??= 'surfaceless';
      p = this.opts.gpuProbe ? Promise.resolve(this.opts.gpuProbe(headDim)) : (this.submit({ kind: 'gpuInfo', headDim, insist }) as Promise<GpuInfoValue>);
      this.gpu.set(k, p);
    }
    return p;
  }

  /**
   * Which backend a job runs on, and why. 'gpu' needs a WebGPU adapter (else a RopeError); 'auto'
   * takes it only on a hardware GPU and from GPU_AUTO_MIN_LENGTH on. An adapter whose float32 error
   * exceeds the proven bound is never used to certify: the job runs on the CPU and says so.
   */
  async chooseBackend(choice: Backend = 'auto', length: number, headDim: number): Promise<{ backend: RanOn; reason: string }> {
    if (choice === 'cpu') return { backend: 'cpu', reason: 'requested (--backend cpu)' };
    if (choice !== 'auto' && choice !== 'gpu') {
      throw new RopeError('invalid-parameter', `backend must be auto, gpu or cpu, got ${String(choice)}`);
    }
    if (choice === 'auto' && length < GPU_AUTO_MIN_LENGTH) {
      return { backend: 'cpu', reason: `auto: L = ${length} is below the GPU crossover ${GPU_AUTO_MIN_LENGTH}, where the CPU sweep is faster` };
    }
    if (choice === 'auto' && !gpuAutoOnHardware()) {
      // Decided without asking for an adapter: the server never loads Dawn for a job the CPU runs.
      return {
        backend: 'cpu',
        reason: `auto: the GPU could take only the exact scans, ~3% of the CPU sweep, so the CPU runs it (--backend gpu to insist)`,
      };
    }
    if (choice === 'auto') {
      const a = await this.adapter();
      if (!a.info) return { backend: 'cpu', reason: `auto: no GPU (${a.reason})` };
      if (a.info.software) return { backend: 'cpu', reason: `auto: ${describeAdapter(a.info)} is a software rasterizer, slower than the CPU sweep` };
    }
    const g = await this.gpuInfo(headDim, choice === 'gpu');
    if (!g.available) {
      if (choice === 'gpu') throw new RopeError('invalid-parameter', `gpu backend unavailable: ${g.reason}; use --backend cpu or auto`);
      return { backend: 'cpu', reason: `auto: no GPU (${g.reason})` };
    }
    // Decided before calibration: auto does not open a software rasterizer at all (nor load Dawn for it).
    if (choice === 'auto' && g.software) return { backend: 'cpu', reason: `auto: ${g.adapter} is a software rasterizer, slower than the CPU sweep` };
    if (!g.precise) return { backend: 'cpu', reason: `${choice}: ${g.adapter} not used to certify: ${g.reason}` };
    if (choice === 'gpu') return { backend: 'gpu', reason: `requested (--backend gpu): ${g.adapter}` };
    if (g.software) return { backend: 'cpu', reason: `auto: ${g.adapter} is a software rasterizer, slower than the CPU sweep` };
    if (!gpuAutoOnHardware()) {
      return {
        backend: 'cpu',
        reason: `auto: the GPU could take only the exact scans, ~3% of the CPU sweep, so the CPU runs it (--backend gpu to insist)`,
      };
    }
    return { backend: 'gpu', reason: `auto: ${g.adapter}, L = ${length} ≥ crossover ${GPU_AUTO_MIN_LENGTH}` };
  }

  /** The adapter as a short-lived child process sees it (Dawn stays out of this process). */
  private adapter(): Promise<AdapterProbe> {
    return this.opts.adapterProbe ? this.opts.adapterProbe() : probeAdapter();
  }

  /**
   * Where a neighbourhood proof runs: the work is many bases × every m, parallel, so 'auto' takes a
   * hardware adapter (asked of a child process first, so a machine with only a software rasterizer
   * or none never loads Dawn here) whose float32 error is within the proven ε; else the CPU.
   */
  async chooseProofBackend(choice: Backend = 'auto', headDim: number): Promise<{ backend: RanOn; reason: string }> {
    if (choice === 'cpu') return { backend: 'cpu', reason: 'requested (--backend cpu)' };
    if (choice !== 'auto' && choice !== 'gpu') {
      throw new RopeError('invalid-parameter', `backend must be auto, gpu or cpu, got ${String(choice)}`);
    }
    if (choice === 'auto') {
      const a = await this.adapter();
      if (!a.info) return { backend: 'cpu', reason: `auto: no GPU (${a.reason})` };
      if (a.info.software) return { backend: 'cpu', reason: `auto: ${describeAdapter(a.info)} is a software rasterizer, slower than the CPU` };
    }
    const g = await this.gpuInfo(headDim, choice === 'gpu');
    if (!g.available) {
      if (choice === 'gpu') throw new RopeError('invalid-parameter', `gpu backend unavailable: ${g.reason}; use --backend cpu or auto`);
      return { backend: 'cpu', reason: `auto: no GPU (${g.reason})` };
    }
    if (!g.precise) return { backend: 'cpu', reason: `${choice}: ${g.adapter} not used to prove: ${g.reason}` };
    return { backend: 'gpu', reason: choice === 'gpu' ? `requested (--backend gpu): ${g.adapter}` : `auto: ${g.adapter}, a hardware GPU` };
  }

  /** L_max for every base of `bases` (exact, the same on both backends; see bstar/validityMap.ts). */
  async validityMap(bases: number[], headDim: number, length: number, o: JobOptions = {}): Promise<EngineMap> {
    for (const b of bases) checkBase(b);
    checkHeadDim(headDim);
    checkLength(length);
    const choosing = this.chooseProofBackend(o.backend, headDim);
    const { backend, reason } = await (o.signal ? raceAbort(choosing, o.signal) : choosing);
    const t0 = Date.now();
    const v = (await this.submit({ kind: 'map', bases, headDim, length, backend }, o.signal)) as ValidityMap & { gpu?: GpuJobStats };
    const { gpu, ...map } = v;
    const ran: RanOn = backend === 'gpu' && map.stats.screened ? 'gpu' : 'cpu';
    const why = backend === 'gpu' && !map.stats.screened ? `${reason}; the GPU was given up (${gpu?.fallback ?? 'no screen'}), the CPU computed it` : reason;
    return { map, backend: ran, backendReason: why, gpu, ms: Date.now() - t0 };
  }

  /** Is every real base within ±10% of `candidate` valid for L? Proven on the chosen backend (same verdict on both). */
  async robust(candidate: number, headDim: number, length: number, o: JobOptions = {}): Promise<EngineRobust> {
    checkBase(candidate * 0.9);
    checkHeadDim(headDim);
    checkLength(length);
    const k = `${candidate}:${headDim}:${length}`;
    const hit = this.robustCache.get(k);
    if (hit) return hit;
    const choosing = this.chooseProofBackend(o.backend, headDim);
    const { backend, reason } = await (o.signal ? raceAbort(choosing, o.signal) : choosing);
    const t0 = Date.now();
    const v = (await this.submit({ kind: 'robust', candidate, headDim, length, backend }, o.signal)) as NeighbourhoodVerdict & { gpu?: GpuJobStats };
    const { gpu, ...verdict } = v;
    const ran: RanOn = backend === 'gpu' && verdict.stats.screened ? 'gpu' : 'cpu';
    const why = backend === 'gpu' && !verdict.stats.screened ? `${reason}; the GPU was given up (${gpu?.fallback ?? 'no screen'}), the CPU proved it` : reason;
    const r: EngineRobust = { robust: verdict.robust, verdict, backend: ran, backendReason: why, gpu, ms: Date.now() - t0 };
    this.robustCache.set(k, r);
    return r;
  }

  async bstar(length: number, headDim: number, o: JobOptions = {}): Promise<EngineBstar> {
    checkLength(length);
    checkHeadDim(headDim);
    // The first GPU question opens an adapter (~1 s): a cancel must not wait for it.
    const choosing = this.chooseBackend(o.backend, length, headDim);
    const { backend, reason } = await (o.signal ? raceAbort(choosing, o.signal) : choosing);
    const k = key(length, headDim);
    const hit = this.bstarCache.get(k);
    // A cached answer reports the backend that computed it (every backend gives the same float64 answer).
    if (hit) {
      o.onProgress?.(1);
      return { ...hit, cached: true };
    }
    let p = this.inflight.get(k);
    if (!p) {
      // A cached b* of a shorter length with the same d is a sound starting point (V_L ⊆ V_L').
      let from: BstarResult | undefined;
      for (const [kk, v] of this.bstarCache.entries()) {
        const [l, d] = kk.split(':').map(Number);
        if (d === headDim && l < length && (from === undefined || v.bstar > from.bstar)) from = v;
      }
      const job: JobRequest = { kind: 'bstar', length, headDim, lowerBound: from?.bstar, backend };
      p = this.submit(job, o.signal, o.onProgress).then((v) => {
        const r: Stored = { ...(v as BstarResult & { gpu?: GpuJobStats }), backend, backendReason: reason };
        if (r.gpu?.fallback) r.backendReason += `; the GPU was given up during the job (${r.gpu.fallback}), the rest ran on the CPU`;
        // b*(L) = b*(L') for the shorter L' the sweep started from: L''s witness (m < L' < L) holds for L.
        if (!r.witness && from && r.bstar === from.bstar) r.witness = from.witness;
        this.bstarCache.set(k, r);
        return r;
      });
      const cleanup = () => this.inflight.delete(k);
      p.then(cleanup, cleanup);
      this.inflight.set(k, p);
    } else if (o.signal) {
      p = raceAbort(p, o.signal);
    }
    const r = await p;
    return { ...r, cached: false };
  }

  async threshold(length: number, headDim: number, o: JobOptions = {}): Promise<EngineThreshold> {
    const b = await this.bstar(length, headDim, o);
    const k = key(length, headDim);
    const hit = this.thresholdCache.get(k);
    // The threshold grid is checked by float64 CPU scans; `backend` says where b* itself ran.
    if (hit) return { ...hit, backend: b.backend, cached: true };
    const v = (await this.submit({ kind: 'threshold', length, headDim, bstar: b.bstar }, o.signal)) as ThresholdResult;
    const r = { ...v, bstar: b.bstar };
    this.thresholdCache.set(k, r);
    return { ...r, backend: b.backend, cached: false };
  }

  /**
   * The threshold estimate plus how far it is proven: ±10% neighbourhood proofs chained down from
   * certifiedAbove (bstar/provenThreshold.ts), each on the proof backend. Beyond `maxProofLength`
   * no proof runs and only certifiedAbove is proven.
   */
  async provenThreshold(length: number, headDim: number, o: JobOptions & { maxProofLength?: number } = {}): Promise<EngineProvenThreshold> {
    const t = await this.threshold(length, headDim, o);
    const maxLength = o.maxProofLength ?? THRESHOLD_PROOF_MAX_LENGTH;
    if (length > maxLength) {
      const proven: ProvenThreshold = { provenAbove: t.certifiedAbove, invalidAt: { base: t.threshold, from: 'estimate' }, located: false, proofs: 0 };
      return { ...t, proven, proofBackend: null, proofReason: `no neighbourhood proofs beyond L = ${maxLength} (their cost grows like L²)` };
    }
    let ran: { backend: RanOn; reason: string } | null = null;
    const proven = await proveThreshold(
      t.threshold,
      t.certifiedAbove,
      async (c) => {
        const r = await this.robust(c, headDim, length, o);
        if (!ran || r.backend === 'cpu') ran = { backend: r.backend, reason: r.backendReason };
        return r.verdict.robust ? { robust: true } : { robust: false, witness: r.verdict.witness, undecided: r.verdict.undecided };
      },
      async (b) => (await this.lmax(b, headDim, length, { signal: o.signal })).lmax === null,
    );
    const how = ran as { backend: RanOn; reason: string } | null;
    return { ...t, proven, proofBackend: how?.backend ?? null, proofReason: how?.reason ?? 'no proof needed (the estimate is at or above certifiedAbove)' };
  }

  async lmax(base: number, headDim: number, length: number, o: JobOptions = {}): Promise<{ lmax: number | null; backend: RanOn }> {
    checkBase(base);
    checkHeadDim(headDim);
    checkLength(length);
    if (o.backend !== undefined && !['auto', 'gpu', 'cpu'].includes(o.backend)) {
      throw new RopeError('invalid-parameter', `backend must be auto, gpu or cpu, got ${String(o.backend)}`);
    } // a single-base lmax always runs the float64 scan
    const v = (await this.submit({ kind: 'lmax', base, headDim, length }, o.signal)) as { lmax: number | null };
    return { lmax: v.lmax, backend: 'cpu' };
  }

  /** Stops the worker; pending jobs reject with 'cancelled'. */
  async dispose(): Promise<void> {
    for (const p of this.pending.values()) p.reject(new RopeError('cancelled', 'b* engine was disposed'));
    this.pending.clear();
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    if (!existsSync(this.script)) {
      throw new RopeError('invalid-parameter', `b* worker script not found at ${this.script} (run the build: node esbuild.mjs)`);
    }
    const w = new Worker(this.script);
    w.on('message', (m: WorkerMessage) => this.onMessage(m));
    w.on('error', (e) => this.failAll(e));
    w.on('exit', (code) => {
      if (this.worker === w) this.worker = null;
      if (this.pending.size > 0) this.failAll(new Error(`b* worker exited with code ${code}`));
    });
    this.worker = w;
    return w;
  }

  private onMessage(m: WorkerMessage): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.type === 'progress') {
      p.onProgress?.(m.fraction);
      return;
    }
    this.pending.delete(m.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (m.type === 'result') p.resolve(m.value);
    else p.reject(new RopeError(m.code as RopeErrorCode, m.message));
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  private submit(job: JobRequest, signal?: AbortSignal, onProgress?: (f: number) => void): Promise<JobValue> {
    if (signal?.aborted) return Promise.reject(new RopeError('cancelled', 'b* computation was cancelled'));
    const w = this.ensureWorker();
    const id = this.nextId++;
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    return new Promise<JobValue>((resolvePromise, reject) => {
      const onAbort = () => {
        // The worker sees the flag within one batch; the caller is released at once.
        Atomics.store(cancel, 0, 1);
        if (this.pending.delete(id)) reject(new RopeError('cancelled', 'b* computation was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (v) => {
          done();
          resolvePromise(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        onProgress,
        cancel,
      });
      w.ref();
      const req: WorkerRequest = { id, job, cancel };
      w.postMessage(req);
    });
  }
}

function key(length: number, headDim: number): string {
  return `${length}:${headDim}`;
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new RopeError('cancelled', 'b* computation was cancelled'));
  return new Promise<T>((res, rej) => {
    const onAbort = () => rej(new RopeError('cancelled', 'b* computation was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        res(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        rej(e);
      },
    );
  });
}
