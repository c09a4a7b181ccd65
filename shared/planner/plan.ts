/**
 * The context-extension planner: for a model (its RoPE, trained context T) and a target, the stages,
 * every candidate setting per stage with its verdict on the generalised bound, a recommendation with
 * its reason, and trainer YAML fragments. Pure and synchronous (float64 scans only).
 */
import { RopeError } from '../core/errors';
import { llamaFactoryOldLength } from '../config/trainers/llamaFactoryRope';
import type { ModelRope } from '../config/modelRope';
import { toRopeSpec } from '../config/modelConfig';
import { criticalDimension } from '../rope/analysis';
import { trainedContextOf } from '../config/trainedContext';
import { differencesText, lengthScalingType, modelReach } from '../config/reach';
import { adviseRewrite, windowsCover } from '../advice/advice';
import { planStages, stagedGradientBases, stagedNtkAwareBases } from './stages';
import { IN_THREAD_PROOFS, type PlanProofs, PlanModelFacts, stageOptions } from './options';
import type { PlanOption } from './types';
import { rankOptions, recommend } from './recommend';
import { stageSnippets } from './snippets';
import { Plan, PlanStage, TRAINERS, Trainer } from './types';
import { enUS } from '../core/format';

export interface PlanModel {
  /** The model as the user named it (hub id or path). */
  label: string;
  /** Where its config was read. */
  from: string;
  rope: ModelRope;
  /** Raw config values (for torchtune's builder arguments), when known. */
  config?: Record<string, unknown>;
}

export interface PlanRequest {
  target: number;
  stages?: readonly number[];
  trainers?: readonly Trainer[];
}

function usable(n: number): boolean {
  return Number.isFinite(n) && n > 0;
}

/**
 * A base option (NTK-aware, Gradient's law) is recommended only when every base within ±10% of it is
 * valid, as the robust base is by construction: while the top-ranked option is such a base, its
 * neighbourhood is proven, and one that fails (or cannot be proven at this length) steps aside.
 */
function proveTopBaseOptions(
  options: PlanOption[],
  L: number,
  d: number,
  shippedContext: number,
  shippedScaling: string | undefined,
  proofs: PlanProofs,
): void {
  for (;;) {
    const top = rankOptions(options, L, shippedContext, shippedScaling)[0];
    if (!top || top.ropeTheta === undefined || top.method === 'robust-base' || top.method === 'as-shipped' || top.neighbourhood !== undefined) return;
    const theta = enUS(top.ropeTheta, { maximumFractionDigits: 2 });
    if (L > proofs.maxLength) {
      top.neighbourhood = 'unproven';
      top.notes.push(`Valid at ${theta} itself; its ±10% neighbourhood is not proven at this length here, so it is not recommended.`);
      continue;
    }
    const w = proofs.prove(top.ropeTheta, d, L);
    top.neighbourhood = w === null ? 'proven' : { invalidAt: w };
    if (w !== null)
      top.notes.push(
        `Valid at ${theta} itself, but not every base within ±10% is (${enUS(w, { maximumFractionDigits: 1 })} fails at ${enUS(L)}): not recommended.`,
      );
  }
}

export function buildPlan(model: PlanModel, req: PlanRequest, proofs: PlanProofs = IN_THREAD_PROOFS): Plan {
  const rope = model.rope;
  const base = rope.base.value,
    d = rope.rotaryDim.value;
  if (!usable(base) || base <= 1) throw new RopeError('invalid-base', `${model.label}: no usable rope_theta (${String(base)})`);
  if (!Number.isInteger(d) || d < 4 || d % 2)
    throw new RopeError('invalid-dimension', `${model.label}: rotary dimension ${String(d)} cannot be planned (needs an even number ≥ 4)`);
  const tc = trainedContextOf(rope);
  // A model without scaling whose own rope_theta was raised for its own context (a long-context
  // fine-tune named after its base) is planned from that context, not from its base's T.
  const own = lengthScalingType(rope) === 'none' ? modelReach(rope, tc.value) : undefined;
  const T = own?.unscaledFrom ?? tc.value;
  if (!Number.isInteger(T) || T < 8) throw new RopeError('invalid-length', `${model.label}: trained context ${String(T)} is not usable`);
  const lengths = planStages(T, req.target, req.stages);
  const spec = toRopeSpec(rope);
  const shippedScaling = spec.ropeType !== 'default' ? spec.ropeType : undefined;
  const facts: PlanModelFacts = { base, rotaryDim: d, trained: T, modelType: rope.modelType, shippedSpec: spec, shippedContext: rope.contextLength.value };
  const ntk = stagedNtkAwareBases(base, T, lengths, d);
  const grad = stagedGradientBases(base, T, lengths);
  const trainers = req.trainers?.length ? req.trainers : TRAINERS;
  const notes: string[] = [];
  // Mistral-7B-v0.1: a 4,096 window on every layer, trained at 8,192 — no layer sees a new distance.
  const covered = windowsCover(rope, req.target, T);
  if (covered) notes.push(`No full-attention frequencies to judge: ${covered}.`);
  else if (rope.slidingWindow?.value)
    notes.push(`Layers with a sliding window of ${rope.slidingWindow.value} never see distances beyond it; the plan judges the full-attention frequencies.`);
  if (shippedScaling)
    notes.push(
      `The model ships ${shippedScaling} scaling: "change" is measured from the frequencies it runs as shipped, and options that keep its ${shippedScaling} scaling (as shipped, ${shippedScaling} with a new factor over T = ${T}) are recommended before those that replace it (base options run with rope_scaling: null).`,
    );
  if (T !== tc.value) notes.push(`Planned from ${T}, not the ${tc.value} of ${tc.source.replace(/^catalog:/, '')}: ${own!.basis}.`);
  else if (tc.source.startsWith('assumed:')) {
    const d = rope.derivativeOf;
    notes.push(
      d && d.differences.length
        ? `Trained context ${T} taken from its own max_position_embeddings: its architecture is ${d.candidates[0]}'s but ${differencesText(d)}, so it is planned as a derivative on its own values, not from ${d.candidates[0]}'s ${d.baseTrainedContext}.`
        : `Trained context ${T} assumed from max_position_embeddings (no original_max_position_embeddings or catalog record).`,
    );
  }

  const stages: PlanStage[] = lengths.map((L, k) => {
    const options = stageOptions(facts, { length: L, ntkAwareBase: ntk[k], gradientBase: grad[k] }, proofs);
    if (!covered) proveTopBaseOptions(options, L, d, facts.shippedContext, shippedScaling, proofs);
    const rec = covered
      ? { method: null, reason: `No full-attention frequencies to judge: ${covered}.` }
      : recommend(options, L, facts.shippedContext, shippedScaling, proofs.maxLength);
    const ranked = rankOptions(options, L, facts.shippedContext, shippedScaling);
    const sn = stageSnippets(
      {
        length: L,
        trained: T,
        base,
        rotaryDim: d,
        modelType: rope.modelType,
        shippedContext: facts.shippedContext,
        llamaFactoryOld: llamaFactoryOldLength(rope).old,
        shippedScaling,
        config: model.config,
        ranked,
        options,
      },
      trainers,
    );
    return { length: L, factor: L / T, options, recommended: rec.method, recommendedReason: rec.reason, snippets: sn.snippets, snippetNotes: sn.notes };
  });
  return {
    model: model.label,
    from: model.from,
    modelType: rope.modelType,
    base,
    rotaryDim: d,
    trainedContext: T,
    trainedContextSource: T !== tc.value ? 'config:max_position_embeddings' : tc.source,
    shippedContext: facts.shippedContext,
    ...(shippedScaling ? { shippedScaling } : {}),
    target: req.target,
    criticalDimAtTrained: criticalDimension(base, d, T),
    stages,
    notes,
    question: `Training at ${enUS(req.target)}: the stages, options and trainer settings below are for fine-tuning at each stage length. Running the checkpoint at the target without training is another question; its answer is the rewrite check, serve and the Inspector recommend.`,
    ...withoutTraining(rope, req.target, tc.value, covered),
  };
}

/** `plan`'s no-training line: the advice's rewrite at the target, as check and serve give it. */
function withoutTraining(
  rope: ModelRope,
  target: number,
  trained: number,
  covered: string | undefined,
): Pick<Plan, 'withoutTraining' | 'withoutTrainingReason' | 'noFullAttention'> {
  if (covered) return { withoutTraining: null, withoutTrainingReason: covered, noFullAttention: covered };
  const a = adviseRewrite({ rope, length: target, trained });
  if (!a) {
    const reach = modelReach(rope, trained);
    return {
      withoutTraining: null,
      withoutTrainingReason:
        lengthScalingType(rope) === 'none'
          ? `${enUS(target)} is within what the model reaches (${reach.basis}): no rewrite is needed`
          : `the model ships its own ${lengthScalingType(rope)} scaling (it reaches ${enUS(reach.value)}): no new scaling is stacked on it`,
    };
  }
  const o = a.preferred;
  return {
    withoutTraining: {
      kind: o.kind,
      label: o.label,
      why: a.why,
      factor: o.factor,
      ...(o.original !== undefined ? { original: o.original } : {}),
      ...(o.base !== undefined ? { base: o.base } : {}),
      recipe: !!o.recipe,
      ...(o.verdict ? { verdict: o.verdict } : {}),
    },
  };
}

/** The plan as `rope-lens plan --json` prints it: wavelengths left out. */
export function planJson(plan: Plan): unknown {
  return {
    ...plan,
    stages: plan.stages.map((s) => ({ ...s, options: s.options.map(({ wavelengths: _w, ...o }) => o) })),
  };
}
