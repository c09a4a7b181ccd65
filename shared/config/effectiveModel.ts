/**
 * A training config's model as the trainer will build it: the base model's description with the
 * YAML's RoPE overrides applied, LLaMA-Factory's scaling-by-name expanded the way it expands it,
 * or (base model unknown) only what the YAML itself sets.
 */
import type { Located, ModelRope, ScalingDescription } from './modelRope';
import type { RopeType } from '../rope/spec';
import { describeScaling } from './modelConfig';
import type { TrainingConfig } from './training';
import type { ResolvedBaseModel } from './resolve';
import { llamaFactoryRopePlan } from './trainers/llamaFactoryRope';
import { type TransformersLine, axolotlThetaLands } from './trainers/axolotlOverrides';
import { detached } from './wire';

/** The base model as the trainer will configure it: its config with the YAML's RoPE overrides. */
export function effectiveModel(t: TrainingConfig, resolved: ResolvedBaseModel, opts: { transformers?: TransformersLine } = {}): ModelRope {
  const r = resolved.rope;
  // Every field of the base model's description (groups, trained context, identity… included),
  // without the nodes: they point into the other file.
  const out: ModelRope = detached(r, resolved.from);
  // axolotl on transformers 5 (its pinned line): a rope_theta written alone never reaches the model.
  applyOverrides(out, t, axolotlThetaLands(t, opts.transformers ?? 5, r));
  const plan = llamaFactoryRopePlan(t, r);
  if (plan.kind === 'applied' && t.scalingByName) {
    const note = `LLaMA-Factory configure_rope (${plan.mode === 'train' ? `ceil(${plan.length} / ${plan.old})` : 'inference: factor 2.0'})`;
    const oldNote = `LLaMA-Factory: the base model's ${plan.oldFrom}`;
    const params: ScalingDescription['params'] = { rope_type: t.scalingByName, factor: { value: plan.factor, note } };
    for (const [k, v] of Object.entries(plan.written)) {
      if (k !== 'rope_type' && k !== 'factor')
        params[k] = { value: v, note: k === 'original_max_position_embeddings' ? oldNote : 'LLaMA-Factory: fixed value' };
    }
    out.scaling = { type: plan.name as RopeType, key: 'rope_scaling', rawType: t.scalingByName, params };
    out.originalContextLength = { value: plan.old, note: oldNote };
    out.contextLength = { value: plan.newContext, note: `LLaMA-Factory: ${plan.old} × ${plan.factor}` };
  }
  return out;
}

/** The YAML's RoPE overrides (and axolotl's deprecated top-level scaling, which is what the user meant). */
function applyOverrides(out: ModelRope, t: TrainingConfig, baseLands = true): void {
  const o = t.overrides;
  const oldBase = out.base.value;
  const newBase = baseLands ? o.base : undefined;
  if (newBase) out.base = newBase;
  if (o.contextLength) out.contextLength = o.contextLength;
  // The overrides reach every group that used the model's main base, and every reach follows the new context.
  out.groups = out.groups?.map((g) => ({
    ...g,
    base: newBase && g.base && g.base.value === oldBase ? newBase : g.base,
    reach: g.window ? Math.min(out.contextLength.value, g.window.value) : out.contextLength.value,
  }));
  if (!out.groups) delete out.groups;
  if (o.scalingCleared) {
    delete out.scaling;
    delete out.originalContextLength;
  }
  const scaling = o.scaling ?? (t.deprecatedScaling?.kind === 'object' ? describeScaling(t.deprecatedScaling) : undefined);
  if (scaling) {
    out.scaling = scaling;
    const orig = scaling.params['original_max_position_embeddings'];
    if (orig && typeof orig.value === 'number') out.originalContextLength = orig as Located<number>;
    else delete out.originalContextLength;
  }
}

/**
 * The base model is unknown but the YAML sets RoPE keys itself: report what it sets; the unknown
 * values are NaN (null in JSON) and every rule skips them.
 */
export function overridesOnly(t: TrainingConfig): ModelRope | undefined {
  const o = t.overrides;
  if (!o.base && !o.contextLength && !o.scaling && t.deprecatedScaling?.kind !== 'object') return undefined;
  const unknown = (what: string): Located<number> => ({ value: NaN, note: `${what}: base model not found offline` });
  const out: ModelRope = {
    base: unknown('rope_theta'),
    headDim: unknown('head_dim'),
    rotaryDim: unknown('rotary dim'),
    partialRotaryFactor: unknown('partial_rotary_factor'),
    contextLength: unknown('max_position_embeddings'),
  };
  applyOverrides(out, t);
  return out;
}

/**
 * Whether the YAML's own base reached the model the trainer builds (not so for an axolotl
 * `rope_theta` alone on transformers 5): only then is the run judged as one that chose its base.
 * The model's own base carried inside a scaling dict (transformers 5 needs it there) is not a choice.
 */
export function yamlBaseLands(t: TrainingConfig, effective: ModelRope | undefined, model?: ModelRope): boolean {
  const o = t.overrides;
  if (o.base === undefined || effective?.base !== o.base) return false;
  return !(o.baseInScaling && model && model.base.value === o.base.value);
}
