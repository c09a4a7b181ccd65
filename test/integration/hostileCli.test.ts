/**
 * The CLI never prints a stack trace: `rope-lens check` on mutated real configs and YAML (fixed
 * seed) and on the hostile inputs exits 0, 1 or 2 with a message, and stderr has no `    at ` frame.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { BUILT, CLI, ROOT } from './lspHarness';
import { hostileInputs } from './hostileInputs';
import { serverInputs } from '../fuzz/serverProperty';

const STACK_FRAME = /^\s{4}at /m;

function check(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function assertClean(r: ReturnType<typeof check>, what: string): void {
  assert.equal(r.signal, null, `${what}: killed by ${r.signal} (hung?)`);
  assert.ok(r.code === 0 || r.code === 1 || r.code === 2, `${what}: exit ${r.code}; stderr: ${r.stderr.slice(0, 1000)}`);
  assert.ok(!STACK_FRAME.test(r.stderr), `${what}: stack trace on stderr:\n${r.stderr.slice(0, 2000)}`);
  assert.ok(!STACK_FRAME.test(r.stdout), `${what}: stack trace on stdout:\n${r.stdout.slice(0, 2000)}`);
  assert.ok(r.stdout.length + r.stderr.length > 0, `${what}: no output at all`);
}

describe('CLI never prints a stack trace (rope-lens check)', function () {
  this.timeout(120000);
  let dir: string;
  before(function () {
    if (!BUILT) this.skip(); // skipped: dist/cli.js not built (run `npm run build`)
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-hostile-cli-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('30 mutated configs and YAML (one run, then --json), exit 0/1/2', () => {
    const inputs = fc.sample(serverInputs(), { numRuns: 30, seed: 424242 });
    const files = inputs.map((inp, i) => {
      const d = join(dir, 'mutated', String(i));
      mkdirSync(d, { recursive: true });
      const p = join(d, inp.fileName);
      writeFileSync(p, inp.text);
      return p;
    });
    assertClean(check(files), 'mutated files');
    const json = check(['--json', ...files]);
    assertClean(json, 'mutated files --json');
    const report = JSON.parse(json.stdout) as { files: unknown[] };
    assert.equal(report.files.length, files.length, 'one JSON report per file');
  });

  for (const input of hostileInputs(true)) {
    it(`hostile: ${input.name}`, () => {
      const d = join(dir, 'hostile', input.name.replace(/[^a-z0-9]+/gi, '-'));
      mkdirSync(d, { recursive: true });
      const p = join(d, input.fileName);
      writeFileSync(p, input.text());
      assertClean(check([p]), input.name);
      rmSync(d, { recursive: true, force: true });
    });
  }

  it('usage errors and unreadable paths: exit 2, one line, no stack', () => {
    for (const args of [[], ['--no-such-flag', 'x.json'], [join(dir, 'missing.json')], ['--variant', 'v9', 'x.json']]) {
      const r = check(args);
      assertClean(r, `check ${args.join(' ')}`);
      assert.equal(r.code, 2, `check ${args.join(' ')}: exit ${r.code}`);
    }
  });
});
