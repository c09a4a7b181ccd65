/**
 * gpu.js screen for f_b(m) = Σ_i cos(m·θ_i): a batch of bases × all m < L in one kernel call,
 * returning per base the first negative m (verified in float64) or the minimum.
 *
 * gpu.js computes in float32 only, and float32 phases m·θ lose up to ~0.1 rad at m ≈ 1e6, so the
 * kernel uses the phase-table split: m = c·K + ml, the CPU computes (c·K·θ_i mod 2π) in float64 for
 * every chunk c, and the kernel only adds ml·θ_i (ml < K). Each thread returns the float32 minimum of
 * its chunk. A chunk whose minimum is below +SCREEN_MARGIN (7× the largest kernel error measured for
 * this scheme on any driver) is re-evaluated in float64 on the CPU; only float64 values are ever reported.
 *
 * Works with any gpu.js instance: `new GPU()` in a browser or webview (WebGL2), or in Node with
 * `mode: 'cpu'` (tests) or a headless-gl context. Pure: no Node imports; gpu.js types only.
 */
import type { GPU, IGPUKernelSettings, IKernelRunShortcut } from 'gpu.js';
import { BLOCK, TOLERANCE, evalBlock, thetas } from '../rope/fb';
import { GPU_KERNEL_CLASSES, kernelClassName } from './kernelClass';

/**
 * Chunks whose float32 minimum is below this are checked in float64. Measured kernel error: ~5e-6 in
 * gpu.js cpu mode, up to 1.4e-3 on Chromium's SwiftShader WebGL2 (its cos/floor are coarser).
 */
export const SCREEN_MARGIN = 1e-2;
/** Largest output texture side gpu.js can rely on (MAX_TEXTURE_SIZE is ≥ 16384 on current GPUs). */
const MAX_CHUNKS = 8192;

export interface ScreenResult {
  base: number;
  /** First m < L with f_b(m) < −1e-7, found and confirmed in float64; null when none. */
  firstNegative: number | null;
  /** f at firstNegative (float64), or the float32 screen minimum when the base passed. */
  f: number;
  /** Chunks re-checked in float64 (screen hits within the margin). */
  checkedChunks: number;
}

export interface FbScreen {
  screen(bases: number[], length: number): ScreenResult[];
  /** For the b* sweep (WitnessScreen): the first negative m at one base (float64-confirmed), or −1. */
  witness(base: number, length: number): number;
  /** gpu.js kernel class that actually ran (after the first call), e.g. WebGL2Kernel, CPUKernel. */
  kernelClass(): string;
  /** True when that class runs on a GPU (WebGL/WebGL2/headless-gl/WebGPU), false for CPU/WASM fallbacks. */
  onGpu(): boolean;
  /** The raw float32 chunk minima of the last call (for error measurements). */
  lastMinima(): { chunk: number; minima: Float32Array[] };
  destroy(): void;
}

// Kernel source as text, so bundlers and minifiers cannot rewrite what gpu.js parses.
const KERNEL_SOURCE = `function (phase, theta) {
  var c = this.thread.x;
  var j = this.thread.y;
  var best = 1000000.0;
  for (var ml = 0; ml < this.constants.K; ml++) {
    var m = c * this.constants.K + ml;
    if (m < this.constants.L) {
      var f = 0.0;
      for (var i = 0; i < this.constants.n; i++) {
        f += Math.cos(phase[(j * this.constants.chunks + c) * this.constants.n + i] + ml * theta[j * this.constants.n + i]);
      }
      if (f < best) best = f;
    }
  }
  return best;
}`;

/** Chunk length K: 64 for short L (best precision), doubled until the chunk count fits a texture. */
export function chunkSize(length: number): number {
  let K = 64;
  while (Math.ceil(length / K) > MAX_CHUNKS) K *= 2;
  return K;
}

export function createFbScreen(gpu: GPU, headDim: number): FbScreen {
  if (!Number.isInteger(headDim) || headDim < 2 || headDim % 2) throw new RangeError(`head dimension must be a positive even integer, got ${headDim}`);
  const n = headDim / 2;
  const kernels = new Map<string, IKernelRunShortcut>();
  let cls = 'not run yet';
  let last = { chunk: 0, minima: [] as Float32Array[] };

  function kernelFor(B: number, chunks: number, K: number, L: number): IKernelRunShortcut {
    const key = `${B}:${chunks}:${K}:${L}`;
    let k = kernels.get(key);
    if (!k) {
      // Loop bounds are constants (dynamic bounds are silently capped at 1000 iterations);
      // loopMaxIterations is set too, belt and braces (a runtime setting missing from the typings).
      const settings: IGPUKernelSettings & { loopMaxIterations: number } = {
        output: [chunks, B],
        constants: { K, L, n, chunks },
        precision: 'single',
        tactic: 'precision',
        loopMaxIterations: Math.max(K, n) + 1,
      };
      k = gpu.createKernel(KERNEL_SOURCE, settings);
      kernels.set(key, k);
    }
    return k;
  }

  function screen(bases: number[], length: number): ScreenResult[] {
    if (bases.length === 0) return [];
    const K = chunkSize(length);
    const chunks = Math.ceil(length / K);
    const B = bases.length;
    const phase = new Float32Array(B * chunks * n);
    const theta = new Float32Array(B * n);
    const thetas64 = bases.map((b) => thetas(b, headDim));
    const TWO_PI = 2 * Math.PI;
    for (let j = 0; j < B; j++) {
      const th = thetas64[j];
      for (let i = 0; i < n; i++) {
        theta[j * n + i] = th[i];
        // Phase of chunk c = c·(K·θ mod 2π) mod 2π, accumulated in float64 and reduced every step.
        const step = (K * th[i]) % TWO_PI;
        let p = 0;
        for (let c = 0; c < chunks; c++) {
          phase[(j * chunks + c) * n + i] = p;
          p += step;
          if (p >= TWO_PI) p -= TWO_PI;
        }
      }
    }
    const kernel = kernelFor(B, chunks, K, length);
    const out = kernel(phase, theta) as Float32Array[];
    cls = kernelClassName((kernel as unknown as { kernel?: unknown }).kernel);
    last = { chunk: K, minima: out };
    const buf = new Float64Array(BLOCK);
    return bases.map((base, j) => {
      const row = out[j];
      let checked = 0;
      let screenMin = Infinity;
      for (let c = 0; c < chunks; c++) {
        if (row[c] < screenMin) screenMin = row[c];
        if (row[c] >= SCREEN_MARGIN) continue;
        checked++;
        const m0 = c * K;
        const cnt = Math.min(K, length - m0);
        evalBlock(thetas64[j], m0, cnt, buf);
        for (let k = 0; k < cnt; k++) {
          if (buf[k] < -TOLERANCE) return { base, firstNegative: m0 + k, f: buf[k], checkedChunks: checked };
        }
      }
      return { base, firstNegative: null, f: screenMin, checkedChunks: checked };
    });
  }

  return {
    screen,
    witness: (base, length) => screen([base], length)[0].firstNegative ?? -1,
    kernelClass: () => cls,
    onGpu: () => GPU_KERNEL_CLASSES.includes(cls),
    lastMinima: () => last,
    destroy: () => {
      for (const k of kernels.values()) k.destroy?.();
      kernels.clear();
    },
  };
}
