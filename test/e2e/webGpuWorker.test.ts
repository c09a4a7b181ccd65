/**
 * The web build's b* worker (dist/web/bstarWorker.js) in Chromium, on the browser's own WebGPU:
 * headless Chromium with --enable-unsafe-webgpu offers SwiftShader's adapter to a worker. The worker
 * is served from 127.0.0.1 (a secure context, as vscode.dev is) and asked robust-base questions with
 * ropeLens.bound.backend "gpu" (screened on the adapter), "cpu" and "auto" (SwiftShader is a software
 * rasterizer, so the CPU, with the reason logged); every answer must be the same. A second browser
 * with --disable-gpu has no adapter: the worker says so and answers on the CPU. Waits on the worker's
 * messages, never on time. Skipped with the reason without chromium, the build, or an adapter.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, ROOT } from './tools';
import { adapterOf } from './webGpu';
import { runBoundJob } from '../../server/web/boundJobs';

const WORKER = join(ROOT, 'dist', 'web', 'bstarWorker.js');
type Answer = { value: number | null; error?: string; log: string[] };
/** (candidate, d, L): two refused and one proven neighbourhood, as in the Node GPU tests. */
const QUESTIONS = [
  [13000, 128, 2048],
  [26000, 128, 2048],
  [66000, 128, 6000],
] as const;
/** The same questions answered here in Node, by the CPU job code the worker bundles. */
const nodeAnswers = () => QUESTIONS.map(([candidate, headDim, length]) => runBoundJob({ kind: 'robust', candidate, headDim, length }, { aborted: false }));

/** Serves an empty page and the built worker from 127.0.0.1. */
async function serve(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/bstarWorker.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      return res.end(readFileSync(WORKER));
    }
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>b* worker</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

async function openPage(args: string[], url: string): Promise<{ browser: Browser; page: Page }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', ...args] });
  const page = await browser.newPage();
  await page.goto(url);
  return { browser, page };
}

/** Robust jobs for QUESTIONS on one fresh b* worker with this backend: answers and log lines. */
function askWorker(page: Page, backend: string): Promise<Answer[]> {
  return page.evaluate(
    async ({ questions, backend }) => {
      const w = new Worker('/bstarWorker.js');
      const out: { value: number | null; error?: string; log: string[] }[] = [];
      let id = 0;
      for (const [candidate, headDim, length] of questions) {
        const my = ++id;
        const log: string[] = [];
        out.push(
          await new Promise((resolve) => {
            w.onmessage = ({ data }) => {
              if (data.id !== my) return;
              if (data.type === 'log') log.push(data.line);
              if (data.type === 'result') resolve({ value: data.value, log });
              if (data.type === 'error') resolve({ value: null, error: data.message, log });
            };
            w.postMessage({ id: my, job: { kind: 'robust', candidate, headDim, length, backend } });
          }),
        );
      }
      w.terminate();
      return out;
    },
    { questions: QUESTIONS as unknown as number[][], backend },
  );
}

describe("the web b* worker on the browser's WebGPU (Chromium, SwiftShader)", function () {
  this.timeout(300_000);
  let served: { server: Server; url: string } | undefined;
  const browsers: Browser[] = [];
  before(async function () {
    const missing = !CHROMIUM ? 'chromium not installed (apt-get install chromium)' : !existsSync(WORKER) ? 'dist/web not built (node esbuild.mjs)' : undefined;
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    served = await serve();
  });
  after(async () => {
    for (const b of browsers) await b.close().catch(() => undefined);
    served?.server.close();
  });

  it('"gpu" screens on the adapter, "cpu" and "auto" do not, and all three answer alike', async function () {
    const { browser, page } = await openPage(['--enable-unsafe-webgpu'], served!.url);
    browsers.push(browser);
    const adapter = await adapterOf(page);
    if (!adapter.startsWith('adapter:')) {
      console.log(`      skipped: ${adapter}`);
      this.skip();
    }
    const gpu = await askWorker(page, 'gpu');
    const cpu = await askWorker(page, 'cpu');
    const auto = await askWorker(page, 'auto');
    for (const a of [...gpu, ...cpu, ...auto]) assert.equal(a.error, undefined);
    assert.deepEqual(
      gpu.map((a) => a.value),
      cpu.map((a) => a.value),
      'GPU-screened answers differ from the CPU',
    );
    assert.deepEqual(
      auto.map((a) => a.value),
      cpu.map((a) => a.value),
    );
    assert.deepEqual(
      cpu.map((a) => a.value),
      nodeAnswers(),
      "the browser's answers differ from Node's",
    );
    assert.ok(gpu.map((a) => a.value).includes(null) && gpu.some((a) => a.value !== null), 'the questions include proven and refused neighbourhoods');
    const gpuLog = gpu.flatMap((a) => a.log).join('\n');
    if (/exceeds half the proven bound/.test(gpuLog)) {
      console.log(`      ${adapter}: ${gpuLog} (answered on the CPU)`);
    } else {
      assert.match(gpuLog, /screened on the browser's GPU/, `${adapter}: ${gpuLog}`);
    }
    assert.equal(cpu.flatMap((a) => a.log).length, 0, 'the CPU backend never opens the GPU');
    if (/swiftshader|llvmpipe/i.test(adapter)) assert.match(auto.flatMap((a) => a.log).join('\n'), /software rasterizer/);
  });

  it('without an adapter (--disable-gpu) the worker says why and answers on the CPU', async () => {
    const { browser, page } = await openPage(['--disable-gpu'], served!.url);
    browsers.push(browser);
    const gpu = await askWorker(page, 'gpu');
    const lines = gpu.flatMap((a) => a.log).join('\n');
    assert.match(lines, /neighbourhood proofs on the CPU: (navigator\.gpu offered no adapter|this browser exposes no navigator\.gpu)/);
    assert.deepEqual(
      gpu.map((a) => a.value),
      nodeAnswers(),
    );
  });
});
