/**
 * Renders the standalone Inspector export of real configs in headless Chromium (Debian's
 * /usr/bin/chromium through playwright-core): every chart drawn (canvas pixels sampled), axes and
 * legends present, no console errors, no CSP violations, light and dark themes. Screenshots go to
 * test/artifacts/ for a person to look at.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, watch } from './inspectorBrowser';
import { findMediaDir, standaloneHtml } from '../../server/cli/inspect';

const ROOT = join(__dirname, '..', '..');
const FIX = join(ROOT, 'test', 'fixtures', 'inspector');
const ARTIFACTS = join(ROOT, 'test', 'artifacts');

/** Share of sampled canvas pixels that differ from the most common colour (the background). */
async function inkFraction(page: Page, selector: string): Promise<number[]> {
  return page.$$eval(selector, (canvases) =>
    (canvases as HTMLCanvasElement[]).map((c) => {
      const ctx = c.getContext('2d')!;
      const { data } = ctx.getImageData(0, 0, c.width, c.height);
      const counts = new Map<number, number>();
      let n = 0;
      for (let i = 0; i < data.length; i += 4 * 7) {
        const key = (data[i] << 24) ^ (data[i + 1] << 16) ^ (data[i + 2] << 8) ^ data[i + 3];
        counts.set(key, (counts.get(key) ?? 0) + 1);
        n++;
      }
      const top = Math.max(...counts.values());
      return (n - top) / n;
    }),
  );
}

const CONFIGS = [
  { file: 'llama-3.1-8b.json', name: 'llama31' },
  { file: 'qwen2.5-7b-instruct-yarn.json', name: 'qwen25-yarn' },
  { file: 'llama-2-7b.json', name: 'llama2' },
  { file: 'phi-3-vision-128k-longrope.json', name: 'phi3-longrope' },
];

describe('RoPE Inspector standalone export in headless Chromium', function () {
  this.timeout(180000);
  let ctx: BrowserContext | undefined;
  let profile = '';
  let pages: Record<string, string> = {};

  before(async function () {
    if (!existsSync(CHROMIUM)) this.skip(); // reason: no /usr/bin/chromium on this machine (apt-get install chromium)
    try {
      findMediaDir();
    } catch {
      this.skip();
    } // reason: dist/media not built (npm test builds it first)
    const { chromium } = await import('playwright-core');
    mkdirSync(ARTIFACTS, { recursive: true });
    const out = mkdtempSync(join(tmpdir(), 'rope-lens-inspector-'));
    profile = join(out, 'profile');
    pages = {};
    for (const c of CONFIGS) {
      const p = join(out, `${c.name}.html`);
      writeFileSync(p, standaloneHtml(join(FIX, c.file), {}));
      pages[c.name] = pathToFileURL(p).href;
    }
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1200, height: 900 },
    });
  });

  after(async () => {
    await ctx?.close();
    if (profile) rmSync(join(profile, '..'), { recursive: true, force: true });
  });

  for (const c of CONFIGS) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${c.name} (${theme}): four charts drawn with axes and legends, no errors, no CSP violations`, async () => {
        const page = await ctx!.newPage();
        await page.emulateMedia({ colorScheme: theme });
        const w = await watch(page);
        await page.goto(pages[c.name]);
        await page.waitForFunction(() => (window as any).__ropeLens?.rendered >= 1, undefined, { timeout: 30000 });
        const probe = await page.evaluate(() => (window as any).__ropeLens);
        assert.deepEqual(probe.errors, []);
        assert.equal(probe.theme, theme);
        assert.deepEqual(
          probe.charts.map((x: { id: string }) => x.id),
          ['wavelengths', 'rewrites', 'fb', 'validity'],
        );
        for (const ch of probe.charts) {
          assert.equal(ch.axes.length, 2, `${ch.id}: two axes`);
          assert.ok(
            ch.axes.every((a: string) => a.length > 0),
            `${ch.id}: axis labels`,
          );
          assert.ok(ch.series.length >= 3, `${ch.id}: series`);
        }
        const ink = await inkFraction(page, '.rl-chart canvas');
        assert.equal(ink.length, 4);
        ink.forEach((f, i) => assert.ok(f > 0.01, `chart ${i} looks blank (${(f * 100).toFixed(2)}% ink)`));
        const legends = await page.$$eval('.u-legend', (ls) => ls.map((l) => l.textContent ?? ''));
        assert.equal(legends.length, 4);
        assert.match(legends[0], /wavelength/);
        assert.match(legends[1], /YaRN/);
        assert.match(legends[2], /min f/);
        assert.match(legends[3], /L_max/);
        // The page background follows the theme.
        const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const lum =
          bg
            .match(/\d+/g)!
            .slice(0, 3)
            .map(Number)
            .reduce((a, b) => a + b, 0) / 3;
        assert.ok(theme === 'dark' ? lum < 80 : lum > 180, `background ${bg} for ${theme}`);
        await page.screenshot({ path: join(ARTIFACTS, `inspector-${c.name}-${theme}.png`), fullPage: true });
        assert.deepEqual(w.csp, [], 'CSP violations');
        assert.deepEqual(w.console, [], 'console errors');
        await page.close();
      });
    }
  }

  it('redraws on a theme change (VS Code swapping to high contrast) with the new colours', async () => {
    const page = await ctx!.newPage();
    const w = await watch(page);
    await page.goto(pages['qwen25-yarn']);
    await page.waitForFunction(() => (window as any).__ropeLens?.rendered >= 1);
    const before = await page.evaluate(() => (window as any).__ropeLens.rendered);
    // What VS Code does on a theme switch: body class and the inline variables on <html>.
    await page.evaluate(() => {
      const vars: Record<string, string> = {
        '--vscode-editor-background': '#000000',
        '--vscode-editor-foreground': '#ffffff',
        '--vscode-charts-blue': '#00ffff',
        '--vscode-charts-lines': '#ffffff',
        '--vscode-contrastBorder': '#6fc3df',
      };
      for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      document.body.classList.add('vscode-high-contrast');
    });
    await page.waitForFunction((n) => (window as any).__ropeLens.rendered > n, before);
    assert.equal(await page.evaluate(() => (window as any).__ropeLens.theme), 'high-contrast');
    // The wavelength curve is now drawn in the theme's cyan: look for it on the first canvas.
    const cyan = await page.$eval('#chart-wavelengths canvas', (c) => {
      const cv = c as HTMLCanvasElement;
      const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 40 && d[i + 1] > 215 && d[i + 2] > 215) n++;
      return n;
    });
    assert.ok(cyan > 200, `cyan pixels: ${cyan}`);
    await page.screenshot({ path: join(ARTIFACTS, 'inspector-qwen25-yarn-high-contrast.png'), fullPage: true });
    assert.deepEqual(w.csp, []);
    assert.deepEqual(w.console, []);
    await page.close();
  });

  it('the CSP is enforced: no eval, no un-nonced script, no remote load', async () => {
    const page = await ctx!.newPage();
    const w = await watch(page);
    await page.goto(pages.llama31);
    await page.waitForFunction(() => (window as any).__ropeLens?.rendered >= 1);
    const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    assert.match(csp!, /default-src 'none'/);
    assert.ok(!/unsafe-eval|unsafe-inline|https?:/.test(csp!), csp!);
    const probe = await page.evaluate(async () => {
      // Eval checks are suspended while a DevTools evaluation is on the stack: try eval from a timer
      // set by a page script that carries the page's own nonce (allowed to run), so only eval is at stake.
      const ok = document.createElement('script');
      ok.nonce = (document.querySelector('script[nonce]') as HTMLScriptElement).nonce;
      ok.textContent =
        'setTimeout(function () { try { new Function("return 1")(); window.__evalRan = true; } catch (e) { window.__evalBlocked = true; } }, 0);';
      document.body.appendChild(ok);
      const s = document.createElement('script');
      s.textContent = '(window as any).__injected = 1'.replace(' as any', '');
      document.body.appendChild(s);
      const img = document.createElement('img');
      img.src = 'https://example.invalid/x.png';
      document.body.appendChild(img);
      await new Promise((r) => setTimeout(r, 300));
      const evalBlocked = (window as any).__evalBlocked === true && (window as any).__evalRan !== true;
      return {
        evalBlocked,
        injected: (window as any).__injected === 1,
        ran: (window as any).__evalRan,
        blocked: (window as any).__evalBlocked,
        nonce: ok.nonce?.length,
      };
    });
    assert.equal(probe.evalBlocked, true, `eval is blocked: ${JSON.stringify(probe)}`);
    assert.equal(probe.injected, false, 'un-nonced inline script is blocked');
    assert.ok(
      w.csp.some((v) => /script-src/.test(v)),
      `violations seen: ${w.csp.join('; ')}`,
    );
    assert.ok(
      w.csp.some((v) => /img-src/.test(v) && /example\.invalid/.test(v)),
      `violations seen: ${w.csp.join('; ')}`,
    );
    await page.close();
  });

  it('GPU check: the gpu.js screen on WebGL2 agrees with the float64 validity scan, under the strict CSP', async () => {
    const page = await ctx!.newPage();
    const w = await watch(page);
    await page.goto(pages.llama2);
    await page.waitForFunction(() => (window as any).__ropeLens?.rendered >= 1);
    await page.click('#rl-gpu-check');
    await page.waitForFunction(
      () => {
        const g = (window as any).__ropeLens.gpuCheck;
        return g.result || g.error;
      },
      undefined,
      { timeout: 120000 },
    );
    const g = await page.evaluate(() => (window as any).__ropeLens.gpuCheck);
    assert.equal(g.error, undefined);
    assert.equal(g.result.kernel, 'WebGL2Kernel');
    assert.ok(g.result.total > 20);
    assert.equal(g.result.agree, g.result.total, `bases where the GPU screen and float64 differ: ${g.result.disagree.join(', ')}`);
    assert.match((await page.textContent('#rl-gpu-result'))!, /agree with the float64 scan/);
    await page.screenshot({ path: join(ARTIFACTS, 'inspector-llama2-gpu-check.png'), fullPage: true });
    assert.deepEqual(w.csp, []);
    assert.deepEqual(
      w.console.filter((m) => !/GL Driver Message|GPU stall/.test(m)),
      [],
    );
    await page.close();
  });

  it('standalone controls recompute in the page (method, target, base) without errors', async () => {
    const page = await ctx!.newPage();
    const w = await watch(page);
    await page.goto(pages.llama2);
    await page.waitForFunction(() => (window as any).__ropeLens?.rendered >= 1);
    await page.selectOption('#rl-method', 'ntk');
    await page.waitForFunction(() => (window as any).__ropeLens.rendered >= 2);
    await page.fill('#rl-target', '32768');
    await page.dispatchEvent('#rl-target', 'change');
    await page.waitForFunction(() => /×8\.000/.test(document.querySelector('.rl-summary')?.textContent ?? ''));
    const summary = await page.textContent('.rl-summary');
    assert.match(summary!, /target 32,768 \(×8\.000\)/);
    await page.fill('#rl-base', '500000');
    await page.dispatchEvent('#rl-base', 'change');
    await page.waitForFunction(() => /Base 500k/.test(document.querySelector('#chart-fb figcaption')?.textContent ?? ''));
    await page.fill('#rl-target', '-3');
    await page.dispatchEvent('#rl-target', 'change');
    await page.waitForFunction(() => /integer/.test(document.querySelector('.rl-status')?.textContent ?? ''));
    await page.screenshot({ path: join(ARTIFACTS, 'inspector-llama2-controls.png'), fullPage: true });
    assert.deepEqual(w.csp, []);
    assert.deepEqual(w.console, []);
    await page.close();
  });
});
