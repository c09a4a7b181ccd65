/**
 * The Inspector panel in a real VS Code workbench (code-server 4.100.3, the repo loaded as a
 * development extension): open a config, run "RoPE Lens: Open RoPE Inspector" from the command
 * palette, the webview draws its four charts without CSP violations; choose YaRN and "Apply to
 * config" writes the quick fix's rope_scaling into the editor; a reload restores the panel through
 * the serializer. Screenshots go to test/artifacts/inspector-code-server/.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { cleanup, launchBrowser, makeDirs, screenshot, startCodeServer, stopCodeServer, CodeServerRun } from './codeServer';
import { CHROMIUM, ROOT, hasCodeServer } from './tools';

const ARTIFACTS = join(ROOT, 'test', 'artifacts', 'inspector-code-server');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'inspector', 'llama-2-7b.json');

function devUrl(run: CodeServerRun, workspace: string): string {
  const payload = [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${run.port}${ROOT}`]];
  return `${run.base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** The Inspector page inside VS Code's two webview iframes. */
function inspectorFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  // The palette lists the commands known when it opens; on a busy machine the extension's
  // contributions may land just after, so a palette without the row is closed and opened again.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await input.waitFor({ timeout: 30000 });
    await input.fill(`>${title}`);
    const found = await row.waitFor({ timeout: 15000 }).then(
      () => true,
      () => false,
    );
    if (found) break;
    if (attempt === 4) throw new Error(`the command palette never listed '${title}'`);
    await page.keyboard.press('Escape');
  }
  await page.keyboard.press('Enter');
}

describe('RoPE Inspector panel in code-server (VS Code 1.100.3)', function () {
  this.timeout(300000);

  it('opens from the command palette, draws, applies YaRN to the file, and is restored after a reload', async function () {
    const missing = !hasCodeServer()
      ? 'code-server not installed (bash test/e2e/install-code-server.sh)'
      : !CHROMIUM
        ? 'chromium not installed (apt-get install chromium)'
        : !existsSync(join(ROOT, 'dist', 'extension.js')) || !existsSync(join(ROOT, 'dist', 'media', 'inspector.js'))
          ? 'dist/ not built (npm run build)'
          : undefined;
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }

    const d = makeDirs('rope-lens-inspector-');
    let run: CodeServerRun | undefined;
    let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
    try {
      const ws = join(d.dir, 'ws');
      mkdirSync(join(ws, 'llama2'), { recursive: true });
      const file = join(ws, 'llama2', 'config.json');
      copyFileSync(FIXTURE, file);
      run = await startCodeServer(d, ws);
      browser = await launchBrowser(join(d.dir, 'profile'));
      const page = browser.pages()[0] ?? (await browser.newPage());
      const csp: string[] = [];
      const errors: string[] = [];
      page.on('console', (m) => {
        const t = m.text();
        if (/Content Security Policy|Refused to/.test(t)) csp.push(t);
        // Errors about the extension or its panel. Paths are left out of the match: they hold this test's
        // temporary folder (rope-lens-inspector-…), and the workbench's own errors name them too (its local
        // history write, cancelled by the reload, is one).
        if (m.type() === 'error' && /inspector|rope/i.test(t.replace(/[^\s'"()]*\/[^\s'"()]*/g, ''))) errors.push(t);
      });
      await page.goto(devUrl(run, ws));
      await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
      await page.getByRole('treeitem', { name: 'llama2' }).click();
      await page.getByRole('treeitem', { name: 'config.json' }).click();
      await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 30000 });
      await runCommand(page, 'RoPE Lens: Open RoPE Inspector');

      const frame = inspectorFrame(page);
      await frame.locator('#chart-validity canvas').first().waitFor({ timeout: 60000 });
      assert.equal(await frame.locator('.rl-chart').count(), 4);
      assert.equal(await frame.locator('.u-legend').count(), 4);
      assert.match((await frame.locator('.rl-summary').textContent()) ?? '', /original context 4,096 → target 16,384/);
      // The theme reached the page: VS Code's body class and variables.
      assert.match((await frame.locator('body').getAttribute('class')) ?? '', /vscode-(dark|light|high-contrast)/);
      await screenshot(page, ARTIFACTS, '01-inspector.png');

      // YaRN, then Apply: the quick fix's edit lands in the editor; save and read the file back.
      await frame.locator('#rl-method').selectOption('yarn');
      await frame.locator('#chart-rewrites figcaption', { hasText: 'Selected: YaRN' }).waitFor({ timeout: 30000 });
      await frame.locator('#rl-apply').click();
      try {
        await frame.locator('.rl-status', { hasText: 'Applied' }).waitFor({ timeout: 30000 });
      } catch (_e) {
        await screenshot(page, ARTIFACTS, '02-apply-failed.png');
        throw new Error(`Apply did not report success; status: ${await frame.locator('.rl-status').textContent()}`);
      }
      await screenshot(page, ARTIFACTS, '02-applied.png');
      await page.locator('.monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+S');
      // Waits for the saved file, whole (a save truncates then writes: a read can land between the two).
      const whole = (t: string) => {
        try {
          return JSON.parse(t) !== undefined;
        } catch {
          return false;
        }
      };
      let saved = '';
      for (let i = 0; i < 80 && !(/"yarn"/.test(saved) && whole(saved)); i++) {
        await page.waitForTimeout(250);
        saved = readFileSync(file, 'utf8');
      }
      const cfg = JSON.parse(saved);
      assert.deepEqual(cfg.rope_scaling, { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 });
      assert.match(saved, /"factor": 4\.0/);
      // The declared context follows the extension (transformers checks factor = mpe / original).
      assert.equal(cfg.max_position_embeddings, 16384);

      // Reload the workbench as a user does (Developer: Reload Window): unlike a browser reload it
      // runs the shutdown lifecycle, which flushes the stored editor layout before the page goes, so
      // the serializer finds the panel whatever the machine's load. Then wait for the new page.
      const reloaded = page.waitForEvent('load', { timeout: 120000 });
      await runCommand(page, 'Developer: Reload Window');
      await reloaded;
      await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
      try {
        await inspectorFrame(page).locator('#chart-wavelengths canvas').first().waitFor({ timeout: 120000 });
      } catch (e) {
        await screenshot(page, ARTIFACTS, '03-restore-failed.png');
        throw e;
      }
      assert.match((await inspectorFrame(page).locator('.rl-summary').textContent()) ?? '', /rope_type yarn/);
      await screenshot(page, ARTIFACTS, '03-restored.png');
      assert.deepEqual(csp, [], 'CSP violations in the webview');
      assert.deepEqual(errors, [], 'console errors');
    } finally {
      await browser?.close().catch(() => undefined);
      await stopCodeServer(run);
      cleanup(d.dir);
    }
  });

  it('plan: command palette → Plan context extension… → 65536 → the plan view marks a recommended row per stage', async function () {
    if (!hasCodeServer() || !CHROMIUM || !existsSync(join(ROOT, 'dist', 'media', 'inspector.js'))) {
      console.log('      skipped: code-server, chromium or dist/ missing');
      this.skip();
    }
    const d = makeDirs('rope-lens-plan-');
    let run: CodeServerRun | undefined;
    let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
    try {
      const ws = join(d.dir, 'ws');
      mkdirSync(ws, { recursive: true });
      copyFileSync(FIXTURE, join(ws, 'config.json'));
      run = await startCodeServer(d, ws);
      browser = await launchBrowser(join(d.dir, 'profile'));
      const page = browser.pages()[0] ?? (await browser.newPage());
      const csp: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/.test(m.text())) csp.push(m.text());
      });
      await page.goto(devUrl(run, ws));
      await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
      await page.getByRole('treeitem', { name: 'config.json' }).click();
      await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 30000 });
      await runCommand(page, 'RoPE Lens: Plan context extension…');
      // Input box 1: the target, proposed as 4 × the trained 4,096; type 65536.
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget', { hasText: 'Target context' }).waitFor({ timeout: 30000 });
      assert.equal(await input.inputValue(), '16384');
      await input.fill('65536');
      await page.keyboard.press('Enter');
      // Input box 2: stages (empty: one stage).
      await page.locator('.quick-input-widget', { hasText: 'Optional stages' }).waitFor({ timeout: 30000 });
      await page.keyboard.press('Enter');
      const frame = inspectorFrame(page);
      const marked = frame.locator('#plan-stage-0 tr.rl-recommended');
      await marked.first().waitFor({ timeout: 60000 });
      assert.equal(await marked.count(), 1);
      assert.match((await marked.textContent()) ?? '', /recommended/);
      await frame.locator('#chart-plan-0 canvas').first().waitFor({ timeout: 30000 });
      assert.match((await frame.locator('.rl-plan .rl-summary').textContent()) ?? '', /trained 4,096 → target 65,536/);
      // The plan view replaces the Inspector's charts (not drawn below them).
      assert.equal(await frame.locator('#chart-wavelengths').isVisible(), false);
      await screenshot(page, ARTIFACTS, '20-plan.png');
      assert.deepEqual(csp, [], 'CSP violations in the webview');
    } finally {
      await browser?.close().catch(() => undefined);
      await stopCodeServer(run);
      cleanup(d.dir);
    }
  });

  it('kernel benchmarks: command palette → size → Node run with progress → webview runs WebGL2 → table', async function () {
    if (!hasCodeServer() || !CHROMIUM || !existsSync(join(ROOT, 'dist', 'media', 'kernels.js'))) {
      console.log('      skipped: code-server, chromium or dist/ missing');
      this.skip();
    }
    const d = makeDirs('rope-lens-kbench-');
    let run: CodeServerRun | undefined;
    let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
    try {
      const ws = join(d.dir, 'ws');
      mkdirSync(ws, { recursive: true });
      copyFileSync(FIXTURE, join(ws, 'config.json'));
      run = await startCodeServer(d, ws);
      browser = await launchBrowser(join(d.dir, 'profile'));
      const page = browser.pages()[0] ?? (await browser.newPage());
      const csp: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/.test(m.text())) csp.push(m.text());
      });
      await page.goto(devUrl(run, ws));
      await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
      // Activate the extension (it starts on JSON files), then run the command.
      await page.getByRole('treeitem', { name: 'config.json' }).click();
      await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 30000 });
      await runCommand(page, 'RoPE Lens: Run Kernel Micro-benchmarks');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'small' }).first().waitFor({ timeout: 15000 });
      await page.keyboard.press('Enter');
      const frame = inspectorFrame(page);
      // Node rows first (from the extension host), then the webview's own WebGL2 rows.
      await frame.locator('.rl-table tbody tr td', { hasText: 'WebAssemblyKernel' }).first().waitFor({ timeout: 90000 });
      await screenshot(page, ARTIFACTS, '10-bench-node.png');
      await frame.locator('.rl-status', { hasText: /Done in|failed/ }).waitFor({ timeout: 120000 });
      const status = await frame.locator('.rl-status').textContent();
      assert.match(status ?? '', /Done in/);
      const backends = await frame.locator('.rl-table tbody tr td.mono').allTextContents();
      assert.ok(backends.includes('WebGL2Kernel'), `backends: ${backends.join(', ')}`);
      assert.ok(backends.includes('CPUKernel'));
      await screenshot(page, ARTIFACTS, '11-bench-done.png');
      assert.deepEqual(csp, [], 'CSP violations in the webview');
    } finally {
      await browser?.close().catch(() => undefined);
      await stopCodeServer(run);
      cleanup(d.dir);
    }
  });
});
