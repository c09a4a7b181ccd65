/**
 * RoPE Inspector page. Runs in two places with the same code:
 *  - a VS Code webview: data arrives from the extension through typed messages; control changes and
 *    "Apply to config" go back as messages that the extension validates;
 *  - the standalone export (`rope-lens inspect --html`): the data and the model's RopeSpec are
 *    embedded in the file, and control changes are recomputed in the page by the same shared
 *    builder the extension uses.
 * No RoPE formula lives here: every number is computed by shared/ (rope, bstar, inspector).
 */
import 'uplot/dist/uPlot.min.css';
import '../inspector.css';
import uPlot from 'uplot';
import type { HostMessage, InspectorControls, InspectorData, InspectorState, PageMessage, RewriteMethod } from '../../shared/inspector/types';
import { REWRITE_LABELS } from '../../shared/inspector/types';
import type { InspectorInput } from '../../shared/inspector/build';
import { buildInspectorData } from '../../shared/inspector/build';
import { ChartSpec, fbChart, rewritesChart, validityChart, wavelengthChart } from './inspector/charts';
import { fmtCompact, fmtFixed, fmtInt } from '../../shared/core/format';
import { readPalette, watchTheme } from './inspector/theme';
import { gpuValidityControl, lastGpuCheck } from './inspector/gpuValidity';
import { h } from './dom';
import type { PlanViewData } from '../../shared/inspector/planTypes';
import { renderPlanView, type PlanChartProbe } from './inspector/planView';

interface VsCodeApi {
  postMessage(msg: PageMessage): void;
  getState(): unknown;
  setState(s: InspectorState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface EmbeddedPayload {
  data?: InspectorData;
  input?: InspectorInput;
  plan?: PlanViewData;
}

/** What the Chromium tests read back: which charts exist and whether drawing finished. */
interface PlanProbe {
  rendered: number;
  stages: { length: number; recommended: string | null; rows: { method: string; recommended: boolean }[] }[];
  charts: PlanChartProbe[];
}
interface PageProbe {
  rendered: number;
  charts: { id: string; series: string[]; axes: string[] }[];
  errors: string[];
  theme: string;
  gpuCheck: typeof lastGpuCheck;
  view: string;
  plan: PlanProbe;
}
const probe: PageProbe = {
  rendered: 0,
  charts: [],
  errors: [],
  theme: '',
  gpuCheck: lastGpuCheck,
  view: 'inspector',
  plan: { rendered: 0, stages: [], charts: [] },
};
(window as unknown as { __ropeLens: PageProbe }).__ropeLens = probe;

const vscode: VsCodeApi | undefined = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;

function readPayload(): EmbeddedPayload {
  const el = document.getElementById('rope-lens-data');
  if (!el?.textContent) return {};
  try {
    return JSON.parse(el.textContent) as EmbeddedPayload;
  } catch (e) {
    probe.errors.push(`embedded data unreadable: ${(e as Error).message}`);
    return {};
  }
}

const payload = readPayload();
let current: InspectorData | undefined = payload.data;
let currentPlan: PlanViewData | undefined = payload.plan;
let view: 'inspector' | 'plan' = payload.plan ? 'plan' : 'inspector';
let planPlots: uPlot[] = [];
const hiddenRewrites = new Set<string>();
let plots: uPlot[] = [];

/* ---------- layout ---------- */

const app = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
const header = h('header', { class: 'rl-header' });
const status = h('div', { class: 'rl-status', role: 'status', 'aria-live': 'polite' });
const methodSel = h('select', { id: 'rl-method', 'aria-label': 'Rewrite method' });
const targetIn = h('input', { id: 'rl-target', type: 'number', min: '16', step: '1', 'aria-label': 'Target context length' });
const factorOut = h('span', { class: 'rl-factor' });
const baseIn = h('input', { id: 'rl-base', type: 'number', min: '1', step: 'any', 'aria-label': 'Base (rope_theta) for f_b(m)' });
const applyBtn = h(
  'button',
  { id: 'rl-apply', type: 'button', title: 'Write this rewrite into the config (the same edit as the quick fix)' },
  'Apply to config',
);
const exportBtn = h('button', { id: 'rl-export', type: 'button', class: 'secondary' }, 'Export JSON');
const planBtn = h('button', { id: 'rl-show-plan', type: 'button', class: 'secondary', hidden: '' }, 'Show plan');
const controls = h(
  'form',
  { class: 'rl-controls', autocomplete: 'off' },
  h('label', {}, 'Method ', methodSel),
  h('label', {}, 'Target length ', targetIn, ' ', factorOut),
  h('label', {}, 'Base for f_b ', baseIn),
  applyBtn,
  exportBtn,
  planBtn,
);
const chartsBox = h('main', { class: 'rl-charts' });
const tableBox = h('section', { class: 'rl-table' });
const consumersBox = h('section', { class: 'rl-table rl-consumers', id: 'rl-consumers' });
const planBox = h('div', { class: 'rl-plan', id: 'rl-plan', hidden: '' });
app.append(header, controls, status, chartsBox, tableBox, consumersBox, planBox);
if (!vscode) {
  applyBtn.hidden = true;
  exportBtn.hidden = true;
}

for (const [m, label] of Object.entries(REWRITE_LABELS)) methodSel.append(h('option', { value: m }, label));

/** A result the user should read (Applied…, Saved…) stays until their next action. */
let stickyStatus = false;

function setStatus(text: string, kind: 'info' | 'error' = 'info', sticky = false): void {
  status.textContent = text;
  status.className = `rl-status ${kind}`;
  stickyStatus = sticky;
}

/** New data clears progress lines, not a result the user has not acted on yet. */
function clearTransientStatus(): void {
  if (!stickyStatus) setStatus('');
}

/* ---------- rendering ---------- */

function renderHeader(d: InspectorData): void {
  header.replaceChildren(
    h('h1', {}, 'RoPE Inspector · ', h('span', { class: 'rl-model' }, d.source.label)),
    h(
      'p',
      { class: 'rl-summary' },
      `${d.ropeType === 'default' ? 'no rope_scaling' : `rope_type ${d.ropeType}`} · base ${fmtCompact(d.base)} · rotary dim ${d.rotaryDim} of head dim ${d.headDim} · ` +
        `original context ${fmtInt(d.originalLength)} → target ${fmtInt(d.targetLength)} (×${fmtFixed(d.factor, 3)})`,
    ),
    ...(d.groups?.length ? [h('ul', { class: 'rl-groups' }, ...d.groups.map((g) => h('li', {}, g)))] : []),
    ...d.warnings.map((w) => h('p', { class: 'rl-warning' }, w)),
    ...(d.notes.length ? [h('p', { class: 'rl-note' }, d.notes.join(' · '))] : []),
  );
}

function renderControls(d: InspectorData): void {
  const avail = new Set(d.rewrites.filter((r) => r.available).map((r) => r.method));
  for (const opt of Array.from(methodSel.options)) {
    const r = d.rewrites.find((x) => x.method === opt.value);
    opt.disabled = !avail.has(opt.value as RewriteMethod);
    opt.title = r?.reason ?? '';
  }
  methodSel.value = d.controls.method;
  // Never overwrite a field the user is typing in (a slower, older result may arrive meanwhile).
  if (document.activeElement !== targetIn) targetIn.value = String(d.targetLength);
  factorOut.textContent = `×${fmtFixed(d.factor, 3)} of ${fmtInt(d.originalLength)}`;
  if (document.activeElement !== baseIn) baseIn.value = String(d.fb.base);
  const canApply = d.applicable.some((a) => a.method === d.controls.method);
  applyBtn.disabled = !canApply;
  applyBtn.title = canApply ? d.applicable.find((a) => a.method === d.controls.method)!.title : 'No quick fix writes this rewrite for this file';
}

function renderTable(d: InspectorData): void {
  const head = h(
    'tr',
    {},
    ...['rewrite', 'available', 'factor', 'base', 'attention factor', `L_max (< ${fmtInt(d.targetLength)})`, 'pairs with a full period', 'rope_scaling'].map(
      (t) => h('th', {}, t),
    ),
  );
  const rows = [d.original, ...d.rewrites].map((r) =>
    h(
      'tr',
      { class: r.method === d.controls.method ? 'selected' : '' },
      h('td', {}, r === d.original ? 'original (unscaled)' : r.label),
      h('td', {}, r.available ? 'yes' : `no: ${r.reason ?? ''}`),
      h('td', {}, r.factor !== undefined ? fmtFixed(r.factor, 3) : '–'),
      h('td', {}, r.base !== undefined ? fmtCompact(r.base) : '–'),
      h('td', {}, r.available ? fmtFixed(r.attentionFactor, 4) : '–'),
      h('td', {}, !r.available ? '–' : r.lmax === null ? 'none (valid)' : fmtInt(r.lmax)),
      h('td', {}, r.available ? `${r.fullPeriodDims.length} / ${d.dims.length}` : '–'),
      h('td', { class: 'mono' }, r.configText ?? ''),
    ),
  );
  tableBox.replaceChildren(h('h2', {}, 'Rewrites at the target length'), h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows)));
}

/** How each consumer reads the file; cells that differ from transformers 5's reading are marked. */
function renderConsumers(d: InspectorData): void {
  const t = d.consumers;
  if (!t?.rows.length) {
    consumersBox.replaceChildren();
    consumersBox.hidden = true;
    return;
  }
  consumersBox.hidden = false;
  const head = h('tr', {}, ...t.columns.map((c) => h('th', {}, c)));
  const rows = t.rows.map((r) =>
    h('tr', { title: r.detail.join(' · ') }, ...r.cells.map((v, i) => h('td', r.differs.includes(i) ? { class: 'rl-differs' } : {}, v))),
  );
  const notes = t.rows.filter((r) => r.differs.length && r.detail.length).map((r) => h('p', { class: 'rl-note' }, `${r.cells[0]}: ${r.detail[0]}`));
  consumersBox.replaceChildren(h('h2', {}, 'How each consumer reads this file'), h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows)), ...notes);
}

function chartWidth(box: HTMLElement = chartsBox): number {
  return Math.max(320, Math.min(1100, box.clientWidth - 24));
}

function renderCharts(d: InspectorData): void {
  for (const p of plots) p.destroy();
  plots = [];
  chartsBox.replaceChildren();
  probe.charts = [];
  const pal = readPalette();
  probe.theme = pal.kind;
  const specs: ChartSpec[] = [wavelengthChart(d, pal), rewritesChart(d, pal, hiddenRewrites), fbChart(d, pal)];
  const v = validityChart(d, pal);
  if (v) specs.push(v);
  const width = chartWidth();
  for (const spec of specs) {
    const box = h('figure', { class: 'rl-chart', id: `chart-${spec.id}` }, h('h2', {}, spec.title));
    const target = h('div', { class: 'rl-plot' });
    box.append(target, h('figcaption', {}, spec.caption));
    chartsBox.append(box);
    const plot = new uPlot({ ...spec.opts, width, height: 300 } as uPlot.Options, spec.data, target);
    if (spec.id === 'rewrites') trackLegendToggles(plot, d);
    if (spec.id === 'validity' && d.validity) box.append(gpuValidityControl(d.validity));
    plots.push(plot);
    probe.charts.push({
      id: spec.id,
      series: plot.series.slice(1).map((s) => String(s.label ?? '')),
      axes: plot.axes.map((a) => String(a.label ?? '')),
    });
  }
  if (!d.validity) chartsBox.append(h('p', { class: 'rl-note' }, 'Validity around b* was not computed for this view.'));
  probe.rendered++;
}

/** Remember which rewrites the user hid in plot (b), so a redraw keeps them hidden. */
function trackLegendToggles(plot: uPlot, d: InspectorData): void {
  const shown = d.rewrites.filter((r) => r.available);
  plot.hooks.setSeries = [
    (_u: uPlot, idx: number | null) => {
      if (idx === null) return;
      const r = shown[idx - 2];
      if (!r) return;
      if (plot.series[idx].show) hiddenRewrites.delete(r.method);
      else hiddenRewrites.add(r.method);
    },
  ];
}

function render(d: InspectorData): void {
  current = d;
  try {
    renderHeader(d);
    renderControls(d);
    renderCharts(d);
    renderTable(d);
    renderConsumers(d);
    saveState();
  } catch (e) {
    probe.errors.push((e as Error).message);
    setStatus(`Could not draw the plots: ${(e as Error).message}`, 'error');
  }
}

/* ---------- plan view ---------- */

function saveState(): void {
  const uri = current?.source.uri ?? currentPlan?.source.uri;
  vscode?.setState({ uri, ...(current ? { controls: current.controls } : {}), view, ...(currentPlan ? { plan: currentPlan.request } : {}) });
}

function renderPlan(p: PlanViewData): void {
  for (const x of planPlots) x.destroy();
  try {
    const r = renderPlanView(planBox, p, readPalette(), chartWidth(planBox), {
      write: (stage) => {
        vscode?.postMessage({ type: 'plan-write', stage });
        setStatus('Writing the stage…');
      },
      back: () => showView('inspector'),
    });
    planPlots = r.plots;
    probe.plan = {
      rendered: probe.plan.rendered + 1,
      stages: p.stages.map((s) => ({
        length: s.length,
        recommended: s.recommended,
        rows: s.rows.map((x) => ({ method: x.method, recommended: x.recommended })),
      })),
      charts: r.charts,
    };
  } catch (e) {
    probe.errors.push((e as Error).message);
    setStatus(`Could not draw the plan: ${(e as Error).message}`, 'error');
  }
}

/** Switches between the Inspector and the plan view; the choice survives a reload (page state). */
function showView(v: 'inspector' | 'plan'): void {
  view = v === 'plan' && currentPlan ? 'plan' : 'inspector';
  probe.view = view;
  for (const el of [header, controls, chartsBox, tableBox]) el.hidden = view === 'plan';
  planBox.hidden = view !== 'plan';
  planBtn.hidden = !currentPlan || view === 'plan';
  if (view === 'plan') renderPlan(currentPlan!);
  else if (current) renderCharts(current);
  saveState();
}

planBtn.addEventListener('click', () => showView('plan'));

/* ---------- data source ---------- */

function readControls(): InspectorControls | string {
  if (!current) return 'no data yet';
  const target = Number(targetIn.value);
  if (!Number.isInteger(target) || target < 16) return 'Target length must be an integer ≥ 16.';
  const base = baseIn.value.trim() === '' ? undefined : Number(baseIn.value);
  if (base !== undefined && (!Number.isFinite(base) || base <= 1)) return 'Base must be a number > 1.';
  return { method: methodSel.value as RewriteMethod, targetLength: target, base };
}

/** Only the newest request may draw: an older computation finishing late is dropped. */
let requestSeq = 0;

function standaloneUpdate(c: InspectorControls): void {
  if (!payload.input) {
    setStatus('This export has no model description embedded; controls are read-only.', 'error');
    return;
  }
  setStatus('Computing…');
  const seq = ++requestSeq;
  // Let the status paint before the (synchronous) computation.
  setTimeout(() => {
    if (seq !== requestSeq) return;
    try {
      render(buildInspectorData(payload.input!, c));
      setStatus('');
    } catch (e) {
      setStatus((e as Error).message, 'error');
    }
  }, 10);
}

function onControlsChanged(): void {
  const c = readControls();
  if (typeof c === 'string') {
    requestSeq++;
    setStatus(c, 'error');
    return;
  }
  if (vscode) {
    setStatus('Computing…');
    vscode.postMessage({ type: 'update', controls: c });
  } else {
    standaloneUpdate(c);
  }
}

methodSel.addEventListener('change', onControlsChanged);
targetIn.addEventListener('change', onControlsChanged);
baseIn.addEventListener('change', onControlsChanged);
controls.addEventListener('submit', (e) => {
  e.preventDefault();
  onControlsChanged();
});
applyBtn.addEventListener('click', () => {
  const c = readControls();
  if (typeof c === 'string') {
    setStatus(c, 'error');
    return;
  }
  vscode?.postMessage({ type: 'apply', controls: c });
  setStatus('Applying…');
});
exportBtn.addEventListener('click', () => vscode?.postMessage({ type: 'export-json' }));

window.addEventListener('message', (ev: MessageEvent) => {
  const msg = ev.data as HostMessage;
  if (!msg || typeof msg !== 'object') return;
  switch (msg.type) {
    case 'data':
      render(msg.data);
      clearTransientStatus();
      break;
    case 'busy':
      if (!stickyStatus) setStatus(msg.what);
      break;
    case 'error':
      setStatus(msg.message, 'error');
      break;
    case 'applied':
      setStatus(msg.message, msg.ok ? 'info' : 'error', true);
      break;
    case 'plan':
      currentPlan = msg.plan;
      showView('plan');
      clearTransientStatus();
      break;
  }
});

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    const w = chartWidth();
    for (const p of plots) p.setSize({ width: w, height: 300 });
    const pw = chartWidth(planBox);
    for (const p of planPlots) p.setSize({ width: pw, height: 280 });
  }, 100);
});
watchTheme(() => {
  if (view === 'plan' && currentPlan) renderPlan(currentPlan);
  else if (current) renderCharts(current);
});

if (current) render(current);
if (currentPlan) showView('plan');
if (!current && !currentPlan) setStatus(vscode ? 'Waiting for data…' : 'No data embedded in this page.', vscode ? 'info' : 'error');
vscode?.postMessage({ type: 'ready' });
