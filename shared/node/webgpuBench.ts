/**
 * WebGPU rows of the kernel micro-benchmarks (Node): the device's own buffer copy (the bandwidth a
 * memory-bound kernel is measured against), RoPE application in both layouts as a WGSL kernel, and
 * the WGSL f_b screen of the b* engine, each checked against float64. Copies and RoPE dispatches are
 * repeated REPEAT times per submission so that the submit/wait overhead does not hide the bandwidth.
 */
import { BenchCase } from '../kernelBench/runner';
import { KernelBenchConfig, fbBasesFor, fbMinDirect } from '../kernelBench/cases';
import { ROPE_LAYOUTS, RopeLayout, applyRopeReference, elementsOf, maxAbsError, randomTensor, ropeTables } from '../gpu/ropeKernels';
import { defaultInvFreq } from '../rope/invFreq';
import { thetas } from '../rope/fb';
import { GpuBufferLike, GpuDeviceLike, MAP_READ, USAGE } from './webgpuLoad';
import { WgslFbScreen, chunkFor, packFrequencies } from './fbWebgpu';

const REPEAT = 16;

const ROPE_WGSL = /* wgsl */ `
struct Params { T: u32, H: u32, D: u32, R: u32, mode: u32, total: u32, rowThreads: u32, pad: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> C: array<f32>;
@group(0) @binding(3) var<storage, read> S: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let idx = g.x + g.y * P.rowThreads;
  if (idx >= P.total) { return; }
  let d = idx % P.D;
  let t = idx / (P.D * P.H);
  let half = P.R / 2u;
  if (d >= P.R) { O[idx] = X[idx]; return; }
  var i: u32; var partner: u32; var sgn: f32;
  if (P.mode == 0u) {
    if (d < half) { i = d; partner = idx + half; sgn = -1.0; } else { i = d - half; partner = idx - half; sgn = 1.0; }
  } else {
    i = d / 2u;
    if ((d & 1u) == 0u) { partner = idx + 1u; sgn = -1.0; } else { partner = idx - 1u; sgn = 1.0; }
  }
  let k = t * half + i;
  O[idx] = X[idx] * C[k] + sgn * X[partner] * S[k];
}`;

/** A buffer, filled at creation (mappedAtCreation; large queue.writeBuffer uploads crashed Dawn's GL path here). */
function buffer(device: GpuDeviceLike, data: ArrayBufferView | number, usage: number): GpuBufferLike {
  const size = Math.max(16, Math.ceil((typeof data === 'number' ? data : data.byteLength) / 4) * 4);
  const b = device.createBuffer({ size, usage: usage | USAGE.COPY_DST, mappedAtCreation: typeof data !== 'number' });
  if (typeof data !== 'number') {
    new Uint8Array(b.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    b.unmap();
  }
  return b;
}

/** Waits for everything submitted so far: maps 16 bytes copied after it (queue order). */
async function fence(device: GpuDeviceLike, after: GpuBufferLike): Promise<void> {
  await readBack(device, after, 16);
}

async function readBack(device: GpuDeviceLike, src: GpuBufferLike, bytes: number): Promise<Float32Array> {
  const staging = device.createBuffer({ size: bytes, usage: USAGE.MAP_READ | USAGE.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(src, 0, staging, 0, bytes);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(MAP_READ);
  const out = new Float32Array(staging.getMappedRange().slice(0, bytes));
  staging.unmap();
  staging.destroy();
  return out;
}

function dispatchShape(threads: number, wg: number): { gx: number; gy: number; rowThreads: number } {
  const groups = Math.ceil(threads / wg);
  const gx = Math.min(groups, 65535);
  return { gx, gy: Math.ceil(groups / gx), rowThreads: gx * wg };
}

/**
 * The WebGPU cases; `adapter` names the device in the backend column. Every float64 reference is
 * computed here, before the device exists, and the device is opened by the first case: Dawn's
 * OpenGL ES path (llvmpipe) was seen to abort when the thread that owns the device blocked for
 * seconds with work in flight, so no long synchronous work runs while it is open.
 */
export function webgpuCases(cfg: KernelBenchConfig, open: () => Promise<GpuDeviceLike>, adapter: () => string): BenchCase[] {
  let device = null as unknown as GpuDeviceLike;
  const s = cfg.shape;
  const n = elementsOf(s);
  const cases: BenchCase[] = [];
  const owned: GpuBufferLike[] = [];
  const keep = (b: GpuBufferLike) => {
    owned.push(b);
    return b;
  };

  // Device copy: REPEAT copies of the tensor's bytes per submission (at least 16 MiB each, for a stable figure).
  const copyBytes = Math.max(n * 4, 1 << 24);
  let a: GpuBufferLike | null = null,
    b: GpuBufferLike | null = null;
  let copied: Float32Array | null = null;
  const pattern = new Float32Array(copyBytes / 4).map((_, i) => i % 1000);
  cases.push({
    id: 'memcpy-webgpu',
    label: `device buffer copy (${(copyBytes / 1048576).toFixed(0)} MiB × ${REPEAT})`,
    kind: 'memcpy',
    impl: 'WebGPU',
    backend: adapter,
    elements: (copyBytes / 4) * REPEAT,
    bytes: 2 * copyBytes * REPEAT,
    run: async () => {
      device ??= await open();
      a ??= keep(buffer(device, pattern, USAGE.COPY_SRC | USAGE.STORAGE));
      b ??= keep(buffer(device, copyBytes, USAGE.COPY_SRC | USAGE.STORAGE));
      const enc = device.createCommandEncoder();
      for (let r = 0; r < REPEAT; r++) enc.copyBufferToBuffer(a, 0, b, 0, copyBytes);
      device.queue.submit([enc.finish()]);
      await fence(device, b);
      copied ??= await readBack(device, b, copyBytes);
    },
    verify: () => maxAbsError(copied!, pattern),
    teardown: () => {
      a = b = null;
    },
  });

  const x = randomTensor(n);
  const tables = ropeTables(defaultInvFreq(cfg.base, s.rotaryDim), s.tokens, cfg.firstPosition);
  const dims = `${s.tokens}×${s.heads}×${s.headDim}`;
  let pipeline: { getBindGroupLayout(i: number): unknown } | null = null;
  ROPE_LAYOUTS.forEach((layout: RopeLayout, li) => {
    let bind: unknown = null,
      out: GpuBufferLike | null = null,
      result: Float32Array | null = null;
    const reference = applyRopeReference(x, s, layout, tables);
    const shape = dispatchShape(n, 64);
    cases.push({
      id: `rope-${layout}-webgpu`,
      label: `RoPE ${layout} ${dims}`,
      kind: 'rope',
      impl: 'WebGPU (WGSL)',
      backend: adapter,
      elements: n * REPEAT,
      bytes: (8 * n + 2 * 4 * s.tokens * (s.rotaryDim / 2)) * REPEAT,
      memcpyRef: 'memcpy-webgpu',
      run: async () => {
        if (!bind) {
          device ??= await open();
          pipeline ??= device.createComputePipeline({
            layout: 'auto',
            compute: { module: device.createShaderModule({ code: ROPE_WGSL }), entryPoint: 'main' },
          });
          out = keep(buffer(device, n * 4, USAGE.STORAGE | USAGE.COPY_SRC));
          const params = keep(buffer(device, new Uint32Array([s.tokens, s.heads, s.headDim, s.rotaryDim, li, n, shape.rowThreads, 0]), USAGE.UNIFORM));
          bind = device.createBindGroup({
            layout: pipeline.getBindGroupLayout(0),
            entries: [
              params,
              keep(buffer(device, x, USAGE.STORAGE)),
              keep(buffer(device, tables.cos, USAGE.STORAGE)),
              keep(buffer(device, tables.sin, USAGE.STORAGE)),
              out,
            ].map((buf, i) => ({ binding: i, resource: { buffer: buf } })),
          });
        }
        const enc = device.createCommandEncoder();
        for (let r = 0; r < REPEAT; r++) {
          const pass = enc.beginComputePass();
          pass.setPipeline(pipeline!);
          pass.setBindGroup(0, bind);
          pass.dispatchWorkgroups(shape.gx, shape.gy);
          pass.end();
        }
        device.queue.submit([enc.finish()]);
        await fence(device, out!);
        result ??= await readBack(device, out!, n * 4);
      },
      verify: () => maxAbsError(result!, reference),
      teardown: () => {
        bind = null;
      },
    });
  });

  // The b* engine's f_b screen: every base over all m < L in one dispatch, min per base.
  const bases = fbBasesFor(cfg);
  const d = s.rotaryDim;
  const L = cfg.fbLength;
  const chunk = chunkFor(bases.length, L);
  const chunks = Math.ceil(L / chunk);
  const freq = packFrequencies(bases.map((base) => thetas(base, d)));
  let screen: WgslFbScreen | null = null;
  let mins: Float64Array | null = null;
  const fbReference = fbMinDirect(bases, d, L);
  cases.push({
    id: 'fb-webgpu',
    label: `f_b(m) scan ${bases.length} bases × ${L} m`,
    kind: 'fb-scan',
    impl: 'WebGPU (WGSL screen)',
    backend: adapter,
    elements: bases.length * L,
    run: async () => {
      device ??= await open();
      screen ??= new WgslFbScreen(device);
      const m = await screen.minima({ freq, n: d / 2, bases: bases.length, count: L, chunk });
      mins = new Float64Array(bases.length).map((_, j) => {
        let v = Infinity;
        for (let c = 0; c < chunks; c++) v = Math.min(v, m[j * chunks + c]);
        return v;
      });
    },
    verify: () => maxAbsError(mins!, fbReference),
    teardown: () => {
      screen?.destroy();
      screen = null;
      for (const o of owned.splice(0)) o.destroy();
    },
  });
  return cases;
}
