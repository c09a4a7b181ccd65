/**
 * The benchmark cases: RoPE application in both layouts (gpu.js kernel vs plain TypeScript) and
 * the f_b(m) scan (gpu.js screen kernel vs the b* engine's float64 TypeScript scan), each checked
 * against a float64 reference. Shared by `rope-lens bench --kernels`, `npm run bench` and the
 * webview; the caller supplies the gpu.js instance(s) it has.
 */
import { RopeError } from '../core/errors';
import { defaultInvFreq } from '../rope/invFreq';
import { BLOCK, evalBlock } from '../rope/fb';
import {
  GpuLike,
  RopeLayout,
  RopeShape,
  ROPE_LAYOUTS,
  RopeKernel,
  applyRopeReference,
  applyRopeTs,
  checkShape,
  createRopeKernel,
  elementsOf,
  maxAbsError,
  randomTensor,
  ropeTables,
} from '../gpu/ropeKernels';
import { BenchCase, memcpyCase } from './runner';
import { createFbScreen } from '../gpu/fbKernel';
import type { GPU } from 'gpu.js';

export interface KernelBenchConfig {
  shape: RopeShape;
  base: number;
  /** Position of the first token (large offsets show float32 angle error in kernels that form angles). */
  firstPosition: number;
  /** f_b scan: m ∈ [0, fbLength) for fbBases log-spaced bases. */
  fbLength: number;
  fbBases: number;
}

export const SIZES: Record<'small' | 'medium' | 'large', Pick<RopeShape, 'tokens' | 'heads'> & { fbLength: number; fbBases: number }> = {
  small: { tokens: 512, heads: 8, fbLength: 8192, fbBases: 8 },
  medium: { tokens: 2048, heads: 16, fbLength: 32768, fbBases: 16 },
  // 4096 × 32 × 128 = 2^24 elements: gpu.js's exact-index limit (MAX_ROPE_ELEMENTS).
  large: { tokens: 4096, heads: 32, fbLength: 131072, fbBases: 16 },
};

export function benchConfig(size: keyof typeof SIZES = 'small', headDim = 128): KernelBenchConfig {
  const s = SIZES[size];
  if (!s) throw new RopeError('invalid-parameter', `size must be small, medium or large, got ${String(size)}`);
  return {
    shape: checkShape({ tokens: s.tokens, heads: s.heads, headDim, rotaryDim: headDim }),
    base: 500000,
    firstPosition: 0,
    fbLength: s.fbLength,
    fbBases: s.fbBases,
  };
}

/** A gpu.js instance to benchmark, with the name shown in results (e.g. "gpu.js (auto)"). */
export interface GpuChoice {
  label: string;
  gpu: GpuLike;
}

function ropeBytes(s: RopeShape): number {
  // read x, write out, read cos and sin tables
  return 8 * elementsOf(s) + 2 * 4 * s.tokens * (s.rotaryDim / 2);
}

export function ropeCases(cfg: KernelBenchConfig, gpus: GpuChoice[]): BenchCase[] {
  const s = cfg.shape;
  const n = elementsOf(s);
  const x = randomTensor(n);
  const tables = ropeTables(defaultInvFreq(cfg.base, s.rotaryDim), s.tokens, cfg.firstPosition);
  const refs = new Map<RopeLayout, Float64Array>();
  const ref = (l: RopeLayout) => {
    let r = refs.get(l);
    if (!r) {
      r = applyRopeReference(x, s, l, tables);
      refs.set(l, r);
    }
    return r;
  };
  const dims = `${s.tokens}×${s.heads}×${s.headDim}`;
  const cases: BenchCase[] = [];
  for (const layout of ROPE_LAYOUTS) {
    const out = new Float32Array(n);
    cases.push({
      id: `rope-${layout}-ts`,
      label: `RoPE ${layout} ${dims}`,
      kind: 'rope',
      impl: 'TypeScript',
      backend: () => 'JS loop (float32 data)',
      elements: n,
      bytes: ropeBytes(s),
      run: () => {
        applyRopeTs(x, s, layout, tables, out);
      },
      verify: () => maxAbsError(out, ref(layout)),
    });
    for (const g of gpus) {
      let k: RopeKernel | undefined;
      const gout = new Float32Array(n);
      cases.push({
        id: `rope-${layout}-${g.label}`,
        label: `RoPE ${layout} ${dims}`,
        kind: 'rope',
        impl: g.label,
        backend: () => k?.backend() ?? 'not created',
        elements: n,
        bytes: ropeBytes(s),
        run: () => {
          k ??= createRopeKernel(g.gpu, s, layout);
          k.run(x, tables, gout);
        },
        verify: () => maxAbsError(gout, ref(layout)),
        teardown: () => {
          k?.destroy();
          k = undefined;
        },
      });
    }
  }
  return cases;
}

/** Log-spaced bases around the regime where f_b(m) turns negative within the length. */
export function fbBasesFor(cfg: KernelBenchConfig): number[] {
  const lo = cfg.fbLength,
    hi = cfg.fbLength * 1000;
  return Array.from({ length: cfg.fbBases }, (_, i) => lo * Math.pow(hi / lo, cfg.fbBases === 1 ? 0 : i / (cfg.fbBases - 1)));
}

/** float64 min over m < L of f_b(m) per base, with the b* engine's block scan (the TypeScript baseline). */
export function fbMinReference(bases: number[], headDim: number, length: number): Float64Array {
  const out = new Float64Array(bases.length);
  const buf = new Float64Array(BLOCK);
  bases.forEach((b, j) => {
    const theta = defaultInvFreq(b, headDim);
    let mn = Infinity;
    for (let m0 = 0; m0 < length; m0 += BLOCK) {
      const cnt = Math.min(BLOCK, length - m0);
      evalBlock(theta, m0, cnt, buf);
      for (let k = 0; k < cnt; k++) if (buf[k] < mn) mn = buf[k];
    }
    out[j] = mn;
  });
  return out;
}

/** min over m < L of f_b(m) by direct cosines in float64: the reference both scans are checked against. */
export function fbMinDirect(bases: number[], headDim: number, length: number): Float64Array {
  const out = new Float64Array(bases.length);
  bases.forEach((b, j) => {
    const theta = defaultInvFreq(b, headDim);
    let mn = Infinity;
    for (let m = 0; m < length; m++) {
      let f = 0;
      for (let i = 0; i < theta.length; i++) f += Math.cos(m * theta[i]);
      if (f < mn) mn = f;
    }
    out[j] = mn;
  });
  return out;
}

/** An f_b(m) scan implementation to time: min over m < L per base. */
export interface FbScan {
  label: string;
  /** min_m f_b(m) for each base (float32 when computed on the GPU). */
  minPerBase(bases: number[], headDim: number, length: number): Float32Array | Float64Array | number[];
  backend(): string;
  destroy?(): void;
}

/**
 * The b* engine's gpu.js screen (shared/gpu/fbKernel) as a benchmark case: one call screens every
 * base over all m < L and re-checks flagged chunks in float64, as the engine uses it; the error is
 * that of its raw float32 chunk minima.
 */
export function gpuFbScan(label: string, gpu: GpuLike): FbScan {
  const screens = new Map<number, ReturnType<typeof createFbScreen>>();
  let last: ReturnType<typeof createFbScreen> | undefined;
  return {
    label,
    minPerBase(bases, headDim, length) {
      let sc = screens.get(headDim);
      if (!sc) {
        sc = createFbScreen(gpu as unknown as GPU, headDim);
        screens.set(headDim, sc);
      }
      last = sc;
      sc.screen(bases, length);
      return sc.lastMinima().minima.map((row) => {
        let mn = Infinity;
        for (let c = 0; c < row.length; c++) if (row[c] < mn) mn = row[c];
        return mn;
      });
    },
    backend: () => last?.kernelClass() ?? 'not run yet',
    destroy: () => {
      for (const s of screens.values()) s.destroy();
      screens.clear();
    },
  };
}

export function fbCases(cfg: KernelBenchConfig, screens: FbScan[]): BenchCase[] {
  const bases = fbBasesFor(cfg);
  const d = cfg.shape.rotaryDim;
  const L = cfg.fbLength;
  const elements = bases.length * L;
  let reference: Float64Array | undefined;
  const ref = () => (reference ??= fbMinDirect(bases, d, L));
  const label = `f_b(m) scan ${bases.length} bases × ${L} m`;
  const cases: BenchCase[] = [];
  let tsOut: Float64Array | undefined;
  cases.push({
    id: 'fb-ts',
    label,
    kind: 'fb-scan',
    impl: 'TypeScript',
    backend: () => 'float64 block recurrence (b* engine)',
    elements,
    run: () => {
      tsOut = fbMinReference(bases, d, L);
    },
    verify: () => maxAbsError(tsOut!, ref()),
  });
  for (const sc of screens) {
    let out: ArrayLike<number> | undefined;
    cases.push({
      id: `fb-${sc.label}`,
      label,
      kind: 'fb-scan',
      impl: sc.label,
      backend: () => sc.backend(),
      elements,
      run: () => {
        out = sc.minPerBase(bases, d, L);
      },
      verify: () => maxAbsError(out!, ref()),
      teardown: () => sc.destroy?.(),
    });
  }
  return cases;
}

/** Every case for the gpu.js instances given: memcpy, RoPE in both layouts, the f_b scan. */
export function allCases(cfg: KernelBenchConfig, gpus: GpuChoice[]): BenchCase[] {
  return [
    memcpyCase(elementsOf(cfg.shape)),
    ...ropeCases(cfg, gpus),
    ...fbCases(
      cfg,
      gpus.map((g) => gpuFbScan(g.label, g.gpu)),
    ),
  ];
}
