/**
 * `rope-lens bench --kernels [--size small|medium|large] [--head-dim D] [--repeats N] [--warmup N] [--only TEXT] [--json]`
 * (--only webgpu: just the WebGPU rows, beside the CPU memory copy)
 * Kernel micro-benchmarks in Node: RoPE apply (rotate-half, interleaved) and the f_b(m) scan, as
 * gpu.js kernels beside plain TypeScript, with the backend that actually ran (gpu.js falls back
 * silently: without a headless-gl context its "gpu" mode runs WebAssemblyKernel), throughput, the
 * ratio to a measured memory copy, and each kernel's max error against a float64 reference.
 */
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { SIZES } from '../../shared/kernelBench/cases';
import { formatRun } from '../../shared/kernelBench/format';
import { runNodeKernelBench } from '../../shared/node/kernelBench';
export { runNodeKernelBench };

const USAGE = 'usage: rope-lens bench --kernels [--size small|medium|large] [--head-dim D] [--repeats N] [--warmup N] [--only TEXT] [--json]';

function positiveInt(v: string | undefined, what: string, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${what} must be an integer in [1, ${max}], got '${v}'`);
  return n;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs(
    {
      args: argv,
      options: {
        kernels: { type: 'boolean' },
        size: { type: 'string' },
        'head-dim': { type: 'string' },
        repeats: { type: 'string' },
        warmup: { type: 'string' },
        only: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    USAGE,
  );
  const v = parsed.values;
  if (v.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (!v.kernels) throw new UsageError(`nothing to run: give --kernels\n${USAGE}`);
  if (v.size !== undefined && !(v.size in SIZES)) throw new UsageError(`--size must be small, medium or large, got '${v.size}'`);
  const headDim = positiveInt(v['head-dim'], '--head-dim', 1024);
  if (headDim !== undefined && headDim % 2 !== 0) throw new UsageError(`--head-dim must be even, got ${headDim}`);
  const result = await runNodeKernelBench({
    size: v.size as keyof typeof SIZES | undefined,
    headDim,
    repeats: positiveInt(v.repeats, '--repeats', 1000),
    warmup: positiveInt(v.warmup, '--warmup', 100),
    only: v.only,
    onProgress: v.json ? undefined : (done, total, label) => io.err(`[${done}/${total}] ${label}`),
  });
  io.out(v.json ? JSON.stringify(result, null, 2) : formatRun(result));
  return EXIT_OK;
}
