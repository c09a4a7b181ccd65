/**
 * Headless Neovim as a second real LSP client: it starts `rope-lens lsp --stdio` itself, gets the
 * same diagnostics as VS Code and applies the preferred quick fix to a file on disk.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT, CLI, ROOT } from '../integration/lspHarness';
import { which } from './tools';

describe('Neovim (headless) as an LSP client', function () {
  this.timeout(30000);
  let dir: string;

  before(function () {
    if (!which('nvim')) { console.log('      skipped: nvim not installed (apt-get install neovim)'); this.skip(); }
    if (!BUILT) { console.log('      skipped: dist/cli.js not built'); this.skip(); }
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-nvim-'));
  });
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('receives the diagnostics and applies the preferred quick fix to the file', () => {
    const file = join(dir, 'config.json');
    copyFileSync(join(ROOT, 'test/integration/fixtures/llama2-7b-extended.json'), file);
    const before = readFileSync(file, 'utf8');
    const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${join(__dirname, 'nvim', 'fix.lua')}`], {
      env: { ...process.env, ROPE_LENS_SERVER: CLI, ROPE_LENS_FILE: file, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, XDG_CACHE_HOME: dir },
      encoding: 'utf8', timeout: 25000,
    });
    const out = (r.stdout ?? '') + (r.stderr ?? '');
    assert.equal(r.status, 0, `nvim exited ${r.status}:\n${out}`);
    assert.match(out, /^DIAG \d+:\d+ \S+ /m);
    assert.match(out, /^APPLIED /m);
    assert.match(out, /^PASS in \d+ ms/m);
    const after = readFileSync(file, 'utf8');
    assert.notEqual(after, before, 'the fix changed the file on disk');
    // Still valid JSON, every original key kept in order (a fix may only add or change RoPE keys).
    const keysBefore = Object.keys(JSON.parse(before));
    const keysAfter = Object.keys(JSON.parse(after));
    assert.deepEqual(keysAfter.filter((k) => keysBefore.includes(k)), keysBefore);
  });
});
