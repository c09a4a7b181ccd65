/**
 * Synchronous access to the WebGPU f_b screen for the b* worker (Node-only). The certified sweep is
 * synchronous; WebGPU is not. So the device lives on a second worker thread (webgpuWorker.ts), and a
 * call here posts the request and blocks on Atomics.wait until that thread has written the answer
 * into shared memory (a worker thread may block; the language server's main thread never calls this).
 *
 * open() also checks the driver against the proven error bound (calibrate): a device whose float32
 * values stray beyond ε from float64 on a sample is reported `precise: false`, and the b* worker then
 * certifies on the CPU.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Calibration, MinimaRequest, calibrationOf, calibrationRequest } from '../gpu/fbScreen';
import type { WebGpuInfo } from './webgpuLoad';
import { probeAdapterNow, webgpuDisabled } from './adapterProbe';

/** Why a software rasterizer found by the probe was not opened (auto never runs on one). */
export const SOFTWARE_NOT_OPENED = 'a software rasterizer, opened only when asked for (--backend gpu)';

export type BridgeRequest =
  | { op: 'open'; ctrl: SharedArrayBuffer; data: SharedArrayBuffer }
  | { op: 'minima'; ctrl: SharedArrayBuffer; data: SharedArrayBuffer; minima: Omit<MinimaRequest, 'freq'> & { freq: Float32Array } };

/** Longest wait for one GPU answer before the GPU is given up (a hung driver must not hang the sweep). */
const TIMEOUT_MS = 120_000;

export type { Calibration } from '../gpu/fbScreen';

export function defaultGpuWorkerScript(): string {
  const candidates = [join(__dirname, 'webgpuWorker.js'), resolve(__dirname, '../../dist/webgpuWorker.js')];
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

export class GpuBridge {
  private ctrl = new SharedArrayBuffer(8);
  private data = new SharedArrayBuffer(1 << 16);
  readonly calibration = new Map<number, Calibration>();

  private constructor(
    private readonly worker: Worker,
    readonly info: WebGpuInfo,
  ) {}

  /**
   * Starts the device thread and opens an adapter; `bridge` is null (with the reason) when there is none,
   * and, unless `openSoftware`, when the adapter is a software rasterizer (`info` then describes it).
   */
  static open(
    script = defaultGpuWorkerScript(),
    opts: { openSoftware?: boolean } = { openSoftware: true },
  ): { bridge: GpuBridge | null; info: WebGpuInfo | null; reason: string } {
    if (webgpuDisabled()) return { bridge: null, info: null, reason: 'WebGPU disabled by ROPE_LENS_WEBGPU=0' };
    if (!existsSync(script)) return { bridge: null, info: null, reason: `WebGPU worker script not found at ${script}` };
    // Dawn is loaded here only once a child process has found an adapter worth opening: on a machine
    // without a GPU its native log lines stay in that child's pipe (adapterProbe.ts).
    const found = probeAdapterNow();
    if (!found.info) return { bridge: null, info: null, reason: found.reason };
    if (found.info.software && !opts.openSoftware) return { bridge: null, info: found.info, reason: SOFTWARE_NOT_OPENED };
    const worker = new Worker(script);
    worker.unref();
    const probe = new GpuBridge(worker, null as unknown as WebGpuInfo);
    try {
      const text = probe.call({ op: 'open', ctrl: probe.ctrl, data: probe.data }, 'text') as string;
      const r = JSON.parse(text) as { info: WebGpuInfo | null; reason: string };
      if (!r.info) {
        void worker.terminate();
        return { bridge: null, info: null, reason: r.reason };
      }
      return { bridge: new GpuBridge(worker, r.info), info: r.info, reason: '' };
    } catch (e) {
      void worker.terminate();
      return { bridge: null, info: null, reason: (e as Error)?.message ?? String(e) };
    }
  }

  private call(req: BridgeRequest, kind: 'text' | 'floats', floats = 0): string | Float32Array {
    const ctrl = new Int32Array(req.ctrl);
    Atomics.store(ctrl, 0, 0);
    this.worker.postMessage(req);
    if (Atomics.wait(ctrl, 0, 0, TIMEOUT_MS) === 'timed-out') throw new Error(`no answer from the GPU within ${TIMEOUT_MS / 1000} s`);
    if (Atomics.load(ctrl, 1) !== 0 || kind === 'text') {
      const n = new DataView(req.data).getUint32(0, true);
      const text = new TextDecoder().decode(new Uint8Array(req.data, 4, n).slice());
      if (Atomics.load(ctrl, 1) !== 0) throw new Error(`GPU screen failed: ${text}`);
      return text;
    }
    return new Float32Array(req.data, 0, floats).slice();
  }

  /** Float32 chunk minima, [bases × chunks] (see WgslFbScreen.minima); throws if the GPU failed. */
  minima(r: MinimaRequest): Float32Array {
    const floats = Math.ceil(r.count / r.chunk) * r.bases;
    if (this.data.byteLength < Math.max(floats * 4, 1 << 16)) this.data = new SharedArrayBuffer(2 ** Math.ceil(Math.log2(floats * 4)));
    return this.call({ op: 'minima', ctrl: this.ctrl, data: this.data, minima: r }, 'floats', floats) as Float32Array;
  }

  /**
   * Compares single values of the screen (chunk 1) with float64 at m spread over [0, 2^24) for bases
   * across the useful range; `precise` when every error is within ε (with a 2× safety factor).
   */
  calibrate(headDim: number): Calibration {
    const known = this.calibration.get(headDim);
    if (known) return known;
    const c = calibrationOf(headDim, this.minima(calibrationRequest(headDim)));
    this.calibration.set(headDim, c);
    return c;
  }

  dispose(): void {
    void this.worker.terminate();
  }
}
