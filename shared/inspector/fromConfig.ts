/**
 * From a config file's text to the Inspector's input: the shared config reader finds the RoPE
 * settings (any family layout, JSON or YAML), and this module only picks the lengths the Inspector
 * compares (original training context and default target).
 */
import { RopeError } from '../core/errors';
import { formatOf } from '../document/parse';
import { toRopeSpec } from '../config/modelConfig';
import type { ModelRope } from '../config/modelRope';
import type { TransformersVariant } from '../rope/spec';
import type { InspectorInput } from './build';
import type { FileAnalysis } from '../service/types';
import { createRopeLensService, type RopeLensService } from '../service/service';
import { CONSUMER_COLUMNS, consumerCells } from '../serving/consumersView';
import { trainedContextOf } from '../config/trainedContext';
import { RewriteKind, adviseRewrite } from '../advice/advice';
import type { InspectorRecommendation, RewriteMethod } from './types';
import { defaultTarget } from './build';
import { enUS } from '../core/format';
import { IN_THREAD_PROOFS, robustBase } from '../planner/options';
import { ropeGroups } from '../config/attentionGroups';
import { groupSummaries } from '../config/groupSummary';

/**
 * The context the checkpoint was trained at, as `check` decides it (config/trainedContext.ts: the
 * scaling's original, else the catalog entry of its identity, else max_position_embeddings): a
 * Llama-3.1 config that lost its rope_scaling was trained at 8,192, not at its 131,072.
 */
export function originalLengthOf(rope: ModelRope): number {
  return trainedContextOf(rope).value;
}

const METHOD_OF: Record<RewriteKind, RewriteMethod> = {
  ntk: 'ntk',
  yarn: 'yarn',
  linear: 'pi',
  dynamic: 'dynamic',
  llama3: 'llama3',
  'raise-base': 'gradient',
};

/**
 * The recommended rewrite at `target` (advice/advice.ts), or null when nothing needs extending.
 * `method` names this page's curve for it when the curve has the same values (the page's curves
 * stretch from the trained context by target / T; a vendor recipe with its own factor has none).
 */
export function recommendationFor(rope: ModelRope, target: number, variant?: TransformersVariant, training = false): InspectorRecommendation | null {
  // Trained, the smallest robust valid base is a candidate and a base counts only with its ±10% proven,
  // as in `check` and `plan` (proven on this thread up to the plan's in-thread limit).
  const group = ropeGroups(rope)[0];
  const base = group?.base.value ?? rope.base.value;
  const dim = group?.rotaryDim.value ?? rope.rotaryDim.value;
  const proofs = training && target <= IN_THREAD_PROOFS.maxLength && Number.isFinite(base) && Number.isFinite(dim);
  const robust = proofs ? robustBase(base, dim, target)?.base : undefined;
  const a = adviseRewrite({
    rope,
    length: target,
    variant,
    training,
    ...(robust !== undefined ? { robustBase: robust } : {}),
    ...(proofs ? { provenBase: (b: number) => IN_THREAD_PROOFS.prove(b, dim, target) === null } : {}),
  });
  if (!a) return null;
  const o = a.preferred;
  const T = originalLengthOf(rope);
  const sameCurve = !o.recipe && !o.smallestRobust && a.from === T && (o.kind === 'ntk' || o.kind === 'raise-base' || Math.abs(o.factor - target / T) < 1e-3);
  return {
    targetLength: target,
    trainedContext: a.trained,
    reach: a.reach,
    kind: o.kind,
    method: sameCurve ? METHOD_OF[o.kind] : null,
    factor: o.factor,
    ...(o.original !== undefined ? { original: o.original } : {}),
    ...(o.base !== undefined ? { base: o.base } : {}),
    label: o.label,
    why: a.why,
    recipe: !!o.recipe,
    ...(o.verdict ? { verdict: o.verdict } : {}),
  };
}

/** The input with the recommendation at `target` and a note the page shows. */
export function withRecommendation(input: InspectorInput, rope: ModelRope, target: number, variant?: TransformersVariant, training = false): InspectorInput {
  const recommended = recommendationFor(rope, target, variant, training);
  const notes = [...(input.notes ?? [])];
  if (recommended) notes.push(`Recommended at ${enUS(target)}: ${recommended.label}, ${recommended.why}.`);
  return { ...input, recommended, notes };
}

export function inspectorInputFromRope(rope: ModelRope, label: string, uri?: string, variant?: TransformersVariant): InspectorInput {
  const spec = toRopeSpec(rope, { variant });
  const originalLength = originalLengthOf(rope);
  const warnings: string[] = [];
  // A scaled config whose max_position_embeddings was left at the original value (Qwen2.5's
  // model-card YaRN snippet): the scaled context is original × factor.
  if (spec.ropeType !== 'default' && spec.factor !== undefined && spec.maxPositionEmbeddings <= originalLength) {
    spec.maxPositionEmbeddings = Math.round(originalLength * spec.factor);
    warnings.push(
      `max_position_embeddings (${rope.contextLength.value}) is not above the original context; the target defaults to original × factor = ${spec.maxPositionEmbeddings}.`,
    );
  }
  // Values not written in the file (defaults, derived): say where each number comes from.
  const notes: string[] = [];
  const named: [string, { note?: string } | undefined][] = [
    ['base', rope.base],
    ['head dim', rope.headDim],
    ['rotary dim', rope.rotaryDim],
    ['context', rope.contextLength],
  ];
  for (const [what, n] of named) if (n?.note) notes.push(`${what}: ${n.note}`);
  const input: InspectorInput = { label, uri, modelType: rope.modelType, spec, headDim: rope.headDim.value, originalLength, warnings, notes };
  const groups = groupSummaries(rope);
  if (groups.length) input.groups = groups;
  if (variant) input.variant = variant;
  return input;
}

/**
 * The Inspector's input from the service's description of a document (read with `asModelConfig`,
 * as the Inspector is opened on purpose): a model config as written, or a training config's
 * base model with the YAML's overrides, the target being the training sequence length.
 * Training configs are read-only: the Inspector's Apply writes model configs only.
 */
export function inspectorInputFromAnalysis(a: FileAnalysis, label: string, uri?: string, variant?: TransformersVariant, target?: number): InspectorInput {
  if (a.rope && a.kind === 'model-config') {
    const input = inspectorInputFromRope(a.rope, label, uri, variant);
    if (a.consumers?.length) {
      input.consumers = { columns: [...CONSUMER_COLUMNS], rows: consumerCells(a.consumers).map(({ cells, differs, detail }) => ({ cells, differs, detail })) };
    }
    return withRecommendation(input, a.rope, target ?? defaultTarget(input), variant);
  }
  if (a.rope && a.kind === 'training-config') {
    const input = inspectorInputFromRope(a.rope, label, uri, variant);
    const t = a.training;
    input.label = `${label} (training${t?.baseModel ? `, base model ${t.baseModel}` : ''})`;
    if (t?.sequenceLength && t.sequenceLength >= 16) input.defaultTargetLength = t.sequenceLength;
    input.notes = [...(input.notes ?? []), `Base model from ${t?.resolvedFrom ?? 'the training config'}; the target is the training sequence length.`];
    return withRecommendation(input, a.rope, target ?? defaultTarget(input), variant, true);
  }
  if (a.noRope) throw new RopeError('invalid-parameter', `${label} has no rotary position embedding: ${a.noRope}`);
  throw new RopeError(
    'invalid-parameter',
    `${label} is neither a model config (model_type or architectures with rope_theta, rope_scaling or max_position_embeddings) nor a training config whose base model is known`,
  );
}

const NO_ORACLE = { lmax: () => undefined, bstar: () => undefined, threshold: () => undefined, robust: () => undefined };

/** File text → Inspector input, through the given service (the CLI's, with its resolver and variant). */
export function inspectorInputFromText(
  text: string,
  fileName: string,
  uri?: string,
  service: RopeLensService = createRopeLensService({ oracle: NO_ORACLE }),
  target?: number,
): InspectorInput {
  if (!formatOf(fileName)) throw new RopeError('parse-error', `${fileName}: not a .json or .yaml file`);
  const label = fileName.split(/[\\/]/).slice(-2).join('/');
  const a = service.describe(text, { fileName, asModelConfig: true });
  return inspectorInputFromAnalysis(a, label, uri, service.defaults.variant, target);
}
