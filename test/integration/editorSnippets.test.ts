/**
 * docs/editors.md's Neovim, Emacs and Helix snippets start a command; after the install that page
 * documents (`npm install -g .` from a checkout, here into a fresh prefix, registry off) that command
 * is found on PATH and answers an LSP `initialize` as a language server. Without the install it is
 * not found: the snippets really depend on that step, so the page must keep saying it.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const root = join(__dirname, '../..');
const page = readFileSync(join(root, 'docs', 'editors.md'), 'utf8');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The fenced block of a language on the page (exactly one). */
function block(lang: string): string {
  const all = [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))];
  assert.equal(all.length, 1, `one ${lang} block in docs/editors.md`);
  return all[0][1];
}
const quoted = (list: string) => [...list.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]);

/** The server command of each editor's snippet, as its editor would read it. */
function snippetCommands(): Record<string, string[]> {
  const lua = /cmd = \{([^}]*)\}/.exec(block('lua'));
  const elisp = /\. \(("[^)]*)\)/.exec(block('elisp'));
  const toml = block('toml');
  const command = /^command = "([^"]+)"$/m.exec(toml);
  const args = /^args = \[([^\]]*)\]$/m.exec(toml);
  assert.ok(lua && elisp && command && args, 'every snippet names a command');
  return { neovim: quoted(lua[1]), emacs: quoted(elisp[1]), helix: [command[1], ...quoted(args[1])] };
}

/** Starts argv with only `path` on PATH and resolves with the server's answer to `initialize`. */
function initialize(argv: string[], path: string): Promise<{ capabilities?: object }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, PATH: path }, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('no answer to initialize in 20 s'));
    }, 20_000);
    let out = '';
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Content-Length: (\d+)\r\n\r\n/.exec(out);
      if (!m) return;
      const start = m.index + m[0].length;
      if (Buffer.byteLength(out.slice(start)) < Number(m[1])) return;
      clearTimeout(timer);
      child.kill();
      resolve(JSON.parse(out.slice(start, start + Number(m[1]))).result);
    });
    const msg = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(msg)}\r\n\r\n${msg}`);
  });
}

describe('docs/editors.md: the snippets start rope-lens after the documented install', function () {
  this.timeout(180_000);
  let tmp: string;
  before(function () {
    if (!existsSync(join(root, 'dist', 'server.js'))) this.skip();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-editors-'));
  });
  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the three snippets name the same command', () => {
    const c = snippetCommands();
    assert.deepEqual(c.neovim, ['rope-lens', 'lsp', '--stdio']);
    assert.deepEqual(c.emacs, c.neovim);
    assert.deepEqual(c.helix, c.neovim);
  });

  it('the page documents `npm install -g .`, and after it the command answers initialize from PATH', async () => {
    assert.match(page, /^npm install -g \.\s/m, 'the install from a checkout is on the page');
    // A folder with node alone (the launcher's `#!/usr/bin/env node`), whatever else node's own folder holds.
    const nodeOnly = join(tmp, 'node-only');
    mkdirSync(nodeOnly);
    symlinkSync(process.execPath, join(nodeOnly, 'node'));
    await assert.rejects(initialize(snippetCommands().neovim, nodeOnly), /ENOENT/, 'not on PATH before the install');

    const prefix = join(tmp, 'prefix');
    const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
    // --prefix keeps the test's install out of the machine's global folder; --offline: nothing to fetch.
    const install = spawnSync(npm, ['install', '-g', '.', '--offline', '--ignore-scripts', '--prefix', prefix], { cwd: root, env, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    const bin = join(prefix, process.platform === 'win32' ? '' : 'bin');
    for (const [editor, argv] of Object.entries(snippetCommands())) {
      const result = await initialize(argv, [bin, nodeOnly].join(delimiter));
      assert.ok(result?.capabilities, `${editor}: ${argv.join(' ')} answered initialize with capabilities`);
    }
  });
});
