/**
 * `rope-lens rules [CODE]` through the built CLI: every registered code listed; a code's page printed
 * exactly as docs/rules/<code>.md, from the bundle (a copy of dist/cli.js alone in a folder, run from
 * another folder, still prints it: nothing is read from docs/ at run time); an unknown code exits 2.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FINDING_CODES } from '../../shared/core/codes';

const root = join(__dirname, '../..');

describe('rope-lens rules', () => {
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });
  const run = (cli: string, args: string[], cwd: string) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });

  it('lists every registered code with its severity and summary', () => {
    const r = run(join(root, 'bin', 'rope-lens.js'), ['rules'], tmpdir());
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(/\s+/)[0]),
      FINDING_CODES.map((i) => i.code),
    );
    for (const [i, l] of lines.entries())
      assert.ok(l.includes(FINDING_CODES[i].summary) && l.includes(FINDING_CODES[i].retired ? 'retired' : FINDING_CODES[i].severity), l);
    const json = JSON.parse(run(join(root, 'bin', 'rope-lens.js'), ['rules', '--json'], tmpdir()).stdout);
    assert.equal(json.length, FINDING_CODES.length);
    assert.equal(json[0].page, `docs/rules/${FINDING_CODES[0].code}.md`);
  });

  it('prints a page from the bundle, whatever the folder, with no docs/ beside it', () => {
    const alone = mkdtempSync(join(tmpdir(), 'rope-lens-bundle-'));
    try {
      copyFileSync(join(root, 'dist', 'cli.js'), join(alone, 'cli.js'));
      for (const code of ['rope/context-extended', 'launch/foreign-flag', 'gguf/no-architecture']) {
        const r = run(join(alone, 'cli.js'), ['rules', code], tmpdir());
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout, readFileSync(join(root, 'docs', 'rules', `${code}.md`), 'utf8').trimEnd() + '\n');
      }
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  it('an unknown code exits 2 and suggests the code meant', () => {
    const r = run(join(root, 'bin', 'rope-lens.js'), ['rules', 'context-extended'], tmpdir());
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no finding code 'context-extended'; did you mean rope\/context-extended\?/);
  });
});
