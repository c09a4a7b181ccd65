/**
 * Takes rows proven elsewhere (the device job's rows.jsonl, test/device/table.ts) into the proven
 * table. Nothing is trusted for having been computed: each fact is kept only if it is of the current
 * proof code, on the ladder, for a listed dim, consistent with its neighbours (b* and the robust base
 * never fall with the length; the robust base's ±10% stays above b*), and passes float64 checks cheap
 * enough for every row (b* valid and a base 1e-6 below it invalid; a proven threshold valid, its
 * invalid base invalid). A fact the table already holds must be the same, so a rerun doubles as a
 * determinism check. Full neighbourhood proofs of a random sample are the caller's (they cost minutes
 * at millions of tokens; see test/support/provenTable.ts --merge).
 */
import { lmax } from '../bstar/index';
import { LADDER } from '../bstar/table/ladder';
import { TABLE_DIMS } from '../bstar/table/dims';
import type { ProvenTableFile, TableRow } from '../bstar/table/rows';
import { roundUpNice } from '../fixes/chooseBase';

type Kind = 'bstar' | 'robust' | 'threshold';
const KINDS: readonly Kind[] = ['bstar', 'robust', 'threshold'];

export interface MergeReport {
  /** Facts taken in, as "L/d kind". */
  added: string[];
  /** Facts the table already held, identical. */
  same: string[];
  /** Facts refused, with why. */
  rejected: { at: string; reason: string }[];
  /** Lines of the input that were not rows. */
  unreadable: number;
}

/** The rows of a rows.jsonl (`{ task, row }` or a bare row a line); lines that are not rows are counted. */
export function readRowLines(text: string): { rows: TableRow[]; unreadable: number } {
  const rows: TableRow[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const o = JSON.parse(line) as { row?: TableRow } & Partial<TableRow>;
      const r = (o.row ?? o) as TableRow;
      if (Number.isSafeInteger(r.length) && Number.isSafeInteger(r.dim)) rows.push(r);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { rows, unreadable };
}

function key(kind: Kind, r: TableRow): string | undefined {
  if (kind === 'bstar') return r.bstar && String(r.bstar.value);
  if (kind === 'robust') return r.robust && String(r.robust.base);
  return r.threshold && `${r.threshold.validAbove}/${r.threshold.invalidAt}/${r.threshold.located}`;
}

/** The nearest rung of `dim` below (dir −1) or above (+1) `length` holding a current fact of `kind`. */
function neighbour(rows: Map<string, TableRow>, dim: number, length: number, dir: -1 | 1, kind: Kind, code: string): TableRow | undefined {
  const i = LADDER.indexOf(length);
  for (let j = i + dir; j >= 0 && j < LADDER.length; j += dir) {
    const r = rows.get(`${LADDER[j]}/${dim}`);
    if (r?.[kind]?.codeVersion === code) return r;
  }
  return undefined;
}

/** Why this fact of `r` cannot be kept (undefined: it can), judged against the table as merged so far. */
function refusal(kind: Kind, r: TableRow, rows: Map<string, TableRow>, code: string): string | undefined {
  const f = r[kind]!;
  if (f.codeVersion !== code) return `made by proof code ${f.codeVersion}, not ${code}`;
  if (!Number.isFinite(f.ms) || f.ms < 0 || typeof f.backend !== 'string') return 'its provenance is malformed';
  const { length: L, dim: d } = r;
  const below = neighbour(rows, d, L, -1, kind, code);
  const above = neighbour(rows, d, L, 1, kind, code);
  const own = rows.get(`${L}/${d}`);
  const bstar = own?.bstar?.codeVersion === code ? own.bstar.value : undefined;
  if (kind === 'bstar') {
    const b = r.bstar!.value;
    if (!(b > 1 && Number.isFinite(b))) return `b* ${b} is not a base`;
    if (below && b < below.bstar!.value * (1 - 1e-12)) return `b* ${b} is below b* ${below.bstar!.value} of the shorter rung ${below.length}`;
    if (above && b > above.bstar!.value * (1 + 1e-12)) return `b* ${b} is above b* ${above.bstar!.value} of the longer rung ${above.length}`;
    const at = lmax(b * (1 + 1e-12), d, L);
    if (at !== null) return `b* ${b} is invalid: f < 0 at m = ${at}`;
    if (lmax(b * (1 - 1e-6), d, L) === null) return `a base 1e-6 below b* ${b} is valid: not the smallest`;
  } else if (kind === 'robust') {
    const c = r.robust!.base;
    if (!(c > 1 && Number.isFinite(c)) || roundUpNice(c) !== c) return `robust base ${c} is not a round base`;
    if (bstar !== undefined && 0.9 * c < bstar) return `robust base ${c}: its ±10% reaches below b* ${bstar}`;
    if (below && c < below.robust!.base) return `robust base ${c} is below ${below.robust!.base} of the shorter rung ${below.length}`;
    if (above && c > above.robust!.base) return `robust base ${c} is above ${above.robust!.base} of the longer rung ${above.length}`;
    const at = lmax(c, d, L);
    if (at !== null) return `robust base ${c} is itself invalid at m = ${at}`;
  } else {
    const t = r.threshold!;
    if (bstar !== undefined && t.validAbove < bstar) return `threshold ${t.validAbove} is below b* ${bstar}`;
    const at = lmax(t.validAbove, d, L);
    if (at !== null) return `threshold ${t.validAbove} is itself invalid at m = ${at}`;
    if (t.located && lmax(t.invalidAt, d, L) === null) return `its invalid base ${t.invalidAt} is valid`;
  }
  return undefined;
}

/**
 * Merges `incoming` into `table` (in place), shortest rung first within each dim so that each row is
 * judged against the rows below it. Facts already present and current must be identical.
 */
export function mergeRows(table: ProvenTableFile, incoming: readonly TableRow[], code: string): MergeReport {
  const report: MergeReport = { added: [], same: [], rejected: [], unreadable: 0 };
  const rows = new Map<string, TableRow>();
  for (const r of table.rows) rows.set(`${r.length}/${r.dim}`, r);
  const sorted = incoming.slice().sort((a, b) => a.dim - b.dim || a.length - b.length);
  for (const r of sorted) {
    const at = `${r.length}/${r.dim}`;
    if (!LADDER.includes(r.length) || !TABLE_DIMS.includes(r.dim)) {
      report.rejected.push({ at, reason: 'not a rung of the ladder for a listed dim' });
      continue;
    }
    let row = rows.get(at);
    for (const kind of KINDS) {
      if (!r[kind]) continue;
      const here = `${at} ${kind}`;
      const held = row?.[kind];
      if (held?.codeVersion === code) {
        if (key(kind, row!) === key(kind, r)) report.same.push(here);
        else report.rejected.push({ at: here, reason: `the table holds ${key(kind, row!)}, the row says ${key(kind, r)}` });
        continue;
      }
      const why = kind !== 'bstar' && r.bstar && report.rejected.some((x) => x.at === `${at} bstar`) ? 'its b* was refused' : refusal(kind, r, rows, code);
      if (why) {
        report.rejected.push({ at: here, reason: why });
        continue;
      }
      if (!row) {
        row = { length: r.length, dim: r.dim };
        rows.set(at, row);
        table.rows.push(row);
      }
      (row as Record<Kind, unknown>)[kind] = r[kind];
      report.added.push(here);
    }
  }
  return report;
}
