/**
 * The table generator (shared/node/provenTableGen.ts): cheapest tasks first, rows written as they are
 * proven, a second run skips what the file holds, and the facts are the shipped table's.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTable, readTable, tableTasks, taskCost } from '../../shared/node/provenTableGen';
import { tableRow } from '../../shared/bstar/table/provenTable';

describe('the proven table generator', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-table-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('orders tasks by cost and keeps each dim in length order', () => {
    const tasks = tableTasks([128, 16], 1 << 20, 65536);
    for (let i = 1; i < tasks.length; i++) assert.ok(taskCost(tasks[i - 1]) <= taskCost(tasks[i]));
    for (const d of [128, 16]) {
      const rows = tasks.filter((t) => t.dim === d && t.kind === 'row').map((t) => t.length);
      assert.deepEqual(
        rows,
        rows.slice().sort((a, b) => a - b),
      );
    }
    assert.ok(!tasks.some((t) => t.kind === 'threshold' && t.length > 65536));
  });

  it('writes the shipped facts, resumes without redoing, and starts afresh from a corrupt file', async () => {
    const file = join(dir, 'proven.json');
    writeFileSync(file, '{"rows": [ {"length": 10');
    const lines: string[] = [];
    const first = await generateTable({ file, dims: [64], maxLength: 1448, maxThresholdLength: 1024, log: (l) => lines.push(l) });
    assert.equal(first.done, 4, lines.join('\n'));
    const rows = readTable(file).rows;
    assert.deepEqual(
      rows.map((r) => r.length),
      [1024, 1218, 1448],
    );
    for (const r of rows) {
      const shipped = tableRow(r.length, 64)!;
      assert.equal(r.robust?.base, shipped.robust?.base, `${r.length}`);
      assert.equal(r.bstar?.value, shipped.bstar?.value, `${r.length}`);
    }
    assert.equal(rows[0].threshold?.validAbove, tableRow(1024, 64)!.threshold!.validAbove);
    const again = await generateTable({ file, dims: [64], maxLength: 1448, maxThresholdLength: 1024 });
    assert.equal(again.done, 0);
    // A budget already spent starts nothing and says what is left.
    const later = await generateTable({ file, dims: [64, 128], maxLength: 1448, maxThresholdLength: 1024, budgetS: -1 });
    assert.equal(later.done, 0);
    assert.equal(later.left.length, 4);
    assert.deepEqual(readdirSync(dir), ['proven.json']);
    assert.match(readFileSync(file, 'utf8'), /^\{\n {2}"\$schema"/);
  });

  it('streams each finished row out, leaves tasks that cannot finish, and names the machine on new facts only', async () => {
    const file = join(dir, 'proven.json');
    await generateTable({ file, dims: [32], maxLength: 1024, maxThresholdLength: 0 });
    const streamed: string[] = [];
    const r = await generateTable({
      file,
      dims: [32],
      maxLength: 2048,
      maxThresholdLength: 0,
      machine: 'a lent machine',
      fits: (t) => t.length <= 1448,
      onRow: (row, t) => streamed.push(`${t.kind} ${row.length} ${row.robust?.base}`),
    });
    assert.equal(r.done, 2);
    assert.deepEqual(streamed, [`row 1218 ${tableRow(1218, 32)!.robust!.base}`, `row 1448 ${tableRow(1448, 32)!.robust!.base}`]);
    assert.deepEqual(
      r.left.map((t) => t.length),
      [1722, 2048],
    );
    const rows = readTable(file).rows;
    assert.equal(rows.find((x) => x.length === 1024)!.robust!.machine, undefined, 'a fact of an earlier run is not restamped');
    for (const L of [1218, 1448]) {
      const row = rows.find((x) => x.length === L)!;
      assert.equal(row.bstar!.machine, 'a lent machine');
      assert.equal(row.robust!.machine, 'a lent machine');
    }
  });
});
