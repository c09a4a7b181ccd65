/**
 * The kernel-benchmark webview page in headless Chromium under the same strict CSP the extension
 * sets (nonce scripts, no 'unsafe-eval'): gpu.js runs the RoPE kernels on WebGL2, every kernel's
 * error against float64 is at float32 rounding, results reach the host as a message that passes
 * the host's validation, the table and the chart are drawn, and no CSP violation occurs.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy, makeNonce } from '../../shared/inspector/html';
import { parseBenchPageMessage } from '../../shared/kernelBench/messages';
import { runNodeKernelBench } from '../../server/cli/bench';
import { CHROMIUM_ARGS, watch } from './inspectorBrowser';
import { SCREEN_MARGIN } from '../../shared/gpu/fbKernel';

const ROOT = join(__dirname, '..', '..');
const MEDIA = join(ROOT, 'dist', 'media');
const ARTIFACTS = join(ROOT, 'test', 'artifacts');

describe('kernel benchmark page in headless Chromium (strict CSP, WebGL2)', function () {
  this.timeout(180000);

  it('runs the RoPE kernels on WebGL2 without eval, verifies them, reports to the host, draws table and chart', async function () {
    if (!existsSync('/usr/bin/chromium')) this.skip(); // reason: no /usr/bin/chromium
    if (!existsSync(join(MEDIA, 'kernels.js'))) this.skip(); // reason: dist/media not built
    const { chromium } = await import('playwright-core');
    const dir = mkdtempSync(join(tmpdir(), 'rope-lens-kernels-'));
    const nonce = makeNonce();
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">
<style nonce="${nonce}">${readFileSync(join(MEDIA, 'kernels.css'), 'utf8')}</style></head>
<body class="vscode-dark"><div id="app"></div>
<script nonce="${nonce}">${readFileSync(join(MEDIA, 'kernels.js'), 'utf8').replace(/<\/script/gi, '<\\/script')}</script></body></html>`;
    const file = join(dir, 'kernels.html');
    writeFileSync(file, html);
    mkdirSync(ARTIFACTS, { recursive: true });
    // The Node rows this page shows: gpu.js's, the CPU's and, where Dawn finds a hardware adapter, WebGPU's.
    // Dawn runs in this process (twice, as a user running the command twice would: the device is reused);
    // llvmpipe's rows run only when asked for, as here first.
    process.env.EGL_PLATFORM ??= 'surfaceless';
    const asked = await runNodeKernelBench({ size: 'small', warmup: 1, repeats: 1, only: 'webgpu' });
    if (!/no WebGPU/.test(asked.environment)) {
      const webgpu = asked.results.filter((r) => r.id.endsWith('-webgpu'));
      assert.equal(webgpu.length, 4, asked.environment);
      for (const r of webgpu) assert.ok(!r.error && r.medianMs > 0, `${r.id}: ${r.error}`);
    }
    const nodeRun = await runNodeKernelBench({ size: 'small', warmup: 1, repeats: 3 });
    const ctx = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1200, height: 900 },
    });
    try {
      const page = await ctx.newPage();
      await page.emulateMedia({ colorScheme: 'dark' });
      const w = await watch(page);
      const posted: unknown[] = [];
      await page.exposeFunction('__hostReceive', (m: unknown) => {
        posted.push(m);
      });
      // A string, not a function: tsx would wrap named arrows with a __name helper the page lacks.
      // VS Code's webview host sets the theme variables on <html> through the CSSOM (CSP allows that).
      await page.addInitScript({
        content: `window.acquireVsCodeApi = function () {
        return { postMessage: function (m) { window.__hostReceive(m); }, setState: function () {}, getState: function () {} };
      };
      document.addEventListener('DOMContentLoaded', function () {
        var vars = { '--vscode-editor-background': '#1f1f1f', '--vscode-editor-foreground': '#cccccc',
          '--vscode-charts-blue': '#3794ff', '--vscode-charts-orange': '#d18616', '--vscode-charts-lines': 'rgba(128,128,128,0.35)',
          '--vscode-descriptionForeground': '#9d9d9d', '--vscode-button-background': '#0078d4' };
        for (var k in vars) document.documentElement.style.setProperty(k, vars[k]);
      });`,
      });
      await page.goto(pathToFileURL(file).href);
      await page.evaluate(
        (run) => {
          window.postMessage({ type: 'node-results', run }, '*');
          window.postMessage({ type: 'start', size: 'small' }, '*');
        },
        JSON.parse(JSON.stringify(nodeRun)),
      );
      try {
        await page.waitForFunction(() => (window as any).__ropeLensBench?.webRun, undefined, { timeout: 150000 });
      } catch (_e) {
        await page.screenshot({ path: join(ARTIFACTS, 'kernels-webview-timeout.png'), fullPage: true });
        throw new Error(`no webview results; status: ${await page.textContent('.rl-status')}; console: ${w.console.join(' | ')}`);
      }
      await page.waitForTimeout(300);
      const results = posted.map(parseBenchPageMessage).filter((m) => m?.type === 'webview-results');
      assert.equal(results.length, 1, 'the host accepts the results message');
      const run = (results[0] as { run: { results: any[] } }).run;
      const gl = run.results.filter((r) => r.impl === 'gpu.js (webgl2)');
      assert.deepEqual(
        gl.map((r) => r.kind),
        ['rope', 'rope', 'fb-scan'],
        'both layouts and the f_b screen ran on gpu.js',
      );
      for (const r of gl) {
        assert.equal(r.error, undefined);
        assert.equal(r.backend, 'WebGL2Kernel');
        // RoPE: float32 rounding. f_b screen: float32 cosine sums of 64 terms; SwiftShader's cos is
        // coarser than headless-gl's (measured 1.4e-3 here); the screen's float64 re-check margin
        // (SCREEN_MARGIN) must stay above what the driver gets wrong.
        const bound = r.kind === 'rope' ? 5e-7 : SCREEN_MARGIN;
        assert.ok(r.maxAbsError < bound, `${r.label}: ${r.maxAbsError}`);
      }
      for (const r of run.results) assert.ok(!r.error, `${r.id}: ${r.error}`);
      const rowsShown = await page.$$eval('.rl-table tbody tr', (t) => t.length);
      assert.equal(rowsShown, nodeRun.results.length + run.results.length);
      const ink = await page.$eval('#chart-throughput canvas', (c) => {
        const cv = c as HTMLCanvasElement;
        const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
        let on = 0;
        for (let i = 3; i < d.length; i += 16) if (d[i] > 0) on++;
        return on / (d.length / 16);
      });
      assert.ok(ink > 0.01, `chart ink ${ink}`);
      await page.screenshot({ path: join(ARTIFACTS, 'kernels-webview-dark.png'), fullPage: true });
      assert.deepEqual(w.csp, [], 'CSP violations');
      assert.deepEqual(
        w.console.filter((m) => !/GL Driver Message|GPU stall/.test(m)),
        [],
      );
    } finally {
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
