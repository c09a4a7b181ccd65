/**
 * The f_b screen in WGSL on any WebGPU device (Dawn's in Node, `navigator.gpu`'s in a browser worker;
 * pure: the device is a parameter, nothing here imports Node): for each base and each chunk of `chunk`
 * consecutive indices k, the float32 minimum of f_b(m) = Σ_{i<n} cos(2π·m·c_i), c_i = θ_i/2π,
 * over m = offset + k·stride. The float64 certificate stays on the CPU (bstar/screenCertify.ts);
 * this file only proves how far a float32 value can be from the float64 one (screenEpsilon).
 *
 * Phase reduction (m < 2^24 = MAX_LENGTH): m = 4096h + l with h, l < 4096, and per frequency the
 * CPU sends, from float64, A = frac(4096·c) split as A = A1 + A2 with A1 on the 2^-12 grid, and
 * c = c1 + c2 likewise. The shader computes, in turns,
 *     t = (fract(h·A1) + fract(l·c1)) + (h·A2 + l·c2),   r = fract(t) − (1 if > ½),   cos(P·r)
 * with P = 6.2831850 (the float32 just below 2π, so |P·r| ≤ π).
 *
 * Error bound ε (|f32 value − exact f_b(m)|), assuming WGSL's float32 rules: +, −, × correctly
 * rounded (a fused multiply-add only removes a rounding), floor exact, no reassociation, and cos
 * within 2^-11 absolute on [−π, π] (WGSL's and Vulkan's stated accuracy):
 *  - h·A1 and l·c1 are exact (12-bit × 12-bit integers times 2^-12 fit float32's 24 bits), so are
 *    their fracts and their sum (a multiple of 2^-12 below 2).
 *  - A2, c2 < 2^-12 rounded to float32: ≤ 2^-37 each, times h or l < 2^12: ≤ 2^-25 each;
 *    the products (< 1) round by ≤ 2^-25 each, their sum (< 2) by ≤ 2^-24, the final add (< 4) by ≤ 2^-23.
 *    Phase error ≤ 4·2^-25 + 2^-24 + 2^-23 = 2.5·2^-23 turns, plus the float64 side (θ/2π rounded,
 *    times m < 2^24: ≤ 1.2e-9 turns). fract and the −1 are exact. In radians: ≤ 1.89e-6.
 *  - P·r: |P − 2π|·½ ≤ 1.51e-7, rounding ≤ 2^-23 ≈ 1.19e-7. Angle error ≤ 2.16e-6 rad, so each
 *    cosine is off by ≤ 2^-11 + 2.16e-6.
 *  - Summing n terms (|partial sum| ≤ k·(1 + 2^-11)) in float32: ≤ 2^-24·(1 + 2^-11)·n(n+1)/2.
 *  - The CPU's float64 value itself (what the screen is compared with) is within 1e-9; 1e-7 margin.
 * ε(n) = n·(2^-11 + 2.2e-6) + 2^-24·1.001·n(n+1)/2 + 1e-7: 0.0315 for d = 128, 0.0158 for d = 64.
 * A driver that breaks these rules (llvmpipe's OpenGL ES path gives no cos accuracy at all) is
 * caught by the calibration and by the per-chunk checks in screenCertify.ts, which then leave the
 * certificate to the CPU.
 */
import { fAt, thetas } from '../rope/fb';

/* Minimal WebGPU typings for what this project uses (Dawn's and the browser's devices both fit). */
export interface GpuBufferLike {
  size: number;
  mapAsync(mode: number): Promise<void>;
  getMappedRange(): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}
export interface GpuDeviceLike {
  limits: Record<string, number>;
  queue: {
    writeBuffer(b: GpuBufferLike, offset: number, data: ArrayBufferView | ArrayBuffer): void;
    submit(cmds: unknown[]): void;
    onSubmittedWorkDone(): Promise<void>;
  };
  createBuffer(d: { size: number; usage: number; mappedAtCreation?: boolean }): GpuBufferLike;
  createShaderModule(d: { code: string }): { getCompilationInfo?(): Promise<{ messages: { type: string; message: string }[] }> };
  createComputePipeline(d: unknown): { getBindGroupLayout(i: number): unknown };
  createBindGroup(d: unknown): unknown;
  createCommandEncoder(): {
    beginComputePass(): {
      setPipeline(p: unknown): void;
      setBindGroup(i: number, g: unknown): void;
      dispatchWorkgroups(x: number, y?: number, z?: number): void;
      end(): void;
    };
    copyBufferToBuffer(a: GpuBufferLike, ao: number, b: GpuBufferLike, bo: number, size: number): void;
    finish(): unknown;
  };
  pushErrorScope(f: string): void;
  popErrorScope(): Promise<{ message: string } | null>;
  destroy(): void;
}

/** GPUBufferUsage / GPUMapMode flags (fixed by the WebGPU specification). */
export const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80 } as const;
export const MAP_READ = 0x1;

export function screenEpsilon(n: number): number {
  return n * (2 ** -11 + 2.2e-6) + (2 ** -24 * 1.001 * n * (n + 1)) / 2 + 1e-7;
}

export const FB_WGSL = /* wgsl */ `
struct Params { count: u32, chunk: u32, chunks: u32, n: u32, bases: u32, offset: u32, stride: u32, rowThreads: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> F: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> O: array<f32>;
const TWO_PI_DOWN: f32 = 6.28318500518798828125;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let idx = g.x + g.y * P.rowThreads;
  if (idx >= P.chunks * P.bases) { return; }
  let j = idx / P.chunks;
  let c = idx - j * P.chunks;
  let k0 = c * P.chunk;
  let k1 = min(k0 + P.chunk, P.count);
  var best: f32 = 3.0e38;
  for (var k = k0; k < k1; k++) {
    let m = P.offset + k * P.stride;
    let h = f32(m >> 12u);
    let l = f32(m & 4095u);
    var f: f32 = 0.0;
    for (var i = 0u; i < P.n; i++) {
      let q = F[j * P.n + i];
      let t = (fract(h * q.x) + fract(l * q.z)) + (h * q.y + l * q.w);
      var r = fract(t);
      if (r > 0.5) { r = r - 1.0; }
      f = f + cos(TWO_PI_DOWN * r);
    }
    best = min(best, f);
  }
  O[idx] = best;
}`;

/** Per base and frequency: (A1, A2, c1, c2) as float32, from float64 θ (see the header). */
export function packFrequencies(thetasPerBase: Float64Array[]): Float32Array {
  const n = thetasPerBase[0]?.length ?? 0;
  const out = new Float32Array(thetasPerBase.length * n * 4);
  const TWO_PI = 2 * Math.PI;
  thetasPerBase.forEach((th, j) => {
    for (let i = 0; i < n; i++) {
      const c = th[i] / TWO_PI;
      const x = 4096 * c;
      const A = x - Math.floor(x);
      const A1 = Math.floor(A * 4096) / 4096;
      const c1 = Math.floor(c * 4096) / 4096;
      const o = (j * n + i) * 4;
      out[o] = A1;
      out[o + 1] = A - A1;
      out[o + 2] = c1;
      out[o + 3] = c - c1;
    }
  });
  return out;
}

export interface MinimaRequest {
  /** Packed frequencies (packFrequencies) for `bases` bases of n frequencies each. */
  freq: Float32Array;
  n: number;
  bases: number;
  /** Indices k < count, m = offset + k·stride (m must stay below 2^24). */
  count: number;
  offset?: number;
  stride?: number;
  /** Indices per output value. */
  chunk: number;
}

/** Chunk length for a screen of `bases` × `length`: about 2^17 invocations, a power of two ≤ 4096. */
export function chunkFor(bases: number, length: number): number {
  let k = 1;
  while (k < 4096 && (bases * length) / k > 1 << 17) k *= 2;
  return k;
}

export class WgslFbScreen {
  private pipeline: { getBindGroupLayout(i: number): unknown };
  private params: GpuBufferLike;
  private input: GpuBufferLike | null = null;
  private output: GpuBufferLike | null = null;
  private staging: GpuBufferLike | null = null;

  constructor(private readonly device: GpuDeviceLike) {
    const module = device.createShaderModule({ code: FB_WGSL });
    this.pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    this.params = device.createBuffer({ size: 32, usage: USAGE.UNIFORM | USAGE.COPY_DST });
  }

  private ensure(which: 'input' | 'output' | 'staging', size: number, usage: number): GpuBufferLike {
    const cur = this[which];
    if (cur && cur.size >= size) return cur;
    cur?.destroy();
    const b = this.device.createBuffer({ size: Math.max(256, 2 ** Math.ceil(Math.log2(size))), usage });
    this[which] = b;
    return b;
  }

  /** Float32 minima, [bases × chunks] row-major, chunks = ceil(count / chunk). */
  async minima(r: MinimaRequest): Promise<Float32Array> {
    const chunks = Math.ceil(r.count / r.chunk);
    const threads = chunks * r.bases;
    const groups = Math.ceil(threads / 64);
    const gx = Math.min(groups, 65535);
    const gy = Math.ceil(groups / gx);
    const d = this.device;
    d.queue.writeBuffer(this.params, 0, new Uint32Array([r.count, r.chunk, chunks, r.n, r.bases, r.offset ?? 0, r.stride ?? 1, gx * 64]));
    const input = this.ensure('input', r.freq.byteLength, USAGE.STORAGE | USAGE.COPY_DST);
    d.queue.writeBuffer(input, 0, r.freq);
    const bytes = threads * 4;
    const output = this.ensure('output', bytes, USAGE.STORAGE | USAGE.COPY_SRC);
    const staging = this.ensure('staging', bytes, USAGE.MAP_READ | USAGE.COPY_DST);
    const bind = d.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: { buffer: input, size: r.freq.byteLength } },
        { binding: 2, resource: { buffer: output, size: bytes } },
      ],
    });
    const enc = d.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
    enc.copyBufferToBuffer(output, 0, staging, 0, bytes);
    d.queue.submit([enc.finish()]);
    await staging.mapAsync(MAP_READ);
    const out = new Float32Array(staging.getMappedRange().slice(0, bytes));
    staging.unmap();
    return out;
  }

  destroy(): void {
    for (const b of [this.params, this.input, this.output, this.staging]) b?.destroy();
  }
}

export interface Calibration {
  precise: boolean;
  maxError: number;
  eps: number;
  samples: number;
}

const CALIBRATION_BASES = [1e4, 5e5, 1e7, 3e8, 1e10];
const CALIBRATION_COUNT = 512;
/** m up to 1.7e7, a prime stride so the low 12 bits vary. */
const CALIBRATION_STRIDE = 32749;

/**
 * The calibration sample: single values of the screen (chunk 1) at m spread over [0, 2^24), for bases
 * across the useful range. Run it on the device, then judge the answer with calibrationOf.
 */
export function calibrationRequest(headDim: number): MinimaRequest {
  const th = CALIBRATION_BASES.map((b) => thetas(b, headDim));
  return { freq: packFrequencies(th), n: headDim / 2, bases: th.length, count: CALIBRATION_COUNT, stride: CALIBRATION_STRIDE, chunk: 1 };
}

/** `precise` when every sampled float32 value is within ε of float64, with a 2× safety factor. */
export function calibrationOf(headDim: number, out: Float32Array): Calibration {
  let maxError = 0;
  CALIBRATION_BASES.forEach((b, j) => {
    const th = thetas(b, headDim);
    for (let k = 0; k < CALIBRATION_COUNT; k++) {
      const e = Math.abs(out[j * CALIBRATION_COUNT + k] - fAt(th, k * CALIBRATION_STRIDE));
      maxError = Number.isNaN(e) ? Infinity : Math.max(maxError, e);
    }
  });
  const eps = screenEpsilon(headDim / 2);
  return { precise: maxError * 2 <= eps, maxError, eps, samples: CALIBRATION_BASES.length * CALIBRATION_COUNT };
}
