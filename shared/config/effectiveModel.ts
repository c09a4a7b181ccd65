/**
 * A training config's model as the trainer will build it: the base model's description with the
 * YAML's RoPE overrides applied, LLaMA-Factory's scaling-by-name expanded the way it expands it,
 * or (base model unknown) only what the YAML itself sets.
 */
import type { Located, ModelRope } from './modelRope';
import type { RopeType } from '../rope/spec';
import { describeScaling } from './modelConfig';
import type { TrainingConfig } from './training';
import type { ResolvedBaseModel } from './resolve';
import { LLAMA_FACTORY_SCALINGS } from './trainers/llamaFactory';
import { detached } from './wire';

/** The base model as the trainer will configure it: its config with the YAML's RoPE overrides. */
export function effectiveModel(t: TrainingConfig, resolved: ResolvedBaseModel): ModelRope {
  const r = resolved.rope;
  // Every field of the base model's description (groups, trained context, identity… included),
  // without the nodes: they point into the other file.
  const out: ModelRope = detached(r, resolved.from);
  applyOverrides(out, t);
  if (t.scalingByName) {
    // LLaMA-Factory: factor = ceil(cutoff_len / mpe), original = mpe, new mpe = mpe × factor.
    const mpe = r.contextLength.value;
    const L = t.sequenceLength?.value ?? 0;
    const type = t.scalingByName.value.trim().toLowerCase();
    if (L > mpe && LLAMA_FACTORY_SCALINGS.includes(type)) {
      const factor = Math.ceil(L / mpe);
      out.scaling = {
        type: type as RopeType,
        key: 'rope_scaling',
        rawType: t.scalingByName,
        params: {
          rope_type: t.scalingByName,
          factor: { value: factor, note: `LLaMA-Factory: ceil(${L} / ${mpe})` },
          original_max_position_embeddings: { value: mpe, note: "LLaMA-Factory: the model's max_position_embeddings" },
        },
      };
      out.originalContextLength = { value: mpe, note: "LLaMA-Factory: the model's max_position_embeddings" };
      out.contextLength = { value: mpe * factor, note: `LLaMA-Factory: max_position_embeddings × ${factor}` };
    }
  }
  return out;
}

/** The YAML's RoPE overrides (and axolotl's deprecated top-level scaling, which is what the user meant). */
function applyOverrides(out: ModelRope, t: TrainingConfig): void {
  const o = t.overrides;
  const oldBase = out.base.value;
  if (o.base) out.base = o.base;
  if (o.contextLength) out.contextLength = o.contextLength;
  // The overrides reach every group that used the model's main base, and every reach follows the new context.
  out.groups = out.groups?.map((g) => ({
    ...g,
    base: o.base && g.base && g.base.value === oldBase ? o.base : g.base,
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
