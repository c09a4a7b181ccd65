/**
 * The kernel micro-benchmarks in this Node process (gpu.js default and CPU modes, and WebGPU
 * through the optional `webgpu` package when it finds an adapter), shared by
 * `rope-lens bench --kernels` and the extension's command, which must not import the CLI.
 */
import { cpus } from 'node:os';
import { BenchRun, runBenchmarks } from '../kernelBench/runner';
import { allCases, benchConfig, GpuChoice, KernelBenchConfig, SIZES } from '../kernelBench/cases';
import { probeGpu } from './gpuProbe';
import { describeAdapter, openWebGpu, webgpuPackageDir } from './webgpuLoad';
import { webgpuCases } from './webgpuBench';
import { webgpuDisabled } from './adapterProbe';

export interface NodeBenchOptions {
  size?: keyof typeof SIZES;
  headDim?: number;
  repeats?: number;
  warmup?: number;
  signal?: { aborted: boolean };
  /** Only the cases whose id or implementation contains this (e.g. 'webgpu'); the CPU memory copy always runs. */
  only?: string;
  onProgress?(done: number, total: number, label: string): void;
  /** Called between calls so an editor stays responsive and a cancel can arrive. */
  yieldToUi?(): Promise<void>;
}

/** gpu.js in this process: the default mode (what a user gets) and the explicit CPU mode. */
function nodeGpus(): { gpus: GpuChoice[]; destroy(): void; note: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { GPU } = require('gpu.js') as typeof import('gpu.js');
  const auto = new GPU();
  const cpu = new GPU({ mode: 'cpu' });
  const probe = probeGpu();
  const note = probe.available ? `GPU context: ${probe.kernel}` : `no GPU context (${probe.reason})`;
  return {
    gpus: [
      { label: 'gpu.js (default mode)', gpu: auto },
      { label: 'gpu.js (cpu mode)', gpu: cpu },
    ],
    destroy: () => {
      void auto.destroy();
      void cpu.destroy();
    },
    note,
  };
}

export async function runNodeKernelBench(o: NodeBenchOptions = {}): Promise<BenchRun> {
  const cfg: KernelBenchConfig = benchConfig(o.size ?? 'small', o.headDim ?? 128);
  const g = nodeGpus();
  const c = cpus();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const gpuVersion = (require('gpu.js/package.json') as { version: string }).version;
  const only = o.only?.toLowerCase();
  const wanted = (k: { id: string; impl: string }) => !only || k.id === 'memcpy' || `${k.id} ${k.impl}`.toLowerCase().includes(only);
  // The WebGPU rows run last: their device opens after every other case (see webgpuBench.ts). Whether
  // there is an adapter is asked first, in a throwaway worker-free probe of the package only.
  const pkg = webgpuDisabled() ? 'disabled by ROPE_LENS_WEBGPU=0' : webgpuPackageDir() ? '' : 'the optional package `webgpu` is not installed';
  const askedForWebgpu = !!only && ('webgpu'.includes(only) || only.includes('webgpu') || only === 'wgsl');
  const webgpuRows =
    !pkg && (!only || askedForWebgpu)
      ? webgpuCases(
          cfg,
          async () => {
            const w = await openWebGpu();
            if (!w.device) throw new Error(w.reason);
            adapter = w.info ? describeAdapter(w.info) : 'unknown adapter';
            // A software rasterizer (llvmpipe) times no GPU and takes seconds: its rows run only when asked for
            // (--only webgpu), as plumbing and accuracy. (These loops used to abort on llvmpipe: Dawn's instance
            // was collected under the device; webgpuLoad.ts now holds it.)
            if (w.info?.software && !askedForWebgpu) throw new Error(`not run on a software rasterizer (${adapter}) unless asked for: --only webgpu`);
            return w.device;
          },
          () => `WebGPU: ${adapter || 'no device'}`,
        )
      : [];
  let adapter = '';
  const cases = [...allCases(cfg, g.gpus).filter(wanted), ...webgpuRows.filter(wanted)];
  const env = () =>
    `Node ${process.version} on ${c[0]?.model ?? 'unknown CPU'} ×${c.length}; gpu.js ${gpuVersion}; ${g.note}; ${adapter ? `WebGPU: ${adapter}` : `no WebGPU (${pkg || 'no adapter'})`}`;
  try {
    const r = await runBenchmarks(cases, { warmup: o.warmup ?? 2, repeats: o.repeats ?? 7 }, '', {
      now: () => performance.now(),
      signal: o.signal,
      onProgress: o.onProgress,
      yieldToUi: o.yieldToUi,
    });
    return { ...r, environment: env() };
  } finally {
    // The WebGPU device stays open: openWebGpu() hands this thread's one device to the next run too.
    g.destroy();
  }
}
