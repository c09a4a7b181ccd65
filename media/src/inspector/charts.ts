/**
 * The four Inspector plots as uPlot charts. Every number drawn comes from InspectorData (computed
 * by the shared core); this file only maps it onto axes, series and markers.
 */
import uPlot from 'uplot';
import type { InspectorData, RewriteCurve } from '../../../shared/inspector/types';
import { fmtCompact, fmtFixed, fmtInt } from '../../../shared/core/format';
import { Palette, withAlpha } from './theme';

export interface Marker {
  x: number;
  label: string;
  color: string;
  dash?: number[];
}
export interface Shade {
  from: number;
  to: number;
  color: string;
}

/** Draws vertical markers (critical dimension, L_max, b*, threshold) and shaded x ranges. */
function markersPlugin(markers: Marker[], shades: Shade[], pal: Palette): uPlot.Plugin {
  return {
    hooks: {
      drawClear: [
        (u: uPlot) => {
          const { ctx } = u;
          const { top, height } = u.bbox;
          ctx.save();
          for (const s of shades) {
            const x0 = u.valToPos(s.from, 'x', true);
            const x1 = u.valToPos(s.to, 'x', true);
            ctx.fillStyle = s.color;
            ctx.fillRect(Math.min(x0, x1), top, Math.max(2, Math.abs(x1 - x0)), height);
          }
          ctx.restore();
        },
      ],
      draw: [
        (u: uPlot) => {
          const { ctx } = u;
          const { left, top, width, height } = u.bbox;
          ctx.save();
          const px = devicePixelRatio || 1;
          ctx.font = `${11 * px}px ${pal.font}`;
          markers.forEach((m, k) => {
            const x = u.valToPos(m.x, 'x', true);
            if (!Number.isFinite(x) || x < left - 1 || x > left + width + 1) return;
            ctx.strokeStyle = m.color;
            ctx.lineWidth = 1.5 * px;
            ctx.setLineDash((m.dash ?? [4, 3]).map((d) => d * px));
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
            ctx.setLineDash([]);
            ctx.fillStyle = m.color;
            const tw = ctx.measureText(m.label).width;
            const tx = x + 4 * px + tw > left + width ? x - 4 * px - tw : x + 4 * px;
            ctx.fillText(m.label, tx, top + (14 + 13 * k) * px);
          });
          ctx.restore();
        },
      ],
    },
  };
}

export function axis(pal: Palette, label: string, values: uPlot.Axis.Values, size?: number): uPlot.Axis {
  const a: uPlot.Axis = {
    label,
    stroke: pal.fg,
    font: `11px ${pal.font}`,
    labelFont: `bold 12px ${pal.font}`,
    grid: { stroke: pal.grid, width: 1 },
    ticks: { stroke: pal.grid, width: 1 },
    values,
  };
  // uPlot copies keys as given: an explicit `size: undefined` would erase its default.
  if (size !== undefined) a.size = size;
  return a;
}

export const NO_POINTS = { show: false };
/** Pair indices are integers: tick steps of whole pairs only. */
export const PAIR_INCRS = [1, 2, 4, 5, 8, 10, 16, 20, 32, 50, 64, 100, 128, 256];

// uPlot hands null for ticks its log filter leaves unlabelled.
const tickText = (v: number | null): string => (v === null || !Number.isFinite(v) ? '' : fmtCompact(v));
/** Log axes: label the powers of ten only, so minor ticks stay unlabelled. */
export const logValues: uPlot.Axis.Values = (_u, splits) =>
  splits.map((v) => {
    if (v === null || !(v > 0)) return '';
    const e = Math.log10(v);
    return Math.abs(e - Math.round(e)) < 1e-9 ? fmtCompact(v) : '';
  });
export const linValues: uPlot.Axis.Values = (_u, splits) => splits.map(tickText);

export function constant(n: number, v: number): number[] {
  return new Array<number>(n).fill(v);
}

export interface ChartSpec {
  id: string;
  title: string;
  caption: string;
  opts: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
}

/** (a) Wavelength 2π/θᵢ per pair index with the original and target contexts. */
export function wavelengthChart(d: InspectorData, pal: Palette): ChartSpec {
  const n = d.dims.length;
  const full = new Set(d.fullPeriodDims);
  const marks = d.original.wavelengths.map((w, i) => (full.has(i) ? w : null));
  const markers: Marker[] = [];
  if (d.criticalDim !== null) {
    markers.push({ x: d.criticalDim, label: `critical dim i=${d.criticalDim} (channel ${2 * d.criticalDim})`, color: pal.purple });
  }
  return {
    id: 'wavelengths',
    title: 'a · Wavelength per dimension',
    caption: `2π/θᵢ for base ${fmtCompact(d.base)}, rotary dim ${d.rotaryDim}. ${d.fullPeriodDims.length} of ${n} pairs complete a full period within the original ${fmtInt(d.originalLength)} tokens.`,
    data: [d.dims, d.original.wavelengths, constant(n, d.originalLength), constant(n, d.targetLength), marks] as uPlot.AlignedData,
    opts: {
      scales: { x: { time: false }, y: { distr: 3, log: 10 } },
      series: [
        { label: 'pair i', value: (_u, v) => (v === null ? '–' : String(v)) },
        { label: 'wavelength', stroke: pal.blue, width: 2, points: NO_POINTS, value: (_u, v) => fmtCompact(v) },
        { label: `original ${fmtInt(d.originalLength)}`, stroke: pal.orange, width: 1.5, dash: [6, 4], points: NO_POINTS, value: (_u, v) => fmtInt(v) },
        { label: `target ${fmtInt(d.targetLength)}`, stroke: pal.red, width: 1.5, dash: [2, 3], points: NO_POINTS, value: (_u, v) => fmtInt(v) },
        {
          label: 'saw a full period',
          stroke: pal.green,
          width: 0,
          fill: undefined,
          points: { show: true, size: 6, fill: pal.green, stroke: pal.green },
          paths: () => null,
          value: (_u, v) => (v === null ? 'no' : 'yes'),
        },
      ],
      axes: [{ ...axis(pal, 'dimension pair i', linValues), incrs: PAIR_INCRS }, axis(pal, 'wavelength (tokens, log)', logValues, 60)],
      plugins: [markersPlugin(markers, [], pal)],
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
    },
  };
}

function rewriteLabel(r: RewriteCurve): string {
  const attn = Math.abs(r.attentionFactor - 1) > 1e-9 ? ` · attn ×${fmtFixed(r.attentionFactor, 3)}` : '';
  return `${r.label}${attn}`;
}

/** (b) Wavelengths after each rewrite, overlaid; the selected method is drawn thicker. */
export function rewritesChart(d: InspectorData, pal: Palette, hidden: Set<string>): ChartSpec {
  const n = d.dims.length;
  const shown = d.rewrites.filter((r) => r.available);
  const series: uPlot.Series[] = [
    { label: 'pair i', value: (_u, v) => (v === null ? '–' : String(v)) },
    { label: 'original', stroke: pal.muted, width: 1.5, dash: [3, 3], points: NO_POINTS, value: (_u, v) => fmtCompact(v) },
  ];
  const data: (number | null)[][] = [d.dims, d.original.wavelengths];
  shown.forEach((r, k) => {
    const focused = r.method === d.controls.method;
    series.push({
      label: rewriteLabel(r),
      stroke: pal.series[k % pal.series.length],
      width: focused ? 3.5 : 1.5,
      show: focused || !hidden.has(r.method),
      points: NO_POINTS,
      value: (_u, v) => fmtCompact(v),
    });
    data.push(r.wavelengths);
  });
  series.push({ label: `target ${fmtInt(d.targetLength)}`, stroke: pal.red, width: 1, dash: [2, 3], points: NO_POINTS, value: (_u, v) => fmtInt(v) });
  data.push(constant(n, d.targetLength));
  const focus = d.rewrites.find((r) => r.method === d.controls.method);
  return {
    id: 'rewrites',
    title: 'b · Wavelength after each rewrite',
    caption: `Factor ${fmtFixed(d.factor, 3)} (${fmtInt(d.originalLength)} → ${fmtInt(d.targetLength)}). Selected: ${focus ? rewriteLabel(focus) : d.controls.method}. Click legend entries to show or hide.`,
    data: data as uPlot.AlignedData,
    opts: {
      scales: { x: { time: false }, y: { distr: 3, log: 10 } },
      series,
      axes: [{ ...axis(pal, 'dimension pair i', linValues), incrs: PAIR_INCRS }, axis(pal, 'wavelength (tokens, log)', logValues, 60)],
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
    },
  };
}

/** (c) f(m) over [0, target): min/max per bucket and the first negative crossing. */
export function fbChart(d: InspectorData, pal: Palette): ChartSpec {
  const fb = d.fb;
  const n = fb.m.length;
  const markers: Marker[] = [];
  if (fb.lmax !== null) markers.push({ x: fb.lmax, label: `L_max = ${fmtInt(fb.lmax)}`, color: pal.red });
  if (d.originalLength < fb.length) markers.push({ x: d.originalLength, label: `original ${fmtInt(d.originalLength)}`, color: pal.orange, dash: [6, 4] });
  return {
    id: 'fb',
    title: 'c · f_b(m) = Σᵢ cos(m·θᵢ)',
    caption:
      fb.lmax === null
        ? `Base ${fmtCompact(fb.base)}: f stays ≥ 0 for every m < ${fmtInt(fb.length)}.`
        : `Base ${fmtCompact(fb.base)}: first negative at m = ${fmtInt(fb.lmax)} (L_max), inside the target ${fmtInt(fb.length)}.`,
    data: [fb.m, fb.max, fb.min, constant(n, 0)] as uPlot.AlignedData,
    opts: {
      scales: { x: { time: false }, y: {} },
      series: [
        { label: 'm', value: (_u, v) => (v === null ? '–' : fmtInt(v)) },
        { label: 'max f', stroke: pal.blue, width: 1, points: NO_POINTS, value: (_u, v) => fmtFixed(v, 3) },
        { label: 'min f', stroke: pal.blue, width: 1, points: NO_POINTS, value: (_u, v) => fmtFixed(v, 3) },
        { label: 'zero', stroke: pal.red, width: 1, dash: [4, 4], points: NO_POINTS, value: () => '0' },
      ],
      bands: [{ series: [1, 2], fill: withAlpha(pal.blue, 0.3) }],
      axes: [axis(pal, 'relative position m', linValues), axis(pal, 'f_b(m)', linValues, 50)],
      plugins: [markersPlugin(markers, [], pal)],
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
    },
  };
}

/** (d) L_max(b) for bases around b*, valid islands shaded, b* and the threshold marked. */
export function validityChart(d: InspectorData, pal: Palette): ChartSpec | null {
  const v = d.validity;
  if (!v || v.bases.length === 0) return null;
  const valid = v.lmax.map((l, i) => (l >= v.length ? v.lmax[i] : null));
  const markers: Marker[] = [];
  if (v.bstar !== undefined) markers.push({ x: v.bstar, label: `b* = ${fmtCompact(v.bstar)}`, color: pal.green });
  if (v.threshold !== undefined) markers.push({ x: v.threshold, label: `all valid above ${fmtCompact(v.threshold)}`, color: pal.purple });
  if (v.robust !== undefined) markers.push({ x: v.robust, label: `robust ${fmtCompact(v.robust)} (every base within ±10% valid)`, color: pal.orange });
  markers.push({ x: d.fb.base, label: `base ${fmtCompact(d.fb.base)}`, color: pal.blue, dash: [1, 0] });
  const shades: Shade[] = v.islands.map(([from, to]) => ({ from, to, color: withAlpha(pal.green, 0.18) }));
  return {
    id: 'validity',
    title: 'd · Validity of the base around b*',
    caption: `L_max(b) over ${v.bases.length} bases for length ${fmtInt(v.length)} (${v.engine}). Shaded: valid islands (f ≥ 0 for every m < ${fmtInt(v.length)}).${v.note ? ' ' + v.note : ''}`,
    data: [v.bases, v.lmax, valid, constant(v.bases.length, v.length)] as uPlot.AlignedData,
    opts: {
      scales: { x: { time: false, distr: 3, log: 10 }, y: { distr: 3, log: 10 } },
      series: [
        { label: 'base b', value: (_u, x) => fmtCompact(x) },
        {
          label: 'L_max(b)',
          stroke: pal.blue,
          width: 1.5,
          points: NO_POINTS,
          value: (_u, x) => (x === null ? '–' : x >= v.length ? `≥ ${fmtInt(v.length)}` : fmtInt(x)),
        },
        {
          label: 'valid',
          stroke: pal.green,
          width: 0,
          paths: () => null,
          points: { show: true, size: 5, fill: pal.green, stroke: pal.green },
          value: (_u, x) => (x === null ? 'no' : 'yes'),
        },
        { label: `length ${fmtInt(v.length)}`, stroke: pal.red, width: 1, dash: [2, 3], points: NO_POINTS, value: (_u, x) => fmtInt(x) },
      ],
      axes: [axis(pal, 'base b (log)', logValues), axis(pal, 'L_max (tokens, log)', logValues, 60)],
      plugins: [markersPlugin(markers, shades, pal)],
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
    },
  };
}
