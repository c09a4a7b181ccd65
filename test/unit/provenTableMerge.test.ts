/**
 * Taking rows proven elsewhere into the proven table (shared/node/provenTableMerge.ts): rows the table
 * really holds are taken back exactly, and every kind of bad row is refused with its reason.
 */
import { strict as assert } from 'node:assert';
import { mergeRows, readRowLines } from '../../shared/node/provenTableMerge';
import { PROOF_CODE_VERSION } from '../../shared/bstar/table/codeVersion';
import type { ProvenTableFile, TableRow } from '../../shared/bstar/table/rows';
import shipped from '../../shared/bstar/table/proven.json';

const copy = (): ProvenTableFile => JSON.parse(JSON.stringify(shipped)) as ProvenTableFile;
const DIM = 32;
const TAKEN = [2435, 2896, 3444, 4096];

/** The shipped table without d = 32's rows at TAKEN, and those rows. */
function split(): { table: ProvenTableFile; rows: TableRow[] } {
  const table = copy();
  const rows = table.rows.filter((r) => r.dim === DIM && TAKEN.includes(r.length));
  table.rows = table.rows.filter((r) => !rows.includes(r));
  return { table, rows };
}

describe('merging rows proven elsewhere into the proven table', function () {
  this.timeout(60_000);

  it('takes genuine rows back exactly, and a rerun finds every fact already held', () => {
    const { table, rows } = split();
    const report = mergeRows(table, rows.slice().reverse(), PROOF_CODE_VERSION);
    assert.deepEqual(report.rejected, []);
    assert.equal(report.added.length, TAKEN.length * 3);
    const sort = (t: ProvenTableFile) => t.rows.slice().sort((a, b) => a.dim - b.dim || a.length - b.length);
    assert.deepEqual(sort(table), sort(copy()));
    const again = mergeRows(table, rows, PROOF_CODE_VERSION);
    assert.equal(again.added.length, 0);
    assert.equal(again.same.length, TAKEN.length * 3);
  });

  it('refuses facts of other code, wrong b*, bad robust bases, and rows off the ladder', () => {
    const cases: [string, (r: TableRow) => TableRow, RegExp][] = [
      ['other code', (r) => ({ ...r, bstar: { ...r.bstar!, codeVersion: '000000000000' } }), /proof code 000000000000/],
      ['b* raised', (r) => ({ ...r, bstar: { ...r.bstar!, value: r.bstar!.value * 1.02 } }), /invalid|not the smallest|above b\*/],
      ['b* lowered', (r) => ({ ...r, bstar: { ...r.bstar!, value: r.bstar!.value * 0.98 } }), /invalid|below b\*/],
      ['robust not round', (r) => ({ ...r, robust: { ...r.robust!, base: r.robust!.base + 1 } }), /not a round base/],
      ['robust too low', (r) => ({ ...r, robust: { ...r.robust!, base: 10_000 } }), /below b\*|below .* of the shorter rung/],
      ['threshold invalid', (r) => ({ ...r, threshold: { ...r.threshold!, validAbove: r.threshold!.invalidAt } }), /itself invalid/],
      ['off the ladder', (r) => ({ ...r, length: r.length + 1 }), /not a rung/],
    ];
    for (const [what, edit, reason] of cases) {
      const { table, rows } = split();
      const bad = edit(rows[1]);
      const report = mergeRows(table, [bad], PROOF_CODE_VERSION);
      assert.ok(report.rejected.length > 0, `${what}: nothing refused`);
      assert.ok(
        report.rejected.some((x) => reason.test(x.reason)),
        `${what}: ${JSON.stringify(report.rejected)}`,
      );
      assert.ok(!report.added.some((a) => report.rejected.some((x) => x.at === a)));
    }
  });

  it('refuses a fact that differs from one the table holds, and a robust base whose row lost its b*', () => {
    const table = copy();
    const held = table.rows.find((r) => r.dim === DIM && r.length === 4096)!;
    const report = mergeRows(table, [{ ...held, robust: { ...held.robust!, base: held.robust!.base * 2 } }], PROOF_CODE_VERSION);
    assert.equal(report.rejected.length, 1);
    assert.match(report.rejected[0].reason, /the table holds/);
    const { table: t2, rows } = split();
    const r = rows[0];
    const r2 = mergeRows(t2, [{ ...r, bstar: { ...r.bstar!, value: r.bstar!.value * 0.5 } }], PROOF_CODE_VERSION);
    assert.ok(
      r2.rejected.some((x) => x.at.endsWith('robust') && /b\* was refused/.test(x.reason)),
      JSON.stringify(r2.rejected),
    );
  });

  it('reads rows.jsonl lines ({ task, row } or a bare row) and counts what is not a row', () => {
    const row = split().rows[0];
    const text = [JSON.stringify({ task: { kind: 'row', length: row.length, dim: DIM }, row }), '', 'not json', '{"length": "x"}', JSON.stringify(row)].join(
      '\n',
    );
    const { rows, unreadable } = readRowLines(text);
    assert.equal(rows.length, 2);
    assert.equal(unreadable, 2);
    assert.deepEqual(rows[0], row);
  });
});
