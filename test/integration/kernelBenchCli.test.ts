/**
 * The real `rope-lens bench --kernels` (built CLI, smallest size, one repeat): its table fits 100
 * columns on this machine's adapter names, and --json still carries every result in full.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const bench = (extra: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin', 'rope-lens.js'), 'bench', '--kernels', '--size', 'small', '--repeats', '1', '--warmup', '1', ...extra], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('rope-lens bench --kernels', () => {
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });

  it('prints a table no wider than 100 columns, with the details in --json', () => {
    const text = bench([]);
    assert.equal(text.status, 0, text.stderr);
    for (const l of text.stdout.split('\n')) assert.ok([...l].length <= 100, `${[...l].length} columns: ${l}`);
    const json = bench(['--json']);
    assert.equal(json.status, 0, json.stderr);
    const results = JSON.parse(json.stdout).results as { impl: string; backend: string; samplesMs: number[] }[];
    assert.ok(results.length >= 7);
    for (const r of results) assert.ok(text.stdout.includes(`  ${r.impl}`), `${r.impl} has a row`);
  });
});
