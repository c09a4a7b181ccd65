/**
 * The browser's own GPU for the b* worker's proofs: `navigator.gpu` where the browser exposes it,
 * opened once per worker and calibrated per head dimension against the screen's proven ε
 * (shared/gpu/fbScreen.ts). The screen itself is shared/gpu/deviceScreen.ts, the code Node runs on
 * Dawn. Never throws: without an adapter, with an imprecise one, or (for `auto`) with a software
 * one, the answer is the reason, and the proof runs on the CPU.
 */
import type { BoundBackend } from '../../shared/protocol/settings';
import type { GpuDeviceLike } from '../../shared/gpu/fbScreen';
import { type DeviceScreen, deviceScreen } from '../../shared/gpu/deviceScreen';

interface AdapterInfoLike {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
}
interface AdapterLike {
  info?: AdapterInfoLike;
  isFallbackAdapter?: boolean;
  requestDevice(): Promise<GpuDeviceLike>;
}
export interface GpuLike {
  requestAdapter(o?: Record<string, unknown>): Promise<AdapterLike | null>;
}

export interface BrowserGpu {
  screen: DeviceScreen | null;
  /** The adapter in words ('none' without one). */
  adapter: string;
  software: boolean;
  /** Why there is no screen (empty when there is one). */
  reason: string;
}

const SOFTWARE = /llvmpipe|lavapipe|softpipe|swiftshader|swrast|software/i;

/** `navigator.gpu` of this worker, if the browser has one. */
export function navigatorGpu(): GpuLike | undefined {
  return (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
}

export async function openBrowserGpu(gpu: GpuLike | undefined = navigatorGpu()): Promise<BrowserGpu> {
  const none = (reason: string): BrowserGpu => ({ screen: null, adapter: 'none', software: false, reason });
  if (!gpu) return none('this browser exposes no navigator.gpu in a worker');
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return none('navigator.gpu offered no adapter');
    const i = adapter.info ?? {};
    const words = [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(' ') || 'unnamed adapter';
    const software = adapter.isFallbackAdapter === true || SOFTWARE.test(words);
    const device = await adapter.requestDevice();
    return { screen: deviceScreen(device), adapter: words, software, reason: '' };
  } catch (e) {
    return none(`navigator.gpu failed: ${(e as Error)?.message ?? e}`);
  }
}

/** Longest wait for one screen answer: a hung device must not hang the proof (as on the desktop). */
export const GPU_ANSWER_MS = 120_000;

export function withinTime<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the GPU within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * The screen and its ε for one job, or why the CPU proves it: `cpu` never screens, `auto` not on a
 * software rasterizer (slower than the float64 CPU), `gpu` on any adapter; each only when the
 * calibration finds the driver within ε.
 */
export async function screenFor(
  gpu: BrowserGpu,
  backend: BoundBackend,
  headDim: number,
): Promise<{ screen: DeviceScreen; eps: number; adapter: string } | { reason: string }> {
  if (backend === 'cpu') return { reason: 'ropeLens.bound.backend is "cpu"' };
  if (!gpu.screen) return { reason: gpu.reason };
  if (gpu.software && backend === 'auto') return { reason: `${gpu.adapter} is a software rasterizer, used only when ropeLens.bound.backend is "gpu"` };
  try {
    const c = await withinTime(gpu.screen.calibrate(headDim), GPU_ANSWER_MS);
    if (!c.precise)
      return { reason: `${gpu.adapter}: float32 error ${c.maxError.toExponential(2)} exceeds half the proven bound ε = ${c.eps.toExponential(2)}` };
    return { screen: gpu.screen, eps: c.eps, adapter: gpu.adapter };
  } catch (e) {
    return { reason: `${gpu.adapter}: the calibration failed (${(e as Error)?.message ?? e})` };
  }
}
