/**
 * Issue 34, "nothing silent", through the real CLI binary: every path given to `check` is read or
 * said. Folders with symbolic-link cycles (real links, made in a temporary folder) finish with each
 * file checked once and a note naming the link not followed.
 * (A loop that hung before is proven finished by the test completing within mocha's timeout.)
 * A config.json Python's json refuses (empty, truncated) is parse/invalid-json in Python's words; a
 * binary one and one past the documented size cap are said as skipped; a 20 MB config is read as
 * its 2 MB copy is. On a machine without a GPU, the GPU library's native log lines (Dawn's
 * "Couldn't load Vulkan …") stay off the stderr of `bound`, `check` and the language server.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { bigConfig } from './hostileInputs';
import { MAX_CHECK_BYTES } from '../../server/cli/readInput';
import { LspHarness } from './lspHarness';
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

  const file = (name: string, content: string | Buffer) => {
    const dir = mkdtempSync(join(tmp, 'f-'));
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };

  it('the walk says a dangling link with a config name (nothing behind it to check)', () => {
    const dir = join(tmp, 'dangling');
    mkdirSync(dir);
    copyFileSync(llama, join(dir, 'config.json'));
    symlinkSync('gone.json', join(dir, 'old.json'));
    const r = check('dangling');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /^rope-lens check: skipped dangling\/old\.json: a symbolic link to nothing \(dangling\)$/m);
    assert.match(r.stderr, /^1 file checked: /m);
  });

  describe('every file read or said', () => {
    for (const [what, text, python] of [
      ['an empty config.json', '', 'Expecting value: line 1 column 1 (char 0)'],
      ['a config.json cut off before any key', '{"archi', 'Unterminated string starting at: line 1 column 2 (char 1)'],
      ['a config.json of plain words', 'not json at all\n', 'Expecting value: line 1 column 1 (char 0)'],
    ] as const) {
      it(`${what}: parse/invalid-json as Python's json reports it, exit 1`, () => {
        const f = file('config.json', text);
        const r = check(f);
        assert.equal(r.status, 1, r.stdout + r.stderr);
        assert.equal(
          r.stdout.trim(),
          `${f}:1:${Number(/column (\d+)/.exec(python)![1])} error parse/invalid-json Python's json module refuses this file (${python}), so transformers cannot load it.`,
        );
        assert.match(r.stderr, /^1 file checked: 1 error, /m);
      });
    }

    it('an empty JSON file of another name is not a config transformers loads: no finding', () => {
      const r = check(file('notes.json', ''));
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
    });

    it('a binary file named config.json: skipped with a note, not a crash, not silence', () => {
      const bytes = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x7b, 0x22]);
      const f = file('config.json', bytes);
      const r = check(f);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        new RegExp(`^rope-lens check: skipped ${escape(f)}: a binary file \\(a NUL byte near its start; configs are UTF-8 text\\), not read$`, 'm'),
      );
      assert.match(r.stderr, /^0 files checked: /m);
    });

    it(`a config past the documented cap (${MAX_CHECK_BYTES / 2 ** 20} MB): skipped with its size said`, () => {
      const f = file('config.json', '{"model_type": "llama"');
      truncateSync(f, MAX_CHECK_BYTES + 1); // sparse: nothing written, the size is what counts
      const r = check(f);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stderr, new RegExp(`^rope-lens check: skipped ${escape(f)}: larger than 64 MB \\(64\\.0 MB\\), not read$`, 'm'));
    });

    it('a 20 MB Llama config is read like its 2 MB copy: the same findings', function () {
      this.timeout(180000);
      const findings = (bytes: number) => {
        const f = file('config.json', bigConfig(bytes));
        const r = check(f, '--json');
        assert.equal(r.status, 0, r.stderr);
        return (JSON.parse(r.stdout).files[0].diagnostics as { code: string; message: string }[]).map((d) => `${d.code} ${d.message}`);
      };
      const small = findings(2_000_000);
      assert.ok(small.length > 0, 'the padded Llama-like config has a finding to compare');
      assert.deepEqual(findings(20_000_000), small);
    });
  });

  describe('quiet stderr: native GPU library lines only with --verbose', () => {
    /** Dawn's own lines, as it prints them on a machine without Vulkan (and any other mention of it). */
    const NATIVE = /Vulkan|[Dd]awn|artificially reduced|^Warning: /m;
    // Long enough that auto asks which adapter there is (the GPU crossover is 131,072).
    const longBound = ['bound', '--length', '300000', '--head-dim', '128'];
    const cli = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), ...args], { cwd: tmp, encoding: 'utf8', timeout: 110000 });

    it('bound: no native line on stderr; why the GPU was not used stays in --json', function () {
      this.timeout(120000);
      const r = cli(...longBound);
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, NATIVE);
      assert.doesNotMatch(r.stdout, NATIVE);
      const json = cli(...longBound, '--json');
      assert.equal(json.status, 0, json.stderr);
      assert.doesNotMatch(json.stderr, NATIVE);
      const out = JSON.parse(json.stdout) as { backend: string; backendReason: string };
      if (out.backend === 'cpu') assert.match(out.backendReason, /^auto: /);
    });

    it('bound --verbose passes the native lines on, marked (where the machine has any to say)', function () {
      this.timeout(120000);
      const r = cli(...longBound, '--verbose');
      assert.equal(r.status, 0, r.stderr);
      for (const line of r.stderr.split('\n').filter((l) => NATIVE.test(l) && !l.startsWith('  backend:'))) assert.match(line, /^\[webgpu\] /);
    });

    it('check on configs with long contexts: no native line on stderr', () => {
      const cfg = JSON.parse(readFileSync(llama, 'utf8'));
      cfg.max_position_embeddings = 262144;
      const r = check(file('config.json', JSON.stringify(cfg, null, 2)));
      assert.doesNotMatch(r.stderr, NATIVE);
      assert.match(r.stderr, /^1 file checked: /m);
    });

    it('the language server: no native line on its stderr while it computes a long bound', async function () {
      this.timeout(120000);
      const h = await LspHarness.start({ settings: { validation: { delay: 0 } } });
      try {
        const cfg = JSON.parse(readFileSync(llama, 'utf8'));
        cfg.rope_theta = 10000;
        cfg.max_position_embeddings = 262144;
        // A model of its own (no catalog twin has 30 layers): its base is judged by the bound at 262,144,
        // not as an edit of Llama-3-8B, so the finding waits for the server's bound computation.
        cfg.num_hidden_layers = 30;
        const uri = 'file:///quiet/config.json';
        await h.open(uri, JSON.stringify(cfg, null, 2), 'json', 1);
        await h.until(
          () => h.published.some((p) => p.uri === uri && p.diagnostics.some((d) => d.code === 'rope/base-below-bound')),
          'the bound-based finding',
          100000,
        );
        assert.doesNotMatch(h.stderr.join(''), NATIVE);
      } finally {
        await h.stop();
      }
    });
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
