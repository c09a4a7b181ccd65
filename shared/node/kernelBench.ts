/**
 * The kernel micro-benchmarks in this Node process (gpu.js default and CPU modes, and WebGPU
 * through the optional `webgpu` package when it finds an adapter), shared by
 * `rope-lens bench --kernels` and the extension's command, which must not import the CLI.
 */
import { cpus } from 'node:os';
import { BenchRun, runBenchmarks } from '../kernelBench/runner';
import { allCases, benchConfig, GpuChoice, KernelBenchConfig, SIZES } from '../kernelBench/cases';
import { probeGpu } from './gpuProbe';
import { describeAdapter, openWebGpu } from './webgpuLoad';
import { webgpuCases } from './webgpuBench';
import { webgpuDisabled } from './gpuBridge';

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
    gpus: [{ label: 'gpu.js (default mode)', gpu: auto }, { label: 'gpu.js (cpu mode)', gpu: cpu }],
    destroy: () => { void auto.destroy(); void cpu.destroy(); },
    note,
  };
}

export async function runNodeKernelBench(o: NodeBenchOptions = {}): Promise<BenchRun> {
  const cfg: KernelBenchConfig = benchConfig(o.size ?? 'small', o.headDim ?? 128);
  const g = nodeGpus();
  const c = cpus();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const gpuVersion = (require('gpu.js/package.json') as { version: string }).version;
  const w = webgpuDisabled() ? { device: null, info: null, reason: 'disabled by ROPE_LENS_WEBGPU=0' } : await openWebGpu();
  const adapter = w.info ? describeAdapter(w.info) : '';
  const webgpu = w.device ? `WebGPU: ${adapter}` : `no WebGPU (${w.reason})`;
  const env = `Node ${process.version} on ${c[0]?.model ?? 'unknown CPU'} ×${c.length}; gpu.js ${gpuVersion}; ${g.note}; ${webgpu}`;
  const only = o.only?.toLowerCase();
  const cases = [...allCases(cfg, g.gpus), ...(w.device ? webgpuCases(cfg, w.device, adapter) : [])]
    .filter((k) => !only || k.id === 'memcpy' || `${k.id} ${k.impl}`.toLowerCase().includes(only));
  try {
    return await runBenchmarks(cases, { warmup: o.warmup ?? 2, repeats: o.repeats ?? 7 }, env, {
      now: () => performance.now(),
      signal: o.signal,
      onProgress: o.onProgress,
      yieldToUi: o.yieldToUi,
    });
  } finally {
    g.destroy();
  }
}
