/**
 * Issue 34, "nothing silent", through the real CLI binary: every path given to `check` is read or
 * said. Folders with symbolic-link cycles (real links, made in a temporary folder) finish with each
 * file checked once and a note naming the link not followed.
 * (A loop that hung before is proven finished by the test completing within mocha's timeout.)
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const llama = join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json');

describe('rope-lens check: nothing silent (issue 34, built CLI)', function () {
  this.timeout(60000);
  let tmp: string;
  const check = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', ...args], { cwd: tmp, encoding: 'utf8', timeout: 50000 });
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-silent-'));
  });
  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  describe('the walk: symbolic links followed by real path', () => {
    it('a folder with `self -> .` checks its one file once and says which link it did not follow', () => {
      const dir = join(tmp, 'selfie');
      mkdirSync(dir);
      copyFileSync(llama, join(dir, 'config.json'));
      symlinkSync('.', join(dir, 'self'));
      const r = check('selfie');
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /^1 file checked: /m);
      assert.match(r.stderr, /^rope-lens check: skipped selfie\/self -> selfie: a symlink cycle \(a folder above it\)$/m);
    });

    it('a loop folder (`self -> ../loop`, `sub/up -> ..`) finishes: 1 file, both links said', () => {
      const dir = join(tmp, 'loop');
      mkdirSync(join(dir, 'sub'), { recursive: true });
      copyFileSync(llama, join(dir, 'config.json'));
      symlinkSync('../loop', join(dir, 'self'));
      symlinkSync('..', join(dir, 'sub', 'up'));
      const r = check('loop');
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /^1 file checked: /m);
      const skipped = r.stderr.split('\n').filter((l) => l.startsWith('rope-lens check: skipped '));
      assert.deepEqual(skipped, [
        'rope-lens check: skipped loop/self -> loop: a symlink cycle (a folder above it)',
        'rope-lens check: skipped loop/sub/up -> loop: a symlink cycle (a folder above it)',
      ]);
    });

    it('a file reached by two names, and a folder reached by two, are checked once (the second way in said)', () => {
      const dir = join(tmp, 'twice');
      mkdirSync(join(dir, 'model'), { recursive: true });
      // Llama 3 8B with its context raised 8× and no scaling: one warning per time the file is read.
      const cfg = JSON.parse(readFileSync(llama, 'utf8'));
      cfg.max_position_embeddings = 65536;
      writeFileSync(join(dir, 'model', 'config.json'), JSON.stringify(cfg, null, 2));
      symlinkSync('model', join(dir, 'latest'));
      symlinkSync(join('model', 'config.json'), join(dir, 'alias.json'));
      const r = check('twice', 'twice/model/config.json');
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /^1 file checked: 0 errors, 1 warning, /m);
      assert.equal(r.stdout.trim().split('\n').length, 1, r.stdout);
      // `latest` sorts before `model`: the folder is walked through the link, then met by its own name.
      assert.match(r.stderr, /^rope-lens check: skipped twice\/model: a folder already walked as twice\/latest$/m);
    });
  });
});
