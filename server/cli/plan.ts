/**
 * `rope-lens plan --model <path|id> --target N [--stages a,b,…] [--trainer axolotl|llama-factory|torchtune] [--json]`:
 * a context-extension plan (shared/planner) as a table per stage or one JSON object.
 */
import { resolve as resolvePath } from 'node:path';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { buildPlan, planJson } from '../../shared/planner/plan';
import { loadPlanModel } from '../../shared/planner/modelSource';
import { planProofs } from '../../shared/planner/options';
import { proofMaxLengthFromEnv } from '../../shared/node/parallelProof';
import { cliProver } from './service';
import { parseContextLength } from '../../shared/planner/lengthInput';
import { nodeFileReader } from '../../shared/node/resolveNode';
import { HUB_OPTION, hubContext, withHub } from './hub';
import { Plan, PlanOption, TRAINERS, Trainer } from '../../shared/planner/types';
import { enUS } from '../../shared/core/format';
import { familyAssumptionOf } from '../../shared/config/catalog';
import { assumptionText } from '../../shared/config/modelFamilies';

const USAGE =
  'usage: rope-lens plan --model <config.json|folder|training.yaml|hub id[@revision]> --target N [--stages a,b,…] [--trainer axolotl|llama-factory|torchtune] [--hub] [--json]';

function length(raw: string, what: string): number {
  const r = parseContextLength(raw);
  if (!r.ok) throw new UsageError(`${what}: ${r.reason}`);
  return r.value;
}

const fmt = (n: number) => enUS(n);

function setting(o: PlanOption): string {
  if (o.ropeTheta !== undefined) return `rope_theta ${fmt(Math.round(o.ropeTheta * 100) / 100)}`;
  if (o.ropeScaling) {
    const short: Record<string, string> = { original_max_position_embeddings: 'original', low_freq_factor: 'low', high_freq_factor: 'high' };
    return Object.entries(o.ropeScaling)
      .filter(([k]) => k !== 'rope_type')
      .map(([k, v]) => `${short[k] ?? k} ${v}`)
      .join(', ');
  }
  if (o.perDimensionFactors) {
    const f = o.perDimensionFactors;
    return `per-dim factors ${f[0].toFixed(3)} … ${f[f.length - 1].toFixed(3)}`;
  }
  return 'as configured';
}

/** Where T came from; a model known by its family says so (the catalog id alone would read as an entry). */
function trainedSourceText(source: string): string {
  const family = familyAssumptionOf(source);
  return family ? `${source.slice('catalog:'.length)} ${assumptionText(family)}` : source;
}

export function planText(plan: Plan): string {
  const lines = [
    `model:            ${plan.model} (${plan.from})`,
    `rope:             base ${fmt(plan.base)}, rotary dim ${plan.rotaryDim}${plan.shippedScaling ? `, ships ${plan.shippedScaling} scaling` : ''}, context ${fmt(plan.shippedContext)}`,
    `trained context:  ${fmt(plan.trainedContext)} (${trainedSourceText(plan.trainedContextSource)}); critical dim ${plan.criticalDimAtTrained}`,
    `target:           ${fmt(plan.target)} in ${plan.stages.length} stage${plan.stages.length > 1 ? 's' : ''}: ${plan.stages.map((s) => fmt(s.length)).join(' → ')}`,
  ];
  lines.push(`question:         ${plan.question}`);
  lines.push(
    `without training: ${plan.withoutTraining ? `${plan.withoutTraining.label}: ${plan.withoutTraining.why}` : `none: ${plan.withoutTrainingReason ?? 'no rewrite is needed'}`}`,
  );
  for (const n of plan.notes) lines.push(`note: ${n}`);
  plan.stages.forEach((st, k) => {
    lines.push('', `stage ${k + 1}: ${fmt(st.length)} tokens (s = ${+st.factor.toFixed(4)})`);
    lines.push(`  ${'method'.padEnd(44)} ${'setting'.padEnd(44)} ${'bound at L'.padEnd(18)} crit  attn   change`);
    for (const o of st.options) {
      const mark = o.method === st.recommended ? '*' : ' ';
      const bound = o.meetsBound ? 'meets' : `holds to ${fmt(o.lmax)}`;
      const tags = [!o.expressible ? 'no config key' : '', !o.trainable ? 'inference only' : ''].filter(Boolean).join(', ');
      lines.push(
        `${mark} ${(o.label + (tags ? ` (${tags})` : '')).padEnd(44)} ${setting(o).padEnd(44)} ${bound.padEnd(18)} ${String(o.criticalDim).padStart(4)}  ${o.attentionFactor.toFixed(3)}  ${o.change.toFixed(3)}`,
      );
    }
    lines.push(`  recommended: ${st.recommended ?? 'none'}: ${st.recommendedReason}`);
    for (const t of Object.keys({ ...st.snippets, ...st.snippetNotes }) as Trainer[]) {
      lines.push(`  --- ${t} ---`);
      if (st.snippetNotes[t]) lines.push(`  # ${st.snippetNotes[t]}`);
      if (st.snippets[t])
        lines.push(
          ...st.snippets[t]!.trimEnd()
            .split('\n')
            .map((l) => `  ${l}`),
        );
    }
  });
  lines.push(
    '',
    "* recommended. bound: Σ cos(m·θ′) ≥ 0 for every m < L on the effective frequencies; crit: Liu et al.'s critical dimension at L; change: mean |ln θ′/θ|.",
  );
  return lines.join('\n');
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCliArgs(
    {
      args: argv,
      allowPositionals: true,
      options: {
        model: { type: 'string' },
        target: { type: 'string' },
        stages: { type: 'string' },
        trainer: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        ...HUB_OPTION,
      },
    },
    USAGE,
  );
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'\n${USAGE}`);
  if (!values.model) throw new UsageError(`--model is required\n${USAGE}`);
  const trainers = (values.trainer ?? [])
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of trainers) if (!TRAINERS.includes(t as Trainer)) throw new UsageError(`--trainer must be one of ${TRAINERS.join(', ')}, got '${t}'`);
  const stages = values.stages !== undefined ? values.stages.split(',').map((s) => length(s, '--stages')) : undefined;
  // Offline first; with --hub, a model (or a training YAML's base model) not found is fetched and the load retried.
  const modelRef = values.model;
  const model = await withHub(hubContext(values.hub, io), (resolver) => loadPlanModel(modelRef, nodeFileReader, resolver, resolvePath('.')));
  let target = values.target !== undefined ? length(values.target, '--target') : undefined;
  if (target === undefined) {
    if (model.trainingLength === undefined) throw new UsageError(`--target is required (the model's trained context is given by its config)\n${USAGE}`);
    target = model.trainingLength;
  }
  // Robust bases are proven at every length, on every core (the editor's plan view stops at 131,072).
  const plan = buildPlan(model, { target, stages, trainers: trainers as Trainer[] }, planProofs(cliProver(io.status), proofMaxLengthFromEnv()));
  io.out(values.json ? JSON.stringify(planJson(plan), null, 2) : planText(plan));
  return EXIT_OK;
}
