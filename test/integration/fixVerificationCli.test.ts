/**
 * Through the built CLI, on Meta's own Llama-3-8B config (test/fixtures/corpus/models, saved by
 * transformers 4.40.0.dev0 as published): raised to 65,536, the preferred quick fix applied, the
 * file passes `check --fail-on warning` (README, "In CI"); a missing comma fails it with exit 1.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const cli = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', ...args], { cwd: root, encoding: 'utf8' });

type Edit = { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string };
function applyEdits(text: string, edits: Edit[]): string {
  const starts = [0];
  for (let m, re = /\r\n|\r|\n/g; (m = re.exec(text)); ) starts.push(m.index + m[0].length);
  const at = (p: { line: number; character: number }) => starts[p.line] + p.character;
  for (const e of [...edits].sort((a, b) => at(b.range.start) - at(a.range.start)))
    text = text.slice(0, at(e.range.start)) + e.newText + text.slice(at(e.range.end));
  return text;
}

describe('rope-lens check: quick fixes on a real config pass the hook', function () {
  this.timeout(120_000);
  let tmp: string;
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-fixcheck-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const real = readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8');

  it('Llama-3-8B raised to 65,536: every offered fix, applied, leaves no warning or error (exit 0 at --fail-on warning)', () => {
    const file = join(tmp, 'config.json');
    const text = real.replace('"max_position_embeddings": 8192', '"max_position_embeddings": 65536');
    assert.notEqual(text, real);
    writeFileSync(file, text);
    const bad = cli(file, '--fail-on', 'warning', '--json');
    assert.equal(bad.status, 1, bad.stderr);
    const finding = JSON.parse(bad.stdout).files[0].diagnostics.find((d: { code: string }) => d.code === 'rope/context-extended');
    assert.ok(finding.fixes.length > 0);
    assert.equal(finding.fixes.filter((f: { preferred?: boolean }) => f.preferred).length, 1);
    for (const fix of finding.fixes) {
      writeFileSync(file, applyEdits(text, fix.edits));
      const good = cli(file, '--fail-on', 'warning');
      assert.equal(good.status, 0, `${fix.title}:\n${good.stdout}${good.stderr}`);
    }
  });

  it("a missing comma is an error at the next key: exit 1, and the repair makes it Meta's file again", () => {
    const file = join(tmp, 'config.json');
    const text = real.replace('"max_position_embeddings": 8192,', '"max_position_embeddings": 8192');
    writeFileSync(file, text);
    const r = cli(file);
    assert.equal(r.status, 1, r.stdout);
    const line = text.split('\n').findIndex((l) => l.includes('"max_position_embeddings"')) + 2;
    assert.match(r.stdout, new RegExp(`config\\.json:${line}:\\d+ error parse/invalid-json transformers cannot load this file: Expecting ',' delimiter`));
    const json = JSON.parse(cli(file, '--json').stdout);
    const fix = json.files[0].diagnostics.find((d: { code: string }) => d.code === 'parse/invalid-json').fixes[0];
    assert.equal(applyEdits(text, fix.edits), real);
  });
});
