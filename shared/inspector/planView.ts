/**
 * Builds the plan view's data (planTypes.ts) from the planner's Plan: the text of each table cell
 * and the curves, so the page only lays them out. Runs in the language server.
 */
import type { Plan, PlanOption, Trainer } from '../planner/types';
import { wavelengths } from '../rope/analysis';
import { defaultInvFreq } from '../rope/invFreq';
import type { PlanTrainer, PlanViewData, PlanViewRequest, PlanViewRow, PlanViewStage } from './planTypes';
import { enUS } from '../core/format';

const grouped = (n: number) => enUS(n);

/** The setting an option writes, in a table cell (the CLI's wording). */
export function settingText(o: PlanOption): string {
  if (o.ropeTheta !== undefined) return `rope_theta ${grouped(Math.round(o.ropeTheta * 100) / 100)}`;
  if (o.ropeScaling) {
    const short: Record<string, string> = { original_max_position_embeddings: 'original', low_freq_factor: 'low', high_freq_factor: 'high' };
    return Object.entries(o.ropeScaling)
      .filter(([k]) => k !== 'rope_type')
      .map(([k, v]) => `${short[k] ?? k} ${v}`)
      .join(', ');
  }
  if (o.perDimensionFactors?.length) {
    const f = o.perDimensionFactors;
    return `per-dim factors ${f[0].toFixed(3)} … ${f[f.length - 1].toFixed(3)}`;
  }
  return 'as configured';
}

function row(o: PlanOption, recommended: string | null): PlanViewRow {
  return {
    method: o.method,
    label: o.label,
    setting: settingText(o),
    bound: o.meetsBound ? 'meets' : `holds to ${grouped(o.lmax)}`,
    meets: o.meetsBound,
    lmax: o.lmax,
    criticalDim: o.criticalDim,
    attentionFactor: o.attentionFactor,
    change: o.change,
    recommended: o.method === recommended,
    tags: [!o.expressible ? 'no config key' : '', !o.trainable ? 'inference only' : ''].filter(Boolean),
    wavelengths: o.wavelengths,
  };
}

export interface PlanViewOptions {
  label: string;
  uri: string;
  request: PlanViewRequest;
  /** The open file's trainer, when it is a training YAML the plan can write into. */
  trainer?: Trainer;
}

export function planViewData(plan: Plan, o: PlanViewOptions): PlanViewData {
  const trainer = o.trainer as PlanTrainer | undefined;
  const stages: PlanViewStage[] = plan.stages.map((s, index) => {
    const rec = s.options.find((x) => x.method === s.recommended);
    return {
      index,
      length: s.length,
      factor: s.factor,
      rows: s.options.map((x) => row(x, s.recommended)),
      recommended: s.recommended,
      recommendedLabel: rec?.label ?? null,
      reason: s.recommendedReason,
      snippets: (Object.keys({ ...s.snippets, ...s.snippetNotes }) as Trainer[]).map((t) => ({
        trainer: t,
        ...(s.snippets[t] ? { yaml: s.snippets[t] } : {}),
        ...(s.snippetNotes[t] ? { note: s.snippetNotes[t] } : {}),
      })),
      writable: trainer !== undefined && s.snippets[trainer] !== undefined,
    };
  });
  const half = plan.rotaryDim / 2;
  return {
    schema: 1,
    source: { label: o.label, uri: o.uri },
    request: o.request,
    model: plan.model,
    from: plan.from,
    ...(plan.modelType ? { modelType: plan.modelType } : {}),
    base: plan.base,
    rotaryDim: plan.rotaryDim,
    trainedContext: plan.trainedContext,
    trainedContextSource: plan.trainedContextSource,
    shippedContext: plan.shippedContext,
    ...(plan.shippedScaling ? { shippedScaling: plan.shippedScaling } : {}),
    target: plan.target,
    criticalDimAtTrained: plan.criticalDimAtTrained,
    dims: Array.from({ length: half }, (_, i) => i),
    trainedWavelengths: Array.from(wavelengths(defaultInvFreq(plan.base, plan.rotaryDim))),
    stages,
    notes: plan.notes,
    ...(trainer ? { writeTarget: { trainer, fileLabel: o.label.split('/').pop() ?? o.label } } : {}),
  };
}
