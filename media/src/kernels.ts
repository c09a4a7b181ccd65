/**
 * Kernel micro-benchmark page (VS Code webview). Shows the Node run the extension made, runs the
 * same cases here on gpu.js's WebGL2 backend (beside plain TypeScript in this page), with progress
 * and cancel, then draws a results table and a throughput chart. gpu.js's WebGL2 path compiles
 * shaders, not JavaScript, so the page keeps the strict CSP (no 'unsafe-eval'); where WebGL2 is
 * missing, gpu.js would fall back to its CPU mode, which needs eval: that case is reported and
 * skipped instead.
 */
import 'uplot/dist/uPlot.min.css';
import '../kernels.css';
import uPlot from 'uplot';
import { GPU } from 'gpu.js';
import { runBenchmarks, BenchRun, CaseResult } from '../../shared/kernelBench/runner';
import { allCases, benchConfig, GpuChoice } from '../../shared/kernelBench/cases';
import type { BenchHostMessage, BenchPageMessage } from '../../shared/kernelBench/messages';
import { readPalette, watchTheme } from './inspector/theme';
import { fmtCompact } from '../../shared/core/format';
import { h } from './dom';

interface VsCodeApi {
  postMessage(m: BenchPageMessage): void;
  setState(s: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode: VsCodeApi | undefined = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;

interface Probe {
  nodeRun: BenchRun | null;
  webRun: BenchRun | null;
  rendered: number;
  errors: string[];
}
const probe: Probe = { nodeRun: null, webRun: null, rendered: 0, errors: [] };
(window as unknown as { __ropeLensBench: Probe }).__ropeLensBench = probe;

const app = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
const status = h('div', { class: 'rl-status', role: 'status', 'aria-live': 'polite' });
const bar = h('progress', { max: '1', value: '0', class: 'rl-progress' });
const runBtn = h('button', { type: 'button', id: 'rl-run' }, 'Run in this webview');
const cancelBtn = h('button', { type: 'button', id: 'rl-cancel', class: 'secondary' }, 'Cancel');
const exportBtn = h('button', { type: 'button', id: 'rl-export', class: 'secondary' }, 'Export JSON');
const sizeSel = h('select', { id: 'rl-size', 'aria-label': 'Size' }, h('option', { value: 'small' }, 'small'), h('option', { value: 'medium' }, 'medium'));
const chartBox = h('figure', { class: 'rl-chart', id: 'chart-throughput' });
const tableBox = h('section', { class: 'rl-table' });
cancelBtn.disabled = true;
app.append(
  h('h1', {}, 'RoPE Lens · Kernel micro-benchmarks'),
  h(
    'p',
    { class: 'rl-summary' },
    'RoPE apply (rotate-half and interleaved layouts) and the f_b(m) scan: gpu.js kernels beside plain TypeScript, each checked against a float64 reference. Node results come from the extension host; the webview runs the same cases on WebGL2.',
  ),
  h('div', { class: 'rl-controls' }, h('label', {}, 'Size ', sizeSel), runBtn, cancelBtn, exportBtn, bar),
  status,
  chartBox,
  tableBox,
);

function setStatus(t: string, error = false): void {
  status.textContent = t;
  status.className = `rl-status${error ? ' error' : ''}`;
}

/* ---------- rendering ---------- */

let plot: uPlot | undefined;

function fmt(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return fmtCompact(Number(v.toPrecision(digits)));
}

function rows(where: string, run: BenchRun | null): { where: string; r: CaseResult }[] {
  return run ? run.results.map((r) => ({ where, r })) : [];
}

function render(): void {
  const all = [...rows('Node', probe.nodeRun), ...rows('WebView', probe.webRun)];
  const head = h(
    'tr',
    {},
    ...['where', 'kernel', 'implementation', 'backend that ran', 'median ms (IQR %)', 'elements/s', 'GB/s', '× memcpy', 'max |err| vs float64'].map((t) =>
      h('th', {}, t),
    ),
  );
  const body = all.map(({ where, r }) =>
    h(
      'tr',
      {},
      h('td', {}, where),
      h('td', {}, r.label),
      h('td', {}, r.impl),
      h('td', { class: 'mono' }, r.backend),
      h('td', {}, r.error ? `error: ${r.error}` : `${fmt(r.medianMs)} (±${fmt(r.spreadPct, 2)}%)`),
      h('td', {}, fmt(r.elementsPerSec)),
      h('td', {}, fmt(r.gbPerSec)),
      h('td', {}, fmt(r.ratioToMemcpy, 2)),
      h('td', {}, r.maxAbsError === null ? '–' : `${r.maxAbsError.toExponential(2)}`),
    ),
  );
  const envs = [probe.nodeRun, probe.webRun]
    .filter((x): x is BenchRun => !!x)
    .map((r) =>
      h(
        'p',
        { class: 'rl-note' },
        `${r === probe.nodeRun ? 'Node' : 'WebView'}: ${r.environment}; memory copy ${fmt(r.memcpyGBs)} GB/s; warm-up ${r.settings.warmup}, repeats ${r.settings.repeats}${r.cancelled ? '; cancelled' : ''}`,
      ),
    );
  tableBox.replaceChildren(h('h2', {}, 'Results'), ...envs, h('table', {}, h('thead', {}, head), h('tbody', {}, ...body)));
  drawChart(all.filter(({ r }) => !r.error && Number.isFinite(r.elementsPerSec)));
  probe.rendered++;
}

function drawChart(items: { where: string; r: CaseResult }[]): void {
  plot?.destroy();
  plot = undefined;
  chartBox.replaceChildren(h('h2', {}, 'Throughput (elements/s, log scale)'));
  if (items.length === 0) return;
  const pal = readPalette();
  const target = h('div', { class: 'rl-plot' });
  chartBox.append(
    target,
    h('figcaption', {}, h('ol', { class: 'rl-cases' }, ...items.map((it) => h('li', {}, `${it.where} · ${it.r.label} · ${it.r.impl} (${it.r.backend})`)))),
  );
  const xs = items.map((_, i) => i + 1);
  const node = items.map((it) => (it.where === 'Node' ? it.r.elementsPerSec : null));
  const web = items.map((it) => (it.where === 'WebView' ? it.r.elementsPerSec : null));
  const bars = uPlot.paths.bars!({ size: [0.7, 60] });
  plot = new uPlot(
    {
      width: Math.max(360, Math.min(1100, app.clientWidth - 24)),
      height: 320,
      scales: { x: { time: false, range: [0.5, items.length + 0.5] }, y: { distr: 3, log: 10 } },
      axes: [
        {
          label: 'case #',
          stroke: pal.fg,
          grid: { show: false },
          ticks: { stroke: pal.grid },
          incrs: [1],
          values: (_u, s) => s.map((v) => (Number.isInteger(v) ? String(v) : '')),
          font: `11px ${pal.font}`,
          labelFont: `bold 12px ${pal.font}`,
        },
        {
          label: 'elements / s',
          stroke: pal.fg,
          grid: { stroke: pal.grid },
          ticks: { stroke: pal.grid },
          size: 60,
          values: (_u, s) => s.map((v) => (v === null ? '' : fmtCompact(v))),
          font: `11px ${pal.font}`,
          labelFont: `bold 12px ${pal.font}`,
        },
      ],
      series: [
        { label: 'case' },
        { label: 'Node', stroke: pal.blue, fill: pal.blue, paths: bars, points: { show: false }, value: (_u, v) => fmt(v) },
        { label: 'WebView (WebGL2 / JS)', stroke: pal.orange, fill: pal.orange, paths: bars, points: { show: false }, value: (_u, v) => fmt(v) },
      ],
      legend: { show: true },
    },
    [xs, node, web] as uPlot.AlignedData,
    target,
  );
}

/* ---------- running in the webview ---------- */

let signal: { aborted: boolean } | undefined;

async function runHere(size: 'small' | 'medium'): Promise<void> {
  if (signal) return;
  signal = { aborted: false };
  runBtn.disabled = true;
  cancelBtn.disabled = false;
  const gpus: GpuChoice[] = [];
  let gpu: GPU | undefined;
  let note = '';
  if (GPU.isWebGL2Supported) {
    gpu = new GPU({ mode: 'webgl2' });
    gpus.push({ label: 'gpu.js (webgl2)', gpu });
  } else {
    note = 'no WebGL2 in this webview: gpu.js would fall back to its CPU mode, which needs eval, so only TypeScript ran';
  }
  const cfg = benchConfig(size);
  const gl = document.createElement('canvas').getContext('webgl2');
  const dbg = gl?.getExtension('WEBGL_debug_renderer_info');
  const renderer = gl && dbg ? String(gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL)) : gl ? 'WebGL2' : 'no WebGL2';
  try {
    setStatus('Running…');
    probe.webRun = await runBenchmarks(
      allCases(cfg, gpus),
      { warmup: 2, repeats: 7 },
      `${navigator.userAgent.match(/(Chrome|Electron|Code)\/[\d.]+/g)?.join(' ') ?? 'browser'}; ${renderer}${note ? '; ' + note : ''}`,
      {
        now: () => performance.now(),
        signal,
        onProgress: (done, total, label) => {
          bar.value = total ? done / total : 0;
          setStatus(`${done}/${total} · ${label}`);
        },
        yieldToUi: () => new Promise((r) => setTimeout(r, 0)),
      },
    );
    setStatus(probe.webRun.cancelled ? 'Cancelled.' : `Done in ${(probe.webRun.totalMs / 1000).toFixed(1)} s.`);
    vscode?.postMessage({ type: 'webview-results', run: probe.webRun });
    render();
  } catch (e) {
    probe.errors.push(String(e));
    setStatus(`Benchmark failed: ${(e as Error).message}`, true);
  } finally {
    void gpu?.destroy();
    signal = undefined;
    runBtn.disabled = false;
    cancelBtn.disabled = true;
    bar.value = 1;
  }
}

runBtn.addEventListener('click', () => void runHere(sizeSel.value === 'medium' ? 'medium' : 'small'));
cancelBtn.addEventListener('click', () => {
  if (signal) signal.aborted = true;
  setStatus('Cancelling…');
});
exportBtn.addEventListener('click', () => vscode?.postMessage({ type: 'export' }));

window.addEventListener('message', (ev: MessageEvent) => {
  const m = ev.data as BenchHostMessage;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'node-results') {
    probe.nodeRun = m.run;
    if (m.note) setStatus(m.note);
    render();
  } else if (m.type === 'start') {
    sizeSel.value = m.size;
    void runHere(m.size);
  }
});
watchTheme(() => render());
render();
vscode?.postMessage({ type: 'ready' });
