/**
 * Applying RoPE to a [tokens × heads × head_dim] float32 tensor, in the two layouts models use:
 *  - rotate-half (Llama / transformers `rotate_half`): channel d < R/2 pairs with d + R/2;
 *  - interleaved (RoFormer / Meta's complex reference): channel 2i pairs with 2i + 1.
 * Channels ≥ rotaryDim R pass through (partial rotary). cos/sin come from tables of angles t·θᵢ
 * computed in float64 from the shared core's inv_freq (as models cache them), so the kernels only
 * multiply and add. Three implementations share one contract so benchmarks can compare them: the
 * gpu.js kernel, a plain TypeScript loop on float32 data, and a float64 reference.
 * Works in Node and in the webview bundle (gpu.js resolves to its browser build there).
 */
import { RopeError } from '../core/errors';
import { kernelClassName } from './kernelClass';

export type RopeLayout = 'rotate-half' | 'interleaved';
export const ROPE_LAYOUTS: readonly RopeLayout[] = ['rotate-half', 'interleaved'];

export interface RopeShape {
  tokens: number;
  heads: number;
  headDim: number;
  /** Rotated channels (even, ≤ headDim); the rest pass through. */
  rotaryDim: number;
}

/** gpu.js indexes through float32 texture coordinates: keep every flat index exact. */
export const MAX_ROPE_ELEMENTS = 1 << 24;

export function checkShape(s: RopeShape): RopeShape {
  for (const [k, v] of Object.entries(s)) {
    if (!Number.isInteger(v) || v <= 0) throw new RopeError('invalid-parameter', `${k} must be a positive integer, got ${String(v)}`);
  }
  if (s.rotaryDim % 2 !== 0 || s.rotaryDim > s.headDim) {
    throw new RopeError('invalid-dimension', `rotary dim must be even and ≤ head dim, got ${s.rotaryDim} of ${s.headDim}`);
  }
  const n = s.tokens * s.heads * s.headDim;
  if (n > MAX_ROPE_ELEMENTS) throw new RopeError('invalid-parameter', `tensor too large for the kernels: ${n} elements (max ${MAX_ROPE_ELEMENTS})`);
  return s;
}

export function elementsOf(s: RopeShape): number {
  return s.tokens * s.heads * s.headDim;
}

export interface RopeTables {
  /** [tokens × rotaryDim/2] cos/sin of t·θᵢ, float32 (what a kernel reads) and float64 (reference). */
  cos: Float32Array;
  sin: Float32Array;
  cos64: Float64Array;
  sin64: Float64Array;
}

/** cos/sin of t·θᵢ for t < tokens, angles formed in float64. */
export function ropeTables(invFreq: ArrayLike<number>, tokens: number, firstPosition = 0): RopeTables {
  const half = invFreq.length;
  const n = tokens * half;
  const cos64 = new Float64Array(n);
  const sin64 = new Float64Array(n);
  for (let t = 0; t < tokens; t++) {
    const m = firstPosition + t;
    for (let i = 0; i < half; i++) {
      const a = m * invFreq[i];
      cos64[t * half + i] = Math.cos(a);
      sin64[t * half + i] = Math.sin(a);
    }
  }
  return { cos: Float32Array.from(cos64), sin: Float32Array.from(sin64), cos64, sin64 };
}

type Num = Float32Array | Float64Array;

/** One implementation of both layouts over any numeric arrays (the output type sets the rounding). */
function applyInto(out: Num, x: ArrayLike<number>, s: RopeShape, layout: RopeLayout, cos: ArrayLike<number>, sin: ArrayLike<number>): void {
  const { tokens: T, heads: H, headDim: D, rotaryDim: R } = s;
  const half = R / 2;
  for (let t = 0; t < T; t++) {
    const tb = t * half;
    for (let h = 0; h < H; h++) {
      const base = (t * H + h) * D;
      if (layout === 'rotate-half') {
        for (let i = 0; i < half; i++) {
          const c = cos[tb + i],
            sn = sin[tb + i];
          const a = x[base + i],
            b = x[base + i + half];
          out[base + i] = a * c - b * sn;
          out[base + i + half] = b * c + a * sn;
        }
      } else {
        for (let i = 0; i < half; i++) {
          const c = cos[tb + i],
            sn = sin[tb + i];
          const a = x[base + 2 * i],
            b = x[base + 2 * i + 1];
          out[base + 2 * i] = a * c - b * sn;
          out[base + 2 * i + 1] = a * sn + b * c;
        }
      }
      for (let d = R; d < D; d++) out[base + d] = x[base + d];
    }
  }
}

/** Float64 reference: the float32 input upcast, float64 cos/sin, float64 arithmetic. */
export function applyRopeReference(x: ArrayLike<number>, s: RopeShape, layout: RopeLayout, tables: RopeTables): Float64Array {
  const out = new Float64Array(elementsOf(s));
  applyInto(out, x, s, layout, tables.cos64, tables.sin64);
  return out;
}

/** Plain TypeScript baseline: float32 tables and a float32 result, as a CPU implementation would. */
export function applyRopeTs(x: Float32Array, s: RopeShape, layout: RopeLayout, tables: RopeTables, out = new Float32Array(elementsOf(s))): Float32Array {
  applyInto(out, x, s, layout, tables.cos, tables.sin);
  return out;
}

/*
 * gpu.js kernels, given as source text so that no bundler or minifier can rewrite them into a form
 * gpu.js cannot parse. Output [D, H, T]: thread.x/y/z are exact integers, so no index is ever
 * recovered by a float division.
 */
const ROTATE_HALF_SRC = `function ropeRotateHalf(x, cosT, sinT) {
  const d = this.thread.x;
  const h = this.thread.y;
  const t = this.thread.z;
  const D = this.constants.D;
  const half = this.constants.half;
  const base = (t * this.constants.H + h) * D;
  const v = x[base + d];
  if (d >= this.constants.R) {
    return v;
  }
  if (d < half) {
    return v * cosT[t * half + d] - x[base + d + half] * sinT[t * half + d];
  }
  return v * cosT[t * half + d - half] + x[base + d - half] * sinT[t * half + d - half];
}`;

const INTERLEAVED_SRC = `function ropeInterleaved(x, cosT, sinT) {
  const d = this.thread.x;
  const h = this.thread.y;
  const t = this.thread.z;
  const D = this.constants.D;
  const half = this.constants.half;
  const base = (t * this.constants.H + h) * D;
  const v = x[base + d];
  if (d >= this.constants.R) {
    return v;
  }
  const i = Math.floor(d / 2);
  const c = cosT[t * half + i];
  const s = sinT[t * half + i];
  if (d - i * 2 < 1) {
    return v * c - x[base + d + 1] * s;
  }
  return x[base + d - 1] * s + v * c;
}`;

/** The part of gpu.js's GPU class the kernels use (so callers can pass Node's or the browser's). */
export interface GpuLike {
  createKernel(source: string, settings?: object): unknown;
}

interface GpuKernel {
  (...args: unknown[]): unknown;
  kernel?: unknown;
  destroy?(removeCanvasReferences?: boolean): void;
}

export interface RopeKernel {
  run(x: Float32Array, tables: RopeTables, out?: Float32Array): Float32Array;
  /** The gpu.js kernel class that actually ran (e.g. WebGL2Kernel, CPUKernel, WebAssemblyKernel), known after the first run. */
  backend(): string;
  destroy(): void;
}

/** Flattens gpu.js's [T][H] arrays of Float32Array(D) into one tensor. */
function flatten3(res: unknown, s: RopeShape, out: Float32Array): Float32Array {
  const rows = res as Float32Array[][];
  const { tokens: T, heads: H, headDim: D } = s;
  for (let t = 0; t < T; t++) {
    const rt = rows[t];
    for (let h = 0; h < H; h++) out.set(rt[h].subarray(0, D), (t * H + h) * D);
  }
  return out;
}

export function createRopeKernel(gpu: GpuLike, shape: RopeShape, layout: RopeLayout): RopeKernel {
  const s = checkShape(shape);
  const k = gpu.createKernel(layout === 'rotate-half' ? ROTATE_HALF_SRC : INTERLEAVED_SRC, {
    output: [s.headDim, s.heads, s.tokens],
    constants: { D: s.headDim, H: s.heads, R: s.rotaryDim, half: s.rotaryDim / 2 },
    tactic: 'precision',
    precision: 'single',
    argumentTypes: { x: 'Array', cosT: 'Array', sinT: 'Array' },
  }) as GpuKernel;
  return {
    run(x, tables, out = new Float32Array(elementsOf(s))) {
      return flatten3(k(x, tables.cos, tables.sin), s, out);
    },
    backend: () => (k.kernel ? kernelClassName(k.kernel) : 'not run yet'),
    destroy: () => k.destroy?.(),
  };
}

/** Largest |a − ref| and the largest |ref| (to read the error relative to the data). */
export function maxAbsError(a: ArrayLike<number>, ref: ArrayLike<number>): { maxAbs: number; refMax: number } {
  if (a.length !== ref.length) throw new RopeError('length-mismatch', `lengths differ: ${a.length} vs ${ref.length}`);
  let maxAbs = 0,
    refMax = 0;
  for (let i = 0; i < a.length; i++) {
    const e = Math.abs(a[i] - ref[i]);
    if (!(e <= maxAbs)) maxAbs = e; // NaN propagates as the maximum
    const r = Math.abs(ref[i]);
    if (r > refMax) refMax = r;
  }
  return { maxAbs, refMax };
}

/** Deterministic test data in [−1, 1) (xorshift32), so runs and platforms compare. */
export function randomTensor(n: number, seed = 12345): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = (s / 4294967296) * 2 - 1;
  }
  return out;
}
