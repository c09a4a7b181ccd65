/**
 * The Inspector's plan view: per stage, the options table (the recommended row marked, with its
 * reason), the wavelength curves of every option at that stage (uPlot), the trainer snippets, and
 * "Write this stage into <file>" for a training YAML. Every number comes from PlanViewData, which
 * the language server computed; this file only lays it out.
 */
import uPlot from 'uplot';
import type { PlanViewData, PlanViewStage } from '../../../shared/inspector/planTypes';
import { fmtCompact, fmtFixed, fmtInt } from '../../../shared/core/format';
import { NO_POINTS, PAIR_INCRS, axis, constant, linValues, logValues } from './charts';
import type { Palette } from './theme';
import { h } from '../dom';

export interface PlanChartProbe {
  id: string;
  series: string[];
  axes: string[];
}

export interface PlanViewHandlers {
  write(stage: number): void;
  back(): void;
}

function stageTable(plan: PlanViewData, s: PlanViewStage): HTMLElement {
  const head = h(
    'tr',
    {},
    ...['', 'method', 'setting', `L_max at ${fmtInt(s.length)}`, 'critical dim', 'attention factor', 'change'].map((t) => h('th', {}, t)),
  );
  const rows = s.rows.map((r) =>
    h(
      'tr',
      { class: r.recommended ? 'selected rl-recommended' : '', 'data-method': r.method },
      h('td', { title: r.recommended ? 'recommended' : '' }, r.recommended ? '★ recommended' : ''),
      h('td', {}, r.label + (r.tags.length ? ` (${r.tags.join(', ')})` : '')),
      h('td', { class: 'mono' }, r.setting),
      h('td', { class: r.meets ? 'rl-meets' : 'rl-short' }, r.meets ? 'meets' : r.bound),
      h('td', {}, `${r.criticalDim} / ${plan.rotaryDim}`),
      h('td', {}, fmtFixed(r.attentionFactor, 3)),
      h('td', {}, fmtFixed(r.change, 3)),
    ),
  );
  return h('table', { class: 'rl-plan-table', 'data-stage': String(s.index) }, h('thead', {}, head), h('tbody', {}, ...rows));
}

function stageChart(plan: PlanViewData, s: PlanViewStage, pal: Palette, width: number, target: HTMLElement): uPlot {
  const n = plan.dims.length;
  const series: uPlot.Series[] = [
    { label: 'pair i', value: (_u, v) => (v === null ? '–' : String(v)) },
    { label: 'trained', stroke: pal.muted, width: 1.5, dash: [3, 3], points: NO_POINTS, value: (_u, v) => fmtCompact(v) },
  ];
  const data: (number | null)[][] = [plan.dims, plan.trainedWavelengths];
  s.rows.forEach((r, k) => {
    series.push({
      label: r.recommended ? `★ ${r.label}` : r.label,
      stroke: pal.series[k % pal.series.length],
      width: r.recommended ? 3.5 : 1.25,
      show: r.recommended || r.method === 'as-shipped' || r.meets,
      points: NO_POINTS,
      value: (_u, v) => fmtCompact(v),
    });
    data.push(r.wavelengths);
  });
  series.push({ label: `stage ${fmtInt(s.length)}`, stroke: pal.red, width: 1, dash: [2, 3], points: NO_POINTS, value: (_u, v) => fmtInt(v) });
  data.push(constant(n, s.length));
  series.push({ label: `trained ${fmtInt(plan.trainedContext)}`, stroke: pal.orange, width: 1, dash: [6, 4], points: NO_POINTS, value: (_u, v) => fmtInt(v) });
  data.push(constant(n, plan.trainedContext));
  const opts: uPlot.Options = {
    width,
    height: 280,
    scales: { x: { time: false }, y: { distr: 3, log: 10 } },
    series,
    axes: [{ ...axis(pal, 'dimension pair i', linValues), incrs: PAIR_INCRS }, axis(pal, 'wavelength 2π/θ′ (tokens, log)', logValues, 60)],
    legend: { show: true },
    cursor: { drag: { x: true, y: false } },
  };
  return new uPlot(opts, data as uPlot.AlignedData, target);
}

function snippets(s: PlanViewStage): HTMLElement {
  const box = h('details', { class: 'rl-plan-snippets' }, h('summary', {}, 'Trainer snippets'));
  for (const sn of s.snippets) {
    box.append(h('h4', {}, sn.trainer));
    if (sn.note) box.append(h('p', { class: 'rl-note' }, sn.note));
    if (sn.yaml) box.append(h('pre', { class: 'mono' }, sn.yaml));
  }
  return box;
}

/** Draws the plan into `box`; returns the plots (for resizing and disposal) and what the tests read. */
export function renderPlanView(
  box: HTMLElement,
  plan: PlanViewData,
  pal: Palette,
  width: number,
  on: PlanViewHandlers,
): { plots: uPlot[]; charts: PlanChartProbe[] } {
  const back = h('button', { type: 'button', class: 'secondary', id: 'rl-plan-back' }, 'Back to the Inspector');
  back.addEventListener('click', () => on.back());
  const scaling = plan.shippedScaling ? `, ships ${plan.shippedScaling} scaling` : '';
  box.replaceChildren(
    h(
      'header',
      { class: 'rl-header' },
      h('h1', {}, 'Context-extension plan · ', h('span', { class: 'rl-model' }, plan.source.label)),
      h(
        'p',
        { class: 'rl-summary' },
        `${plan.model} (${plan.from}) · base ${fmtCompact(plan.base)} · rotary dim ${plan.rotaryDim}${scaling} · trained ${fmtInt(plan.trainedContext)} → target ${fmtInt(plan.target)} in ${plan.stages.length} stage${plan.stages.length > 1 ? 's' : ''}: ${plan.stages.map((s) => fmtInt(s.length)).join(' → ')}`,
      ),
      ...plan.notes.map((n) => h('p', { class: 'rl-note' }, n)),
      back,
    ),
  );
  const plots: uPlot[] = [];
  const charts: PlanChartProbe[] = [];
  for (const s of plan.stages) {
    const section = h(
      'section',
      { class: 'rl-plan-stage rl-table', id: `plan-stage-${s.index}` },
      h('h2', {}, `Stage ${s.index + 1}: ${fmtInt(s.length)} tokens (s = ${fmtFixed(s.factor, 3)})`),
      stageTable(plan, s),
      h('p', { class: s.recommended ? 'rl-plan-reason' : 'rl-warning' }, `${s.recommendedLabel ? `Recommended: ${s.recommendedLabel}. ` : ''}${s.reason}`),
    );
    if (plan.writeTarget) {
      const btn = h('button', { type: 'button', class: 'rl-plan-write', 'data-stage': String(s.index) }, `Write this stage into ${plan.writeTarget.fileLabel}`);
      if (!s.writable) {
        btn.setAttribute('disabled', '');
        btn.title = s.snippets.find((x) => x.trainer === plan.writeTarget!.trainer)?.note ?? `No ${plan.writeTarget.trainer} snippet for this stage`;
      }
      btn.addEventListener('click', () => on.write(s.index));
      section.append(btn);
    }
    const fig = h('figure', { class: 'rl-chart', id: `chart-plan-${s.index}` }, h('h3', {}, `Wavelengths at stage ${s.index + 1}`));
    const target = h('div', { class: 'rl-plot' });
    fig.append(
      target,
      h(
        'figcaption',
        {},
        `2π/θ′ per pair for each option at ${fmtInt(s.length)} tokens; the recommended option is drawn thick, options that fall short of the bound start hidden (click the legend). Pairs whose wavelength stays above the stage length never complete a period in it.`,
      ),
    );
    section.append(fig, snippets(s));
    box.append(section);
    const plot = stageChart(plan, s, pal, width, target);
    plots.push(plot);
    charts.push({ id: `plan-${s.index}`, series: plot.series.slice(1).map((x) => String(x.label ?? '')), axes: plot.axes.map((a) => String(a.label ?? '')) });
  }
  return { plots, charts };
}
