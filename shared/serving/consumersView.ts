/**
 * The consumer table as people read it: cells as text, the cells where a consumer disagrees with
 * the file's meaning marked, as a plain-text table (`rope-lens consumers`) or Markdown (hovers).
 * The Inspector page draws the same cells (shared/inspector carries them as plain data).
 */
import type { ConsumerReading } from './consumer';
import { attentionFactorDiffers, intendedReading, misreadOf, rotaryDimDiffers } from './consumers';
import { grouped } from './common';
import { fmt } from '../core/format';

export const CONSUMER_COLUMNS = [
  'consumer',
  'accepts?',
  'base',
  'scaling',
  'factor',
  'attention factor',
  'derived max length',
  'windows',
  'rotary dims',
] as const;

export interface ConsumerCells {
  consumer: string;
  cells: string[];
  /** Column indexes whose value differs from the file's meaning (transformers 5's reading). */
  differs: number[];
  /** The error a refusing consumer raises, and notes (rope_parameters ignored, dynamic dropped). */
  detail: string[];
}

const ACCEPTS: Record<ConsumerReading['status'], string> = {
  reads: 'yes',
  refuses: 'REFUSES',
  'cannot-load': 'no (model type unknown)',
  'not-modelled': 'not modelled',
};

/** "64 of 128", "128"; "not verified" where the consumer's count for this model type is unknown. */
function rotaryCell(r: ConsumerReading): string {
  if (r.status === 'cannot-load' || r.status === 'not-modelled') return '—';
  if (r.rotaryDim === undefined) return 'not verified';
  return String(r.rotaryDim);
}

function num(n: number | null, f: (x: number) => string = fmt): string {
  return n === null ? '—' : f(n);
}

export function consumerCells(rows: readonly ConsumerReading[]): ConsumerCells[] {
  const intended = intendedReading(rows);
  return rows.map((r) => {
    const reads = r.status === 'reads';
    const base = reads ? `${num(r.base)}${r.baseFrom.startsWith('default') ? ' (default)' : ''}` : '—';
    const cells = [
      r.label,
      ACCEPTS[r.status],
      base,
      reads ? (r.scalingType ?? 'not verified') : '—',
      reads && r.scalingType !== null ? num(r.factor) : '—',
      reads ? num(r.attentionFactor, (x) => fmt(Number(x.toFixed(4)))) : '—',
      num(r.derivedMaxLen, grouped),
      r.windows,
      rotaryCell(r),
    ];
    if (reads && r.remoteCode) cells[1] = 'yes (remote code)';
    const diff = intended ? misreadOf(r, intended) : [];
    const differs: number[] = [];
    if (r.status === 'refuses') differs.push(1);
    if (diff.includes('base')) differs.push(2);
    if (diff.includes('scaling')) differs.push(3, 4);
    if (diff.includes('factor')) differs.push(4);
    if (attentionFactorDiffers(r, intended)) differs.push(5);
    if (rotaryDimDiffers(r)) differs.push(8);
    const detail = [...(r.error ? [r.error] : []), ...r.notes];
    return { consumer: r.label, cells, differs, detail };
  });
}

/** One line per disagreeing consumer: what it does differently. */
export function disagreementLines(rows: readonly ConsumerReading[]): string[] {
  return consumerCells(rows)
    .filter((c) => c.differs.length)
    .map((c) => `${c.consumer}: ${c.differs.map((i) => `${CONSUMER_COLUMNS[i]} ${c.cells[i]}`).join(', ')}${c.detail.length ? ` (${c.detail[0]})` : ''}`);
}

/** The closing line when no consumer disagrees: it claims only what the table shows. */
function sameLine(rows: readonly ConsumerReading[]): string {
  const reading = rows.filter((r) => r.status === 'reads');
  if (!reading.length) return 'No consumer in this table loads this model.';
  const dims = reading.some((r) => r.rotaryDim === undefined) ? ' (rotary dims verified only where shown)' : '';
  // With a scaling, the attention factor is part of what is read; claim agreement only where it was computed.
  const scaled = reading.some((r) => r.scalingType !== null && r.scalingType !== 'none');
  const factors = scaled && reading.some((r) => r.attentionFactor === null) ? ' (attention factors verified only where shown)' : '';
  return `Every consumer that loads this model reads the same base and scaling${factors} and rotates the same dimensions${dims}.`;
}

/** Facts about the file shown beside the table, never used to pick its reader. */
export interface FileFacts {
  /** The file's `transformers_version`: the release that saved it. */
  savedWith?: string;
}

/** "Saved by transformers 4.31.0.dev0": what wrote the file, said as that and no more. */
function savedLine(facts: FileFacts | undefined): string | undefined {
  return facts?.savedWith
    ? `The file says it was saved by transformers ${facts.savedWith}: what wrote it, not what will load it (the readers that count are the current releases and those the workspace pins or launches).`
    : undefined;
}

/** A fixed-width table; cells that differ from the file's meaning carry a `*`. */
export function consumersText(rows: readonly ConsumerReading[], facts?: FileFacts): string {
  const body = consumerCells(rows).map((c) => c.cells.map((v, i) => (c.differs.includes(i) ? `${v} *` : v)));
  const all = [[...CONSUMER_COLUMNS], ...body];
  const widths = CONSUMER_COLUMNS.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const lines = all.map(line);
  const dis = disagreementLines(rows);
  lines.push('', dis.length ? `* differs from the file's meaning (transformers 5.x; rotary dims: the model's own):\n  ${dis.join('\n  ')}` : sameLine(rows));
  const saved = savedLine(facts);
  if (saved) lines.push(saved);
  return lines.join('\n');
}

/** The same table in Markdown for a hover; differing cells in bold. */
export function consumersMarkdown(rows: readonly ConsumerReading[], facts?: FileFacts): string {
  if (!rows.length) return '';
  const cells = consumerCells(rows);
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = [
    '**How each consumer reads this file**',
    '',
    `| ${CONSUMER_COLUMNS.join(' | ')} |`,
    `|${CONSUMER_COLUMNS.map(() => '---').join('|')}|`,
    ...cells.map((c) => `| ${c.cells.map((v, i) => (c.differs.includes(i) ? `**${esc(v)}**` : esc(v))).join(' | ')} |`),
  ];
  const dis = disagreementLines(rows);
  if (dis.length) out.push('', ...dis.map((d) => `- ${esc(d)}`));
  const saved = savedLine(facts);
  if (saved) out.push('', esc(saved));
  return out.join('\n');
}
