/**
 * `rope-lens bench --kernels [--size small|medium|large] [--head-dim D] [--repeats N] [--warmup N] [--json]`
 * Kernel micro-benchmarks in Node: RoPE apply (rotate-half, interleaved) and the f_b(m) scan, as
 * gpu.js kernels beside plain TypeScript, with the backend that actually ran (gpu.js falls back
 * silently: without a headless-gl context its "gpu" mode runs WebAssemblyKernel), throughput, the
 * ratio to a measured memory copy, and each kernel's max error against a float64 reference.
 */
import { cpus } from 'node:os';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { BenchRun, runBenchmarks } from '../../shared/kernelBench/runner';
import { allCases, benchConfig, GpuChoice, KernelBenchConfig, SIZES } from '../../shared/kernelBench/cases';
import { formatRun } from '../../shared/kernelBench/format';
import { probeGpu } from '../../shared/node/gpuProbe';

const USAGE = 'usage: rope-lens bench --kernels [--size small|medium|large] [--head-dim D] [--repeats N] [--warmup N] [--json]';

export interface NodeBenchOptions {
  size?: keyof typeof SIZES;
  headDim?: number;
  repeats?: number;
  warmup?: number;
  signal?: { aborted: boolean };
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
  const env = `Node ${process.version} on ${c[0]?.model ?? 'unknown CPU'} ×${c.length}; gpu.js ${gpuVersion}; ${g.note}`;
  try {
    return await runBenchmarks(allCases(cfg, g.gpus), { warmup: o.warmup ?? 2, repeats: o.repeats ?? 7 }, env, {
      now: () => performance.now(),
      signal: o.signal,
      onProgress: o.onProgress,
      yieldToUi: o.yieldToUi,
    });
  } finally {
    g.destroy();
  }
}

function positiveInt(v: string | undefined, what: string, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${what} must be an integer in [1, ${max}], got '${v}'`);
  return n;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs({
    args: argv,
    options: {
      kernels: { type: 'boolean' },
      size: { type: 'string' },
      'head-dim': { type: 'string' },
      repeats: { type: 'string' },
      warmup: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }, USAGE);
  const v = parsed.values;
  if (v.help) { io.out(USAGE); return EXIT_OK; }
  if (!v.kernels) throw new UsageError(`nothing to run: give --kernels\n${USAGE}`);
  if (v.size !== undefined && !(v.size in SIZES)) throw new UsageError(`--size must be small, medium or large, got '${v.size}'`);
  const headDim = positiveInt(v['head-dim'], '--head-dim', 1024);
  if (headDim !== undefined && headDim % 2 !== 0) throw new UsageError(`--head-dim must be even, got ${headDim}`);
  const result = await runNodeKernelBench({
    size: v.size as keyof typeof SIZES | undefined,
    headDim,
    repeats: positiveInt(v.repeats, '--repeats', 1000),
    warmup: positiveInt(v.warmup, '--warmup', 100),
    onProgress: v.json ? undefined : (done, total, label) => io.err(`[${done}/${total}] ${label}`),
  });
  io.out(v.json ? JSON.stringify(result, null, 2) : formatRun(result));
  return EXIT_OK;
}
