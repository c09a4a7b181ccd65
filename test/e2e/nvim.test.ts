/**
 * Headless Neovim as a second real LSP client: it starts `rope-lens lsp --stdio` itself, gets the
 * same diagnostics as VS Code and applies the preferred quick fix to a file on disk.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT, CLI, ROOT } from '../integration/lspHarness';
import { which } from './tools';

describe('Neovim (headless) as an LSP client', function () {
  this.timeout(30000);
  let dir: string;

  before(function () {
    if (!which('nvim')) {
      console.log('      skipped: nvim not installed (apt-get install neovim)');
      this.skip();
    }
    if (!BUILT) {
      console.log('      skipped: dist/cli.js not built');
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-nvim-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs nvim/fix.lua on `file` with the buffer's filetype set to `filetype`; returns its output. */
  function runFix(file: string, filetype: string): string {
    const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${join(__dirname, 'nvim', 'fix.lua')}`], {
      env: {
        ...process.env,
        ROPE_LENS_SERVER: CLI,
        ROPE_LENS_FILE: file,
        ROPE_LENS_FILETYPE: filetype,
        XDG_STATE_HOME: dir,
        XDG_DATA_HOME: dir,
        XDG_CACHE_HOME: dir,
      },
      encoding: 'utf8',
      timeout: 25000,
    });
    const out = (r.stdout ?? '') + (r.stderr ?? '');
    assert.equal(r.status, 0, `nvim exited ${r.status}:\n${out}`);
    return out;
  }

  it('receives the diagnostics and applies the preferred quick fix to the file', () => {
    const file = join(dir, 'config.json');
    copyFileSync(join(ROOT, 'test/integration/fixtures/llama2-7b-extended.json'), file);
    const before = readFileSync(file, 'utf8');
    const out = runFix(file, 'json');
    assert.match(out, /^DIAG \d+:\d+ \S+ /m);
    assert.match(out, /^APPLIED /m);
    assert.match(out, /^PASS in \d+ ms/m);
    const after = readFileSync(file, 'utf8');
    assert.notEqual(after, before, 'the fix changed the file on disk');
    // Still valid JSON, every original key kept in order (a fix may only add or change RoPE keys).
    const keysBefore = Object.keys(JSON.parse(before));
    const keysAfter = Object.keys(JSON.parse(after));
    assert.deepEqual(
      keysAfter.filter((k) => keysBefore.includes(k)),
      keysBefore,
    );
  });

  it('checks a vllm serve line in a shell script (filetype sh) and applies the YaRN override', () => {
    const file = join(dir, 'serve.sh');
    const lines = [
      '#!/usr/bin/env bash',
      '# Qwen2.5-7B-Instruct is trained at 32,768 tokens; 131,072 needs YaRN.',
      'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --port 8000',
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const out = runFix(file, 'sh');
    // The diagnostic sits on the value 131072 of the third line (0-based 2:52).
    const at = lines[2].indexOf('131072');
    assert.match(out, new RegExp(`^DIAG 2:${at} vllm/max-model-len-exceeds `, 'm'));
    // Qwen's documented recipe is the preferred fix: YaRN ×4 over 32,768.
    assert.match(out, /^APPLIED Add YaRN as Qwen's model card for .* documents it in hf-overrides \(factor 4, original 32768\)/m);
    assert.match(out, /^PASS in \d+ ms/m);
    const after = readFileSync(file, 'utf8').split('\n');
    assert.deepEqual(after.slice(0, 2), lines.slice(0, 2), 'the lines above the command are unchanged');
    // The override goes at the end of the command; nothing else on the line changes.
    assert.equal(after[2], `${lines[2]} --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'`);
    assert.equal(after.length, lines.length + 1, 'no line added');
  });
});
