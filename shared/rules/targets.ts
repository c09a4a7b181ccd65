/** Where fixes write in the current document, for a model config or a training config. */
import { pathOf } from '../document/configNode';
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
  return target;
}
