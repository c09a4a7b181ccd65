/**
 * `npm run screenshots`: the five pictures of the README and docs/ pages, taken from the current build in a real VS Code
 * workbench (code-server 4.100.3 with this repository as a development extension, driven by
 * playwright-core and Debian's chromium, as test/e2e/inspectorCodeServer.test.ts does), so they show
 * what a user meets today and cannot go stale silently:
 *
 *   quick-fix.png  Llama-3-8B's config with max_position_embeddings raised to 65,536 (no scaling):
 *                  the rope/context-extended warning and its quick fixes, each with its verdict;
 *   hover.png      the RoPE hover on rope_theta of the same file;
 *   inspector.png  the RoPE Inspector beside a Llama-2 config;
 *   plan.png       the plan view for Llama-2 to 65,536 tokens;
 *   launch.png     examples/serve-qwen2.5-128k.sh: the llama-server command's two warnings squiggled
 *                  and the quick-fix menu for both (the selection spans `"$CTX" --rope-scale 4`).
 *
 * Each step waits for what its picture must show (the fix titles, the hover's heading, the charts,
 * the recommended row) and fails loudly otherwise. Writes media/screenshots/*.png.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { cleanup, launchBrowser, makeDirs, startCodeServer, stopCodeServer, CodeServerRun } from './codeServer';
import { CHROMIUM, ROOT, hasCodeServer } from './tools';

const OUT = join(ROOT, 'media', 'screenshots');
const FAILED = join(ROOT, 'test', 'artifacts', 'screenshots');
const LLAMA3 = join(ROOT, 'examples', 'llama-3-8b.config.json');
const LLAMA2 = join(ROOT, 'test', 'fixtures', 'inspector', 'llama-2-7b.json');
const SCRIPT = join(ROOT, 'examples', 'serve-qwen2.5-128k.sh');
const VIEWPORT = { width: 1440, height: 860 };

function devUrl(run: CodeServerRun, workspace: string): string {
  const payload = [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${run.port}${ROOT}`]];
  return `${run.base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function webview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

async function command(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await input.waitFor({ timeout: 30000 });
    await input.fill(`>${title}`);
    if (
      await row.waitFor({ timeout: 15000 }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (attempt === 4) throw new Error(`the command palette never listed '${title}'`);
    await page.keyboard.press('Escape');
  }
  await page.keyboard.press('Enter');
}

/** Opens a file from the explorer and waits for its text. */
async function open(page: Page, name: string): Promise<void> {
  await page.getByRole('treeitem', { name }).click();
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 30000 });
}

/** Puts the cursor on line:column of the active editor (Go to Line accepts both). */
async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 15000 });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
}

function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`'${needle}' not in the file`);
  return i + 1;
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, name) });
  console.log(`wrote media/screenshots/${name}`);
}

async function main(): Promise<void> {
  if (!hasCodeServer()) throw new Error('code-server is not installed: bash test/e2e/install-code-server.sh');
  if (!CHROMIUM) throw new Error('chromium is not installed: apt-get install -y chromium');
  if (!existsSync(join(ROOT, 'dist', 'extension.js')) || !existsSync(join(ROOT, 'dist', 'media', 'inspector.js')))
    throw new Error('dist/ is not built: npm run build');

  const d = makeDirs('rope-lens-screenshots-');
  let run: CodeServerRun | undefined;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    // The workspace: Llama-3-8B's config with its context raised 8× (the classic mistake), Llama-2,
    // and the example launch script.
    const ws = join(d.dir, 'ws');
    mkdirSync(join(ws, 'llama-3-8b-65k'), { recursive: true });
    mkdirSync(join(ws, 'llama-2-7b'), { recursive: true });
    const raised = readFileSync(LLAMA3, 'utf8').replace('"max_position_embeddings": 8192', '"max_position_embeddings": 65536');
    if (!raised.includes('65536')) throw new Error('the Llama-3-8B example no longer has max_position_embeddings 8192');
    writeFileSync(join(ws, 'llama-3-8b-65k', 'config.json'), raised);
    copyFileSync(LLAMA2, join(ws, 'llama-2-7b', 'config.json'));
    mkdirSync(join(ws, 'launch'), { recursive: true });
    copyFileSync(SCRIPT, join(ws, 'launch', 'serve-qwen2.5-128k.sh'));
    const script = readFileSync(SCRIPT, 'utf8');

    run = await startCodeServer(d, ws);
    browser = await launchBrowser(join(d.dir, 'profile'));
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.setViewportSize(VIEWPORT);
    await page.goto(devUrl(run, ws));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });

    // 1. The finding and its quick fixes, on the raised context.
    await page.getByRole('treeitem', { name: 'llama-3-8b-65k' }).click();
    await open(page, 'config.json');
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 60000 });
    const mpeLine = lineOf(raised, '"max_position_embeddings"');
    await goTo(page, mpeLine, raised.split('\n')[mpeLine - 1].indexOf('65536') + 2);
    await page.keyboard.press('Control+.');
    const fixes = page.locator('.action-widget');
    await fixes.locator('text=Add YaRN scaling').first().waitFor({ timeout: 30000 });
    await fixes.locator('text=Apply NTK scaling').first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    await shoot(page, 'quick-fix.png');
    await page.keyboard.press('Escape');

    // 2. The hover on rope_theta.
    const thetaLine = lineOf(raised, '"rope_theta"');
    await goTo(page, thetaLine, raised.split('\n')[thetaLine - 1].indexOf('rope_theta') + 3);
    await command(page, 'Show or Focus Hover');
    await page.locator('.monaco-hover', { hasText: 'RoPE base' }).first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    await shoot(page, 'hover.png');
    await page.keyboard.press('Escape');

    // 3. The Inspector beside Llama-2's config (the only editor left open; no side bar, so the panel is wide).
    await command(page, 'View: Close All Editors');
    await command(page, 'View: Toggle Primary Side Bar Visibility');
    await command(page, 'Go to File');
    await page.locator('.quick-input-widget input').fill('llama-2-7b/config.json');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'llama-2-7b' }).first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-breadcrumbs', { hasText: 'llama-2-7b' }).first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000);
    await command(page, 'RoPE Lens: Open RoPE Inspector');
    const inspector = webview(page);
    await inspector.locator('#chart-validity canvas').first().waitFor({ timeout: 90000 });
    await inspector.locator('#chart-wavelengths canvas').first().waitFor({ timeout: 30000 });
    await inspector.locator('.rl-summary', { hasText: 'original context 4,096' }).first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500);
    await shoot(page, 'inspector.png');

    // 4. The plan view: Llama-2 to 65,536 tokens, one stage.
    // The command works on the active JSON editor: focus the config's text again.
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await command(page, 'RoPE Lens: Plan context extension…');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget', { hasText: 'Target context' }).waitFor({ timeout: 30000 });
    await input.fill('65536');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Optional stages' }).waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    const plan = webview(page);
    await plan.locator('#plan-stage-0 tr.rl-recommended').first().waitFor({ timeout: 90000 });
    await plan.locator('#chart-plan-0 canvas').first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500);
    await shoot(page, 'plan.png');

    // 5. The launch script: llama-server's -c above the GGUF's context and --rope-scale without
    // --rope-scaling, both squiggled, and the quick fixes of both. The side bar comes back, as in 1.
    await command(page, 'View: Close All Editors');
    await command(page, 'View: Toggle Primary Side Bar Visibility');
    await command(page, 'Go to File');
    await page.locator('.quick-input-widget input').fill('serve-qwen2.5-128k.sh');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'serve-qwen2.5-128k.sh' }).first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-breadcrumbs', { hasText: 'serve-qwen2.5-128k.sh' }).first().waitFor({ timeout: 30000 });
    // Both warnings are on the page (the shell grammar loads asynchronously, then the file is re-checked).
    await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .squiggly-warning').length >= 2, undefined, { timeout: 60000 });
    const llamaLine = lineOf(script, 'llama-server -m');
    const lineText = script.split('\n')[llamaLine - 1];
    const from = lineText.indexOf('"$CTX"');
    const to = lineText.indexOf('--rope-scale 4') + '--rope-scale 4'.length;
    await goTo(page, llamaLine, from + 1);
    for (let i = from; i < to; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Control+.');
    const launchFixes = page.locator('.action-widget');
    for (const title of ['Use YaRN: --rope-scaling yarn', 'Lift the cap: --override-kv', 'Set -c to 32768']) {
      await launchFixes.locator('.monaco-list-row', { hasText: title }).first().waitFor({ timeout: 30000 });
    }
    await page.waitForTimeout(500);
    await shoot(page, 'launch.png');
  } catch (e) {
    // What the workbench showed when a step failed, for whoever runs this next.
    const page = browser?.pages()[0];
    if (page) {
      mkdirSync(FAILED, { recursive: true });
      await page.screenshot({ path: join(FAILED, 'failed.png') }).catch(() => undefined);
      console.error('the workbench at the failure: test/artifacts/screenshots/failed.png');
    }
    throw e;
  } finally {
    await browser?.close().catch(() => undefined);
    await stopCodeServer(run);
    cleanup(d.dir);
  }
}

main().catch((e) => {
  console.error(`screenshots: ${(e as Error).message}`);
  process.exitCode = 1;
});
