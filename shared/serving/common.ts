/**
 * What every engine module needs from a ModelRope: the trained context, the scaling as plain
 * numbers, the longest context the config's own settings support, the scaling the advice proposes
 * when a context goes past the trained one without any, and overrides in the modern spelling.
 */
import type { ModelRope, ScalingDescription } from '../config/modelRope';
import { trainedContextOf as trainedContextFact } from '../config/trainedContext';
import type { ServingInput } from './types';
import { familyDefaultContext, hasClassDefault } from '../config/families';

/** The trained context T as the config reader decides it (stated, catalog, else max_position_embeddings). */
export function trainedContextOf(rope: ModelRope): number {
  return trainedContextFact(rope).value;
}

/** The scaling object as plain values, with the type normalized (`type` honoured, `su` → longrope). */
export interface ScalingFacts {
  /** `none` when the config has no scaling (or `default`/`mrope`); undefined for a type no engine knows. */
  type: 'none' | 'linear' | 'dynamic' | 'yarn' | 'longrope' | 'llama3' | undefined;
  /** The type as written, for messages. */
  rawType?: string;
  factor?: number;
  /** `original_max_position_embeddings` inside the object, else Phi-3's top-level one. */
  original?: number;
  /** Every key of the object as written (values only). */
  params: Record<string, unknown>;
  /** Where the object lives: `rope_scaling`, `rope_parameters`, `text_config.rope_scaling`… */
  keyPath: string;
}

export function scalingFacts(rope: ModelRope, scaling: ScalingDescription | undefined = rope.scaling): ScalingFacts {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(scaling?.params ?? {})) params[k] = v.value;
  const num = (k: string) => (typeof params[k] === 'number' && Number.isFinite(params[k]) ? (params[k] as number) : undefined);
  const keyPath = scaling?.key ?? 'rope_scaling';
  const rawType = scaling?.rawType?.value;
  let type: ScalingFacts['type'];
  // Gemma-4's `proportional` chooses rotated channels, it does not stretch positions.
  if (!scaling || scaling.type === 'default' || scaling.type === 'proportional' || scaling.type === undefined && rawType === undefined) type = 'none';
  else type = scaling.type;
  const facts: ScalingFacts = { type, params, keyPath };
  if (rawType !== undefined) facts.rawType = rawType;
  const factor = num('factor');
  if (factor !== undefined) facts.factor = factor;
  const original = num('original_max_position_embeddings') ?? rope.topLevelOriginalContextLength?.value;
  if (original !== undefined) facts.original = original;
  return facts;
}

/**
 * The longest context the config's own settings support: YaRN original × factor; linear and
 * dynamic T × factor; llama3 and longrope (vendors ship max_position_embeddings at the extended
 * length) and no scaling: max_position_embeddings.
 */
export function supportedContext(rope: ModelRope, trained: number, facts: ScalingFacts = scalingFacts(rope)): number {
  const f = facts.factor;
  if (facts.type === 'yarn' && f !== undefined) return Math.floor((facts.original ?? trained) * f);
  if ((facts.type === 'linear' || facts.type === 'dynamic') && f !== undefined) return Math.floor(trained * f);
  return rope.contextLength.value;
}

/** The context a plan serves: the one asked for, else what the config supports. */
export function targetContext(input: ServingInput, facts: ScalingFacts): number {
  return input.context ?? supportedContext(input.rope, input.trainedContext, facts);
}

/** Types a user adds by hand (engines need them passed); llama3/longrope ship in the vendor's config. */
export function isHandAddedType(t: ScalingFacts['type']): t is 'linear' | 'dynamic' | 'yarn' {
  return t === 'linear' || t === 'dynamic' || t === 'yarn';
}

/**
 * advice.md situation 3: a context beyond T with no scaling gets YaRN {factor C/T, original T},
 * the preferred fix. Undefined when nothing needs extending.
 */
export function proposedScaling(facts: ScalingFacts, trained: number, context: number): Record<string, unknown> | undefined {
  if (facts.type !== 'none' || !(context > trained) || !(trained > 0)) return undefined;
  return { rope_type: 'yarn', factor: context / trained, original_max_position_embeddings: trained };
}

/**
 * The proposed scaling merged into the config's own object (v5 `rope_parameters` keeps its
 * rope_theta, an mrope object its sections): the fix owns only rope_type, factor and original.
 */
export function extendedScaling(facts: ScalingFacts, trained: number, context: number): Record<string, unknown> | undefined {
  const proposed = proposedScaling(facts, trained, context);
  return proposed ? { ...modernScaling(facts.params), ...proposed } : undefined;
}

/**
 * The scaling object in the modern spelling: `rope_type` (never the legacy `type`, which vLLM's
 * override path rejects with KeyError 'rope_type', vllm #20857), `su` → `longrope`.
 */
export function modernScaling(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const t = params['rope_type'] ?? params['type'];
  if (typeof t === 'string') out['rope_type'] = t.trim().toLowerCase() === 'su' ? 'longrope' : t;
  for (const [k, v] of Object.entries(params)) if (k !== 'type' && k !== 'rope_type') out[k] = v;
  return out;
}

/** `{rope_scaling: {...}}`, nested as the config nests it (`text_config.rope_scaling` → `{text_config: {rope_scaling}}`). */
export function overrideAt(keyPath: string, scaling: Record<string, unknown>): Record<string, unknown> {
  const parts = keyPath.split('.').filter(Boolean);
  let obj: Record<string, unknown> = scaling;
  for (let i = parts.length - 1; i >= 0; i--) obj = { [parts[i]]: obj };
  return obj;
}

/** The scaling object inside an override built by `overrideAt`. */
export function scalingInOverride(override: Record<string, unknown> | null, keyPath: string): Record<string, unknown> | undefined {
  let cur: unknown = override;
  for (const p of keyPath.split('.').filter(Boolean)) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return cur && typeof cur === 'object' ? (cur as Record<string, unknown>) : undefined;
}

/** Facts of a scaling object given as plain values (an override), with the config's top-level original. */
export function factsOfObject(rope: ModelRope, params: Record<string, unknown>, keyPath: string): ScalingFacts {
  const t = String(params['rope_type'] ?? params['type'] ?? 'default').trim().toLowerCase();
  const known: Record<string, ScalingFacts['type']> = { default: 'none', mrope: 'none', linear: 'linear', dynamic: 'dynamic', yarn: 'yarn', longrope: 'longrope', su: 'longrope', llama3: 'llama3' };
  const facts: ScalingFacts = { type: known[t], rawType: t, params, keyPath };
  if (typeof params['factor'] === 'number') facts.factor = params['factor'];
  const o = params['original_max_position_embeddings'];
  const original = typeof o === 'number' ? o : rope.topLevelOriginalContextLength?.value;
  if (original !== undefined) facts.original = original;
  return facts;
}

/** Keys whose values engines parse as floats: written `4.0`, as the engines' own docs do. */
export const FLOAT_KEYS: ReadonlySet<string> = new Set(['factor', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim', 'low_freq_factor', 'high_freq_factor', 'rope_theta', 'extrapolation_factor']);

/** Compact JSON with float keys written as floats (`"factor":4.0`). */
export function jsonText(value: unknown, key?: string): string {
  if (typeof value === 'number') return Number.isInteger(value) && key && FLOAT_KEYS.has(key) ? value.toFixed(1) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => jsonText(v)).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v, k)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A number for a command line: integers as integers, others with up to 6 decimals. */
export function argNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6)));
}

/** 131072 → "131,072". */
export function grouped(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n);
}

/** The context-length keys a config writes, or max_position_embeddings alone when the caller has none. */
export function lengthKeys(input: ServingInput): Record<string, number> {
  if (input.contextKeys && Object.keys(input.contextKeys).length) return { ...input.contextKeys };
  const c = input.rope.contextLength;
  // No key in the file: engines load the config through its transformers class, so they see the
  // class default (Gemma-3's text_config omits max_position_embeddings: Gemma3TextConfig's 131,072);
  // a length the reader only guessed for an unknown type is not one the engines see.
  if (!c.key && !c.node) {
    const classDefault = familyDefaultContext(input.rope.modelType);
    return classDefault.value === c.value && input.rope.modelType !== undefined && hasClassDefault(input.rope.modelType)
      ? { max_position_embeddings: c.value } : {};
  }
  const leaf = (c.key ?? 'max_position_embeddings').split('.').pop()!;
  return { [leaf]: c.value };
}

/** The model as the command names it. */
export function modelRef(input: ServingInput, fallback = 'MODEL'): string {
  return input.model && input.model.trim() ? input.model : fallback;
}
