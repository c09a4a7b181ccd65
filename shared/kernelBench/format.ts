/**
 * Text table of a benchmark run (`rope-lens bench --kernels`). It fits a 100-column terminal: rows
 * are grouped under their kernel, long cells (adapter names, errors) become numbered notes below the
 * table, and the rest of each result (samples, relative error, bytes) is in `--json`.
 */
import type { BenchRun, CaseResult } from './runner';
import { significant } from '../core/format';

const num = significant;

/** The widest line formatRun prints. */
export const TABLE_WIDTH = 100;

interface Column {
  head: string;
  /** Widest cell shown in place; a longer one is cut at a word and sent to a note. */
  max: number;
  right?: boolean;
}

const COLUMNS: Column[] = [
  { head: 'implementation', max: 21 },
  { head: 'backend that ran', max: 22 },
  { head: 'median (IQR)', max: 13 },
  { head: 'M elem/s', max: 8, right: true },
  { head: 'GB/s', max: 6, right: true },
  { head: 'vs copy', max: 7, right: true },
  { head: 'max |err|', max: 9, right: true },
];
const INDENT = '  ';
const GAP = '  ';

/** One result's cells, in COLUMNS order (a failed case says so in the median column). */
export function resultRow(r: CaseResult): string[] {
  const failed = r.error !== undefined;
  return [
    r.impl,
    r.backend,
    failed ? `error: ${r.error}` : `${num(r.medianMs)} ms ±${num(r.spreadPct, 2)}%`,
    failed ? '–' : num(r.elementsPerSec / 1e6),
    r.gbPerSec === null || failed ? '–' : num(r.gbPerSec),
    r.ratioToMemcpy === null || failed ? '–' : `${num(r.ratioToMemcpy, 2)}×`,
    r.maxAbsError === null ? '–' : num(r.maxAbsError, 2),
  ];
}

/** Words of `text` on lines of at most `width` columns, lines after the first indented by `hang`; a word longer than a line is split. */
export function wrap(text: string, width: number, hang = ''): string[] {
  const lines: string[] = [];
  let line = '';
  const room = () => width - (lines.length ? hang.length : 0);
  const push = (l: string) => lines.push((lines.length ? hang : '') + l);
  for (let word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room()) {
      push(line);
      line = '';
    }
    while (word.length > room()) {
      push(word.slice(0, room()));
      word = word.slice(room());
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) push(line);
  return lines;
}

/** Numbered notes for cells too long for their column; the same text shares one number. */
class Notes {
  private readonly texts: string[] = [];

  /** `cell` itself when it fits in `max`, else its leading words (as many as fit) and a note mark. */
  fit(cell: string, max: number): string {
    if (cell.length <= max) return cell;
    let n = this.texts.indexOf(cell) + 1;
    if (n === 0) n = this.texts.push(cell);
    const mark = ` [${n}]`;
    let head = '';
    for (const word of cell.replace(/[:(]/g, ' ').split(/\s+/).filter(Boolean)) {
      const next = head ? `${head} ${word}` : word;
      if (next.length + 1 + mark.length > max) break;
      head = next;
    }
    return head ? `${head}…${mark}` : mark.trim();
  }

  lines(): string[] {
    return this.texts.flatMap((t, i) => wrap(`[${i + 1}] ${t}`, TABLE_WIDTH, '    '));
  }
}

export function formatRun(run: BenchRun): string {
  const notes = new Notes();
  const groups = new Map<string, string[][]>();
  for (const r of run.results) {
    const cells = resultRow(r).map((c, i) => notes.fit(c, COLUMNS[i].max));
    groups.set(r.label, [...(groups.get(r.label) ?? []), cells]);
  }
  const all = [...groups.values()].flat();
  const widths = COLUMNS.map((c, i) => Math.max(c.head.length, ...all.map((cells) => cells[i].length)));
  const line = (cells: string[]) => (INDENT + cells.map((c, i) => (COLUMNS[i].right ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(GAP)).trimEnd();
  const table: string[] = [line(COLUMNS.map((c) => c.head)), line(widths.map((w) => '-'.repeat(w)))];
  for (const [label, rows] of groups) table.push(...wrap(label, TABLE_WIDTH), ...rows.map(line));
  const settings = `warm-up ${run.settings.warmup}, repeats ${run.settings.repeats}; memory copy ${num(run.memcpyGBs)} GB/s (read + write); total ${num(run.totalMs / 1000)} s${run.cancelled ? ' (cancelled)' : ''}`;
  const noteLines = notes.lines();
  return [
    ...wrap(run.environment, TABLE_WIDTH),
    ...wrap(settings, TABLE_WIDTH),
    '',
    ...table,
    '',
    ...wrap('max |err| against a float64 reference; samples, relative errors and full names in --json.', TABLE_WIDTH),
    ...(noteLines.length ? ['', ...noteLines] : []),
  ].join('\n');
}
