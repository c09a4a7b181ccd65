/** Where fixes write in the current document, for a model config or a training config. */
import { pathOf } from '../document/configNode';
import { trainerTransformersLine } from './trainerTransformers';
import { rope5Parameters } from '../config/trainers/axolotlOverrides';
import type { ConfigNode } from '../document/configNode';
import type { ModelRope } from '../config/modelRope';
import type { RopeTarget } from '../fixes/rewrites';
import type { RuleContext } from './context';

const SCALING_KEEP = ['rope_theta', 'partial_rotary_factor'];

function keyPath(node: ConfigNode): string[] | undefined {
  const p = pathOf(node);
  return p.every((s) => typeof s === 'string') ? (p as string[]) : undefined;
}

/** A config.json: the base where it is written (or next to the context key), the scaling object likewise. */
export function modelTarget(ctx: RuleContext, rope: ModelRope): RopeTarget {
  if (ctx.fileKind === 'training-config' && ctx.training) return trainingTarget(ctx);
  const ctxPath = rope.contextLength.node ? keyPath(rope.contextLength.node) : undefined;
  const prefix = ctxPath ? ctxPath.slice(0, -1) : [];
  const basePath = rope.base.node ? keyPath(rope.base.node) : [...prefix, 'rope_theta'];
  const scalingPath = rope.scaling?.node ? keyPath(rope.scaling.node) : [...prefix, 'rope_scaling'];
  return { editor: ctx.editor, basePath, baseName: basePath?.[basePath.length - 1] ?? 'rope_theta', scalingPath, scalingKeep: SCALING_KEEP };
}

/** A training config: the tool's override keys (axolotl overrides_of_model_config, NeoX rotary_emb_base…). */
export function trainingTarget(ctx: RuleContext): RopeTarget {
  const t = ctx.training!;
  const target: RopeTarget = {
    editor: ctx.editor,
    basePath: t.baseKeyPath,
    baseName: t.baseKeyPath?.[t.baseKeyPath.length - 1] ?? 'rope_theta',
    scalingPath: t.scalingKeyPath,
    scalingKeep: SCALING_KEEP,
  };
  if (t.tool === 'llama-factory' && !t.overrides.scaling) {
    target.namePath = t.scalingKeyPath;
    target.scalingPath = undefined;
  }
  // axolotl on transformers 5 (config/trainers/axolotlOverrides.ts): a base reaches the model only
  // inside rope_parameters, and a scaling dict must carry the model's rope_theta.
  const model = ctx.resolved?.rope;
  if (t.tool === 'axolotl' && t.overridePath && trainerTransformersLine('axolotl', ctx.pins).line === 5) {
    const block = t.overridePath;
    target.baseWriter = (value) => ctx.editor.set([...block, 'rope_parameters'], rope5Parameters(model, value));
    // The base the fixes' verdicts are computed with: the one the model runs.
    const base = ctx.effective?.base.value ?? model?.base.value;
    if (base !== undefined && Number.isFinite(base)) target.scalingWith = { rope_theta: base };
  }
  return target;
}
