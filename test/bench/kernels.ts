/**
 * Kernel micro-benchmarks in `npm run bench`: the same runner and cases as `rope-lens bench
 * --kernels` (medium size), reported as ratios measured in the same run: each kernel against the
 * plain TypeScript baseline and against a memory copy, plus its max error against float64.
 */
import { BenchReport } from './report';
import { runNodeKernelBench } from '../../server/cli/bench';

export async function runBench(report: BenchReport): Promise<void> {
  const run = await runNodeKernelBench({ size: 'medium', warmup: 2, repeats: 5 });
  const row = report.section('Kernel micro-benchmarks (Node; RoPE apply and f_b scan)');
  row({ name: 'environment', value: '', note: run.environment });
  row({ name: 'memory copy', value: `${run.memcpyGBs?.toFixed(2) ?? '–'} GB/s`, note: 'read + write, TypedArray.set' });
  const baseline = new Map<string, number>();
  for (const r of run.results) if (r.impl === 'TypeScript') baseline.set(r.label, r.medianMs);
  for (const r of run.results) {
    if (r.kind === 'memcpy') continue;
    const base = baseline.get(r.label);
    const vsTs = base && r.impl !== 'TypeScript' ? ` · ${(base / r.medianMs).toFixed(2)}× the TS baseline` : '';
    const gb = r.gbPerSec === null ? '' : ` · ${r.gbPerSec.toFixed(3)} GB/s (${r.ratioToMemcpy?.toFixed(3)}× memcpy)`;
    row({
      name: `${r.label} · ${r.impl}`.slice(0, 44),
      value: r.error ? 'error' : `${r.medianMs.toFixed(2)} ms ±${r.spreadPct.toFixed(0)}%`,
      note: r.error ?? `${r.backend} · ${(r.elementsPerSec / 1e6).toFixed(1)} M elem/s${gb}${vsTs} · max err ${r.maxAbsError?.toExponential(2)}`,
    });
  }
}
