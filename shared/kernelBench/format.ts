/** Text table of a benchmark run (CLI and `npm run bench`). */
import type { BenchRun, CaseResult } from './runner';
import { significant } from '../core/format';

const num = significant;

export function resultRow(r: CaseResult): string[] {
  return [
    r.label,
    r.impl,
    r.backend,
    r.error ? `error: ${r.error}` : `${num(r.medianMs)} ms ±${num(r.spreadPct, 2)}%`,
    num(r.elementsPerSec / 1e6) + ' M/s',
    r.gbPerSec === null ? '– (compute-bound)' : num(r.gbPerSec) + ' GB/s',
    r.ratioToMemcpy === null ? '–' : num(r.ratioToMemcpy, 2) + '×',
    r.maxAbsError === null ? '–' : `${num(r.maxAbsError, 2)} (rel ${num(r.relError, 2)})`,
  ];
}

export function formatRun(run: BenchRun): string {
  const head = ['kernel', 'implementation', 'backend that ran', 'median (IQR)', 'elements/s', 'throughput', 'vs memcpy', 'max |err| vs float64'];
  const rows = [head, ...run.results.map(resultRow)];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [
    `${run.environment}`,
    `warm-up ${run.settings.warmup}, repeats ${run.settings.repeats}; memory copy ${num(run.memcpyGBs)} GB/s (read + write); total ${num(run.totalMs / 1000)} s${run.cancelled ? ' (cancelled)' : ''}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.slice(1).map(line),
  ].join('\n');
}
