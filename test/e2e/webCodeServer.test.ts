/**
 * The web extension in a real browser VS Code: code-server 4.100.3's workbench in Debian's
 * chromium, with the extension loaded as a web-only extension (package.json without `main`), so
 * it runs in the web worker extension host and its language server in a web worker, as on
 * vscode.dev and github.dev. Workspace: a model config, a shell launch script (tree-sitter's wasm
 * in the worker) and a Dockerfile, with a `.rope-lens.yaml` the web server reads only through
 * `vscode.workspace.fs`. Checks: each file's Problems entries carry the codes and lines
 * of `rope-lens check`; the NTK quick fix applies and saves; the Inspector opens; with
 * `ropeLens.bound.backend: gpu` and Chromium's WebGPU (SwiftShader), the Inspector's robust-base
 * proofs are screened on the browser's GPU (the server's log says so) while every answer above stays
 * the CLI's. Without an adapter that step is skipped with the reason. Screenshots go
 * to test/artifacts/code-server-web/. Skipped with a reason when code-server or chromium is missing.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { cleanup, launchBrowser, makeDirs, screenshot, startCodeServer, stopCodeServer, type CodeServerRun } from './codeServer';
import { CHROMIUM, ROOT, hasCodeServer } from './tools';
import { adapterOf } from './webGpu';
import { tableRobustBase } from '../../shared/bstar/table/provenTable';

const ARTIFACTS = join(ROOT, 'test', 'artifacts', 'code-server-web');
/** As in codeServer.test.ts: Llama-3-8B raised to 32,768 without scaling, whose NTK rewrite meets the bound. */
const NTK_FIXTURE = 'llama3-8b-32k.json';
const WORKSPACE_FILES: [from: string, name: string][] = [
  [join(ROOT, 'test', 'integration', 'fixtures', NTK_FIXTURE), 'config.json'],
  [join(ROOT, 'examples', 'serve-qwen2.5-128k.sh'), 'serve.sh'],
  [join(ROOT, 'test', 'fixtures', 'launch', 'adapters', 'Dockerfile.vllm'), 'Dockerfile'],
];

/** `code line` pairs (1-based line) as the CLI reports them for each workspace file. */
function cliFindings(ws: string): Map<string, string[]> {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), 'check', '--json', ...WORKSPACE_FILES.map(([, n]) => n)], {
    cwd: ws,
    encoding: 'utf8',
    env: { ...process.env, HF_HOME: join(ws, '..', 'no-hf'), HF_HUB_OFFLINE: '1' },
  });
  const files = JSON.parse(r.stdout).files as { path: string; diagnostics: { code: string; range: { start: { line: number } } }[] }[];
  return new Map(files.map((f) => [f.path, f.diagnostics.map((d) => `${d.code} ${d.range.start.line + 1}`).sort()]));
}

/** A copy of the built extension with the browser entry only: VS Code must run it in the web worker host. */
function webOnlyExtension(dir: string): string {
  const ext = join(dir, 'web-extension');
  mkdirSync(join(ext, 'dist'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  for (const k of ['main', 'scripts', 'devDependencies', 'optionalDependencies', 'overrides', 'bin']) delete pkg[k];
  writeFileSync(join(ext, 'package.json'), JSON.stringify(pkg, null, 2));
  cpSync(join(ROOT, 'dist', 'web'), join(ext, 'dist', 'web'), { recursive: true });
  // The Inspector's webview scripts, as the .vsix ships them.
  cpSync(join(ROOT, 'dist', 'media'), join(ext, 'dist', 'media'), { recursive: true });
  return ext;
}

/**
 * The Problems panel's entries for one file (`code line`), once they equal `expected`; after 60 s,
 * whatever they are then. The project file and bound answers arrive after the first diagnostics,
 * so the entries settle rather than appear at once.
 */
async function problemsOf(page: Page, name: string, expected: string[]): Promise<string[]> {
  const parse = (texts: string[], n: string) => {
    const out: string[] = [];
    let file = '';
    for (const text of texts) {
      // A row reads `<message>rope-lens<code>[Ln L, Col C]` (the parentheses are CSS).
      const m = /rope-lens([a-z0-9-]+\/[a-z0-9-]+)\s*\[Ln (\d+), Col \d+\]/.exec(text);
      if (!m) file = text.replace(/\d+$/, '');
      else if (file === n) out.push(`${m[1]} ${m[2]}`);
    }
    return out.sort();
  };
  const rowsText = () => page.locator('.markers-panel .monaco-list-row').allTextContents();
  await page
    .waitForFunction(
      ([n, want, parseSource]) => {
        const texts = Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).map((r) => r.textContent ?? '');
        const got = (new Function(`return ${parseSource}`)() as (t: string[], n: string) => string[])(texts, n as string);
        return JSON.stringify(got) === JSON.stringify(want);
      },
      [name, expected, parse.toString()] as const,
      { timeout: 60000 },
    )
    .catch(() => undefined);
  return parse(await rowsText(), name);
}

describe('code-server 4.100.3, web worker extension host (the web extension)', function () {
  this.timeout(300000);
  it('diagnostics match the CLI, the NTK quick fix applies, the Inspector opens', async function () {
    const missing = !hasCodeServer()
      ? 'code-server not installed (bash test/e2e/install-code-server.sh)'
      : !CHROMIUM
        ? 'chromium not installed (apt-get install chromium)'
        : !existsSync(join(ROOT, 'dist', 'web', 'extension.js'))
          ? 'dist/web not built (node esbuild.mjs)'
          : undefined;
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    const d = makeDirs('rope-lens-web-e2e-');
    let run: CodeServerRun | undefined;
    let browser: BrowserContext | undefined;
    let page: Page | undefined;
    const extensionLog: string[] = [];
    try {
      const ext = webOnlyExtension(d.dir);
      const ws = join(d.dir, 'ws');
      mkdirSync(ws, { recursive: true });
      for (const [from, name] of WORKSPACE_FILES) copyFileSync(from, join(ws, name));
      // The fixture pins vLLM 0.10.1, which still reads its --rope-scaling (a hint, never a Problems entry):
      // the image's latest tag makes the removed option the Problems entry both sides must show.
      const docker = join(ws, 'Dockerfile');
      writeFileSync(docker, readFileSync(docker, 'utf8').replace('ARG VLLM_VERSION=v0.10.1', 'ARG VLLM_VERSION=latest'));
      // A project file the web server can only know through vscode.workspace.fs: the CLI and the
      // Problems panel both lose this code, or the panel shows one entry more than the CLI.
      writeFileSync(join(ws, '.rope-lens.yaml'), 'disable:\n  - launch/length-exceeds-derived\n');
      // Proofs on the browser's GPU where it has one (SwiftShader is used only when asked for).
      mkdirSync(join(ws, '.vscode'));
      writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'ropeLens.bound.backend': 'gpu' }));
      const want = cliFindings(ws);
      const configFile = join(ws, 'config.json');
      const before = readFileSync(configFile, 'utf8');

      run = await startCodeServer(d, ws);
      browser = await launchBrowser(join(d.dir, 'profile'), { webgpu: true });
      page = browser.pages()[0] ?? (await browser.newPage());
      page.on('console', (m) => {
        if (/rope-lens|RoPE Lens|Activating extension/i.test(m.text())) extensionLog.push(m.text());
      });
      // extensionDevelopmentPath loads the folder as it is; having no `main`, it can only run in the web worker host.
      const payload = [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${run.port}${ext}`]];
      await page.goto(`${run.base}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
      const adapter = await adapterOf(page);

      await page.keyboard.press('Control+Shift+M');
      // One file at a time: a preview editor replaces the previous one, whose diagnostics then go.
      for (const [, name] of WORKSPACE_FILES) {
        await page.getByRole('treeitem', { name }).click();
        const expected = want.get(name) ?? [];
        assert.ok(expected.length > 0, `the CLI finds something in ${name}`);
        assert.deepEqual(await problemsOf(page, name, expected), expected, `${name}: Problems entries vs rope-lens check`);
        await screenshot(page, ARTIFACTS, `01-problems-${name}.png`);
      }

      // The NTK quick fix on config.json, once the bound work has settled (status item gone).
      await page.getByRole('treeitem', { name: 'config.json' }).click();
      await page.waitForFunction(
        () =>
          !Array.from(document.querySelectorAll('.statusbar-item')).some(
            (e) => (e.textContent ?? '').includes('RoPE Lens:') && (e as HTMLElement).offsetParent !== null,
          ),
        undefined,
        { timeout: 60000 },
      );
      const menu = page.locator('.action-widget');
      const ntk = menu.locator('.monaco-list-row', { hasText: /Apply NTK scaling/ }).first();
      let opened = false;
      for (let attempt = 0; attempt < 4 && !opened; attempt++) {
        await page.locator('.monaco-editor .view-lines').first().click();
        await page.keyboard.press('F8');
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+.');
        opened = await ntk
          .waitFor({ timeout: 20000 })
          .then(() => true)
          .catch(() => false);
        if (!opened) await page.keyboard.press('Escape');
      }
      assert.ok(opened, 'the quick-fix menu lists "Apply NTK scaling"');
      for (let i = 0; i < 12; i++) {
        const focused = await menu
          .locator('.monaco-list-row.focused')
          .first()
          .textContent()
          .catch(() => '');
        if (/Apply NTK scaling/.test(focused ?? '')) break;
        await page.keyboard.press('ArrowDown');
      }
      await screenshot(page, ARTIFACTS, '02-quickfix-menu.png');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Control+S');
      // The save goes through code-server to the disk: poll the file (a state, bounded).
      let after = before;
      for (const deadline = Date.now() + 20000; Date.now() < deadline && after === before; ) {
        await new Promise((r) => setTimeout(r, 100));
        after = readFileSync(configFile, 'utf8');
      }
      assert.notEqual(after, before, 'the saved file changed on disk');
      assert.ok(JSON.parse(after).rope_theta > JSON.parse(before).rope_theta, 'NTK raised rope_theta');

      // The Inspector, from the Command Palette.
      await page.keyboard.press('F1');
      await page.keyboard.type('RoPE Lens: Open RoPE Inspector');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open RoPE Inspector' }).first().waitFor({ timeout: 20000 });
      await page.keyboard.press('Enter');
      await page
        .locator('.tab', { hasText: /Inspector/ })
        .first()
        .waitFor({ timeout: 60000 });
      // Its page drew the validity chart from the web server's data.
      const inspector = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      await inspector.locator('#chart-validity canvas').first().waitFor({ timeout: 120000 });
      await screenshot(page, ARTIFACTS, '03-inspector.png');

      // The GPU step: the Inspector's robust-base ladder asked the b* worker for neighbourhood proofs.
      // The proven table answers the ladder at 32,768 tokens (rotary dim 128) without a proof, so no
      // proof starts and the channel never appears: the step runs only where the table has no row.
      const fromTable = tableRobustBase(32768, 128) !== undefined;
      if (!adapter.startsWith('adapter:') || fromTable) {
        console.log(`      GPU step skipped: ${fromTable ? 'the proven table holds 32,768 tokens at rotary dim 128' : adapter}`);
      } else {
        // The server's channel appears with its first line, which the b* worker sends when a proof
        // starts (after the chart's L_max jobs): look for it in the channel list until it is there.
        const serverChannel = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^RoPE Lens$/ }) });
        let listed = false;
        for (const deadline = Date.now() + 240000; !listed && Date.now() < deadline; ) {
          // Focus the workbench (an Escape leaves it in the Inspector's webview, which keeps F1).
          await page
            .locator('.quick-input-widget')
            .waitFor({ state: 'hidden', timeout: 20000 })
            .catch(() => undefined);
          await page.locator('.monaco-editor .view-lines').first().click();
          await page.keyboard.press('F1');
          await page.keyboard.type('Output: Show Output Channels');
          await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Output Channels' }).first().waitFor({ timeout: 20000 });
          await page.keyboard.press('Enter');
          await page.locator('.quick-input-list .monaco-list-row', { hasText: 'RoPE Lens Inspector' }).first().waitFor({ timeout: 20000 });
          listed = (await serverChannel.count()) > 0;
          if (listed) await serverChannel.first().click();
          else {
            await page.keyboard.press('Escape');
            // Until the next bound job starts (the status item's text changes), or 10 s.
            const now = await page.locator('.statusbar-item', { hasText: 'RoPE Lens:' }).allTextContents();
            await page
              .waitForFunction(
                (was) =>
                  JSON.stringify(
                    Array.from(document.querySelectorAll('.statusbar-item'))
                      .map((e) => e.textContent ?? '')
                      .filter((t) => t.includes('RoPE Lens:')),
                  ) !== was,
                JSON.stringify(now),
                { timeout: 10000 },
              )
              .catch(() => undefined);
          }
        }
        assert.ok(listed, "the server's output channel appeared");
        const output = page.locator('.output-view .monaco-editor').first();
        await output.waitFor({ timeout: 20000 });
        await output.click();
        await page.keyboard.press('Control+F');
        await page.keyboard.type("screened on the browser's GPU");
        // The find widget's count: a state, re-evaluated as the log grows.
        const found = await page
          .waitForFunction(
            () => {
              const c = document.querySelector('.output-view .find-widget .matchesCount')?.textContent ?? '';
              return c !== '' && !/No results/i.test(c);
            },
            undefined,
            { timeout: 120000 },
          )
          .then(() => true)
          .catch(() => false);
        await screenshot(page, ARTIFACTS, '04-gpu-log.png');
        assert.ok(found, `${adapter}: the server's log says the neighbourhood proofs were screened on the browser's GPU`);
      }
    } catch (e) {
      if (page) await screenshot(page, ARTIFACTS, '99-failure.png').catch(() => undefined);
      console.log(extensionLog.join('\n'));
      if (run) console.log(run.log.join('').slice(-2000));
      throw e;
    } finally {
      await browser?.close().catch(() => undefined);
      await stopCodeServer(run);
      cleanup(d.dir);
    }
  });
});
