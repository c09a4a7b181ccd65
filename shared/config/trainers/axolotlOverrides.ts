/**
 * How axolotl's `overrides_of_model_config` (alias `model_config`) reaches the model. axolotl
 * applies it key by key with `setattr(model_config, key, val)` after `AutoConfig.from_pretrained`
 * (src/axolotl/loaders/utils.py::load_model_config, L201-203 @ 067b021), and pins
 * transformers==5.14.1 since its v5 upgrade (pyproject.toml, fc4e379 of 2026-01-27).
 *
 * transformers 4.x reads `config.rope_theta` and `config.rope_scaling` when the model is built:
 * every override lands. transformers 5.x reads only `config.rope_parameters` (rope_scaling is an
 * alias of it); `standardize_rope_params` moves a top-level rope_theta into it with setdefault, so
 * (checked by building LlamaForCausalLM on transformers 5.17 and 5.18):
 * - `rope_theta` alone never reaches the rope parameters, which already hold the model's own base;
 * - a `rope_scaling`/`rope_parameters` dict replaces the model's whole dict: with no `rope_theta`
 *   in the dict or beside it, `_compute_*_parameters` raises TypeError (base None) when the model
 *   is built; a legacy `type` key without `rope_type` raises KeyError 'rope_type';
 * - `rope_scaling: null` replaces the dict with None: TypeError when the model is built.
 * Pure: the training config in, the outcome per override out.
 */
import type { ConfigNode } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import type { ModelRope } from '../modelRope';

export type TransformersLine = 4 | 5;

export type AxolotlOverrideOutcome =
  /** rope_theta written alone: transformers 5 keeps the model's own base. */
  | { kind: 'theta-ignored'; node: ConfigNode; value: number }
  /** A scaling dict with no rope_theta anywhere: TypeError when the model is built. */
  | { kind: 'scaling-without-theta'; node: ConfigNode; key: string }
  /** A scaling dict keyed by the legacy `type`: KeyError 'rope_type' when the model is built. */
  | { kind: 'legacy-type'; node: ConfigNode; key: string }
  /** `rope_scaling: null`: TypeError when the model is built. */
  | { kind: 'cleared'; node: ConfigNode };

/** What goes wrong, on the given transformers line, with the YAML's model-config overrides. */
/** `base`: the base model's description, when found (a rope_theta equal to its own base changes nothing). */
export function axolotlOverrideOutcomes(t: TrainingConfig, line: TransformersLine, base?: ModelRope): AxolotlOverrideOutcome[] {
  if (t.tool !== 'axolotl' || line !== 5) return [];
  const o = t.overrides;
  const out: AxolotlOverrideOutcome[] = [];
  const dict = o.scaling;
  if (o.base?.node && !dict && o.base.value !== base?.base.value) out.push({ kind: 'theta-ignored', node: o.base.node, value: o.base.value });
  if (dict?.node) {
    const key = dict.key ?? 'rope_scaling';
    const hasTheta = dict.params['rope_theta'] !== undefined || o.base !== undefined;
    if (!dict.params['rope_type'] && dict.params['type']) out.push({ kind: 'legacy-type', node: dict.node, key });
    else if (!hasTheta) out.push({ kind: 'scaling-without-theta', node: dict.node, key });
  }
  if (o.scalingCleared) out.push({ kind: 'cleared', node: o.scalingCleared });
  return out;
}

/**
 * Whether the YAML's rope_theta is the base the model runs (transformers 5: only beside a scaling
 * dict, or when it equals the model's own base anyway).
 */
export function axolotlThetaLands(t: TrainingConfig, line: TransformersLine, base?: ModelRope): boolean {
  return line === 4 || t.tool !== 'axolotl' || t.overrides.scaling !== undefined || t.overrides.base?.value === base?.base.value;
}

/**
 * The `rope_parameters` dict that runs the model at base `theta` on transformers 5: the model's
 * own scaling kept (its type and plain parameters), rope_theta set.
 */
export function rope5Parameters(model: ModelRope | undefined, theta: number): Record<string, string | number> {
  const native = model?.scaling;
  const scaled = native?.type !== undefined && native.type !== 'default';
  const out: Record<string, string | number> = { rope_type: scaled ? native.type! : 'default' };
  if (scaled) {
    for (const [k, v] of Object.entries(native.params)) {
      if (k === 'rope_type' || k === 'type' || k === 'rope_theta') continue;
      if (typeof v.value === 'number' || typeof v.value === 'string') out[k] = v.value;
    }
  }
  out.rope_theta = theta;
  return out;
}

/**
 * A scaling dict as transformers 5 builds it when axolotl sets it: `rope_type` (not only the
 * legacy `type`) and a rope_theta (the model's base) unless the block sets one beside it.
 */
export function scalingDictFor5(dict: Record<string, unknown>, base: number | undefined, thetaBeside: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(dict)) {
    if (k === 'type' && dict.rope_type === undefined) out.rope_type = v;
    else out[k] = v;
  }
  if (out.rope_theta === undefined && !thetaBeside && base !== undefined && Number.isFinite(base)) out.rope_theta = base;
  return out;
}
