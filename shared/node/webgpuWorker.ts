/**
 * Worker-thread entry (bundled to dist/webgpuWorker.js): owns the WebGPU device and runs the f_b
 * screen for a synchronous caller (gpuBridge.ts), which blocks on Atomics.wait until this thread has
 * written the answer into shared memory. WebGPU is asynchronous; the certified b* sweep is not.
 */
import { parentPort } from 'node:worker_threads';
import { openWebGpu } from './webgpuLoad';
import { WgslFbScreen } from './fbWebgpu';
import type { BridgeRequest } from './gpuBridge';

let screen: WgslFbScreen | null = null;

async function handle(req: BridgeRequest): Promise<void> {
  const ctrl = new Int32Array(req.ctrl);
  let status = 0;
  try {
    if (req.op === 'open') {
      const h = await openWebGpu();
      if (h.device) screen ??= new WgslFbScreen(h.device);
      writeText(req.data, JSON.stringify({ info: h.info, reason: h.reason }));
    } else {
      if (!screen) throw new Error('WebGPU device not open');
      const out = await screen.minima({ ...req.minima, freq: new Float32Array(req.minima.freq) });
      new Float32Array(req.data).set(out);
    }
  } catch (e) {
    status = 1;
    writeText(req.data, (e as Error)?.message ?? String(e));
  }
  Atomics.store(ctrl, 1, status);
  Atomics.store(ctrl, 0, 1);
  Atomics.notify(ctrl, 0);
}

function writeText(sab: SharedArrayBuffer, text: string): void {
  const bytes = new TextEncoder().encode(text);
  const view = new Uint8Array(sab);
  const n = Math.min(bytes.length, view.length - 4);
  new DataView(sab).setUint32(0, n, true);
  view.set(bytes.subarray(0, n), 4);
}

parentPort?.on('message', (req: BridgeRequest) => {
  void handle(req);
});
