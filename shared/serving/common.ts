/**
 * What every engine module needs from a ModelRope: the trained context, the scaling as plain
 * numbers, the longest context the config's own settings support, the scaling the advice proposes
 * when a context goes past the trained one without any, and overrides in the modern spelling.
 */
import type { ModelRope, ScalingDescription } from '../config/modelRope';
import { trainedContextOf as trainedContextFact } from '../config/trainedContext';
import { everyRopeLayerWindow, modelReach, ropeReachAt } from '../config/reach';
import type { ServingInput } from './types';
import { familyDefaultContext, hasClassDefault } from '../config/families';
import { RewriteAdvice, RewriteOption, adviseRewrite, extensionNeed } from '../advice/advice';
import { currentTypeName, ropeTypeOf } from '../rope/spec';
import { compactJsonText } from '../core/json';
import { enUS } from '../core/format';
import { editedBase } from '../config/editOrDerivative';

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
  if (!scaling || scaling.type === 'default' || scaling.type === 'proportional' || (scaling.type === undefined && rawType === undefined)) type = 'none';
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
 * The longest context the config's own settings support: the model's reach (config/reach.ts),
 * each scaling factor counted once; without scaling, the context it declares. Not what an engine derives: vLLM multiplies a linear model's
 * max_position_embeddings by the factor even when it already includes it.
 */
export function supportedContext(rope: ModelRope, trained: number): number {
  // Without scaling, the context the config declares (a vendor's claim above T is stock); the
  // plan then says what it takes to serve it.
  if (scalingFacts(rope).type === 'none') return Math.max(rope.contextLength.value, modelReach(rope, trained).value);
  return modelReach(rope, trained).value;
}

/** The context a plan serves: the one asked for, else what the config supports. */
export function targetContext(input: ServingInput, _facts?: ScalingFacts): number {
  return input.context ?? supportedContext(input.rope, input.trainedContext);
}

/**
 * The length a new scaling extends from at `context`, when the model has none and some RoPE
 * layer would see a distance beyond its reach; undefined when nothing needs extending (a scaled
 * model is never rescaled; a model whose own values already reach `context` gets nothing stacked;
 * layers that all attend within a window never see past it — where the engine honours the
 * window: `windows` false for an engine whose attention for this model ignores it).
 */
export function extensionFrom(input: ServingInput, facts: ScalingFacts, context: number, windows = true): number | undefined {
  if (facts.type !== 'none') return undefined;
  const from = modelReach(input.rope, input.trainedContext).unscaledFrom ?? input.trainedContext;
  if (!(from > 0) || !(context > from)) return undefined;
  return (windows ? ropeReachAt(input.rope, context) : context) > from ? from : undefined;
}

/** "beyond its trained context of 32,768", or of what its own values reach when they extend it (a fine-tune's own rope_theta). */
export function beyondFrom(from: number, trained: number): string {
  return from === trained
    ? `beyond its trained context of ${grouped(from)}`
    : `beyond the ${grouped(from)} its own values reach, past its trained context of ${grouped(trained)}`;
}

/** Notes every engine shares about the model's reach at `context` (windows, a reach below what the engine accepts). */
export function reachNotes(input: ServingInput, facts: ScalingFacts, context: number, engine: string, accepts: number, windows = true): string[] {
  const notes: string[] = [];
  const reach = modelReach(input.rope, input.trainedContext);
  const window = everyRopeLayerWindow(input.rope);
  if (!windows && window !== undefined && facts.type === 'none' && context > reach.value) {
    notes.push(
      `${engine} runs this model's attention without its ${grouped(window)}-token sliding window: every layer sees distances up to ${grouped(context)}.`,
    );
  }
  if (windows && facts.type === 'none' && context > reach.value && window !== undefined && window <= reach.value) {
    notes.push(
      `Every RoPE layer attends within a ${grouped(window)}-token sliding window, so no layer sees a distance beyond ${grouped(window)} at ${grouped(context)}: no RoPE scaling is needed (it would only change what the windows see).`,
    );
  }
  if (facts.type !== 'none' && context > reach.value && context <= accepts) {
    notes.push(
      `${grouped(context)} is beyond the ${grouped(reach.value)} tokens the model reaches (${reach.basis}): ${engine} accepts up to ${grouped(accepts)}, but positions past ${grouped(reach.value)} were never trained.`,
    );
  }
  return notes;
}

/**
 * Static YaRN: vLLM, SGLang and llama.cpp rescale every position once YaRN is on, whatever the
 * input's length — vLLM's YaRNScalingRotaryEmbedding._compute_cos_sin_cache
 * (vllm/model_executor/layers/rotary_embedding/yarn_scaling_rope.py) and SGLang's
 * (python/sglang/srt/layers/rotary_embedding.py) build one cos/sin cache from the interpolated
 * frequencies and mscale for all positions; llama.cpp's rope_yarn (ggml/src/ggml-cuda/rope.cu)
 * mixes interpolated frequencies at every position once ext_factor is non-zero, and
 * src/llama-context.cpp sets yarn_ext_factor to 1 for rope scaling type yarn. Served at or below the original
 * context, the scaling only costs quality on short inputs.
 */
export function staticYarnNote(facts: ScalingFacts, trained: number, context: number, engine: string, rope?: ModelRope): string | undefined {
  if (facts.type !== 'yarn' || facts.factor === undefined || !(facts.factor > 1)) return undefined;
  const original = facts.original ?? trained;
  if (!(context <= original)) return undefined;
  // The model's own YaRN (DeepSeek-V3/R1, gpt-oss) is how it was trained to run: never advised away.
  if (rope && isNativeYarn(rope)) return undefined;
  return `${engine} applies YaRN at every length (static scaling): served at ${grouped(context)}, within the ${grouped(original)} the model was trained at, it gains nothing and costs quality on short inputs. Leave rope_scaling out unless inputs go past ${grouped(original)}.`;
}

/**
 * The config's YaRN is the model's own, not one a user added (Qwen's card snippet): the identified
 * model shipped YaRN, or the config declares the stretched context original × factor as its
 * max_position_embeddings, as checkpoints trained with YaRN ship it (DeepSeek-V3/R1: 4,096 × 40 =
 * 163,840; gpt-oss: 4,096 × 32 = 131,072). Such a model was trained with the scaling on; leaving
 * it out runs frequencies it never saw.
 */
export function isNativeYarn(rope: ModelRope): boolean {
  const facts = scalingFacts(rope);
  if (facts.type !== 'yarn') return false;
  if (rope.shipped?.scalingType === 'yarn') return true;
  const o = facts.original,
    f = facts.factor;
  return o !== undefined && f !== undefined && f > 1 && rope.contextLength.value >= Math.floor(o * f);
}

/** Types a user adds by hand (engines need them passed); llama3/longrope ship in the vendor's config. */
export function isHandAddedType(t: ScalingFacts['type']): t is 'linear' | 'dynamic' | 'yarn' {
  return t === 'linear' || t === 'dynamic' || t === 'yarn';
}

/**
 * advice.md situation 3: a context beyond the model's reach with no scaling gets the one
 * recommended rewrite (advice/advice.ts), the same `check` prefers and the Inspector shows.
 * Undefined when nothing needs extending (`windows`: whether the engine honours sliding windows).
 */
export function recommendedRewrite(input: ServingInput, facts: ScalingFacts, context: number, windows = true): RewriteAdvice | undefined {
  if (facts.type !== 'none') return undefined;
  const need = extensionNeed(input.rope, context, { trained: input.trainedContext, windows });
  // An edit of a shipped model is judged from the base it shipped with, as `check` judges it (the command puts it back).
  const edit = editedBase(input.rope);
  return need
    ? adviseRewrite({
        rope: input.rope,
        length: context,
        trained: input.trainedContext,
        from: need.from,
        reach: need.reach,
        variant: 'v5',
        ...(edit ? { base: edit.shipped } : {}),
      })
    : undefined;
}

/**
 * What a serving note says of an edited base: the rewrite was judged from the shipped one, and whether the
 * command puts it back (`written`) or the config must (engines with no way to set the base).
 */
export function restoredBaseNote(input: ServingInput, written: boolean): string {
  const edit = editedBase(input.rope);
  if (!edit) return '';
  const key = input.rope.base.key ?? 'rope_theta';
  return ` ${key} ${grouped(edit.edited)} is an edit of the shipped ${grouped(edit.shipped)}: the rewrite is judged from ${grouped(edit.shipped)}, ${written ? 'which the command puts back' : `so set ${key} back to ${edit.shipped} in the config first`}.`;
}

/**
 * A rewrite as config override values (vLLM `--hf-overrides`, SGLang `--json-model-override-args`),
 * nested where the config keeps its scaling (`text_config.rope_scaling` → `{text_config: …}`).
 * A scaling merges into the config's own object (v5 rope_parameters keeps its rope_theta, mrope
 * its sections); a new base is written beside it (inside rope_parameters for v5 files). The
 * context is raised where the engine derives it from max_position_embeddings (llama3, a new base),
 * or where the scaling does not stretch to it. `scaling`: the scaling object in effect after it.
 */
export function rewriteOverride(
  facts: ScalingFacts,
  o: RewriteOption,
  context: number,
  opts: {
    yarnSetsLength?: boolean;
    setsLength?: boolean;
    /** The keys that set the engine's length to n (SGLang reads Qwen-1's seq_length first); max_position_embeddings when not given. */
    lengthValues?: (n: number) => Record<string, number>;
    /** The shipped base an edited config changed: a scaling is written with it (its verdict assumes it). */
    restoreBase?: number;
  } = {},
): { override: Record<string, unknown>; scaling?: Record<string, unknown>; context?: number } {
  const lengthOf = (n: number): Record<string, number> => opts.lengthValues?.(n) ?? { max_position_embeddings: n };
  const parts = facts.keyPath.split('.').filter(Boolean);
  const leaf = parts.pop() ?? 'rope_scaling';
  const wrap = (v: Record<string, unknown>) => (parts.length ? overrideAt(parts.join('.'), v) : v);
  if (o.scaling) {
    const scaling = { ...modernScaling(facts.params), ...o.scaling };
    const stretched = o.original !== undefined ? Math.floor(o.factor * o.original) : undefined;
    let mpe: number | undefined;
    if (o.kind === 'llama3') mpe = Math.max(context, o.recipe?.reach ?? 0);
    else if (opts.setsLength) mpe = context;
    else if (o.kind === 'yarn' && (opts.yarnSetsLength || (stretched !== undefined && stretched < context))) mpe = context;
    const base = opts.restoreBase;
    const written = base !== undefined && leaf === 'rope_parameters' ? { ...scaling, rope_theta: base } : scaling;
    return {
      override: wrap({
        [leaf]: written,
        ...(base !== undefined && leaf !== 'rope_parameters' ? { rope_theta: base } : {}),
        ...(mpe !== undefined ? lengthOf(mpe) : {}),
      }),
      scaling,
      ...(mpe !== undefined ? { context: mpe } : {}),
    };
  }
  const base = o.base!;
  if (leaf === 'rope_parameters')
    return { override: wrap({ rope_parameters: { ...modernScaling(facts.params), rope_theta: base }, ...lengthOf(context) }), context };
  return { override: wrap({ rope_theta: base, ...lengthOf(context) }), context };
}

/** A rewrite kind in words, for notes ("TGI's CLI cannot set YaRN"). */
export function kindName(kind: string): string {
  return (
    (
      {
        yarn: 'YaRN',
        llama3: 'llama3 scaling',
        dynamic: 'dynamic NTK',
        linear: 'linear scaling',
        ntk: 'a new rope_theta',
        'raise-base': 'a new rope_theta',
      } as Record<string, string>
    )[kind] ?? kind
  );
}

/** The plan's `rewrite` field for the advice's preferred rewrite. */
export function planRewrite(advice: RewriteAdvice, written: boolean): NonNullable<import('./types').ServingPlan['rewrite']> {
  const o = advice.preferred;
  return {
    kind: o.kind,
    factor: o.factor,
    ...(o.original !== undefined ? { original: o.original } : {}),
    ...(o.base !== undefined ? { base: o.base } : {}),
    label: o.label,
    recipe: !!o.recipe,
    written,
    // The same verdict check's fix carries (advice/scalingVerdict.ts): serving is judged by reach.
    ...(o.verdict ? { verdict: o.verdict } : {}),
  };
}

/** "the override adds YaRN ×4 over 32,768 (…): the preferred fix, because …" for every engine's note. */
export function rewriteNote(input: ServingInput, advice: RewriteAdvice, how: string): string {
  return `The config has no RoPE scaling and ${grouped(advice.length)} is ${beyondFrom(advice.from, input.trainedContext)}: ${how} ${advice.preferred.label}, the preferred fix: ${advice.why}.`;
}

/** The preferred rewrite named but not written, where `reason` says why no override reaches the model's positions. */
export function unwrittenRewrite(input: ServingInput, advice: RewriteAdvice, reason: string): { rewrite: ReturnType<typeof planRewrite>; note: string } {
  return {
    rewrite: planRewrite(advice, false),
    note: `${rewriteNote(input, advice, 'the preferred rewrite is')} ${reason} Served as written, every position past ${grouped(input.trainedContext)} is extrapolated.`,
  };
}

/**
 * The scaling object in the modern spelling: `rope_type` (never the legacy `type`, which vLLM's
 * override path rejects with KeyError 'rope_type', vllm #20857), `su` → `longrope`.
 */
export function modernScaling(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const t = params['rope_type'] ?? params['type'];
  if (typeof t === 'string') out['rope_type'] = currentTypeName(t);
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
  const t = String(params['rope_type'] ?? params['type'] ?? 'default')
    .trim()
    .toLowerCase();
  const type = ropeTypeOf(t);
  // As scalingFacts: default frequencies (mrope) and Gemma-4's `proportional` stretch no position.
  const facts: ScalingFacts = { type: type === 'default' || type === 'proportional' ? 'none' : type, rawType: t, params, keyPath };
  if (typeof params['factor'] === 'number') facts.factor = params['factor'];
  const o = params['original_max_position_embeddings'];
  const original = typeof o === 'number' ? o : rope.topLevelOriginalContextLength?.value;
  if (original !== undefined) facts.original = original;
  return facts;
}

/** Keys whose values engines parse as floats: written `4.0`, as the engines' own docs do. */
export const FLOAT_KEYS: ReadonlySet<string> = new Set([
  'factor',
  'attention_factor',
  'beta_fast',
  'beta_slow',
  'mscale',
  'mscale_all_dim',
  'low_freq_factor',
  'high_freq_factor',
  'rope_theta',
  'extrapolation_factor',
]);

/** Compact JSON with float keys written as floats (`"factor":4.0`). */
export function jsonText(value: unknown, key?: string): string {
  return compactJsonText(value, floatKeyNumber, key);
}

/** A number under a float key, integral, as a float (`4.0`); other values as JSON writes them. */
const floatKeyNumber = (value: unknown, key: string | undefined): string | undefined =>
  typeof value === 'number' && Number.isInteger(value) && key && FLOAT_KEYS.has(key) ? value.toFixed(1) : undefined;

/** A number for a command line: integers as integers, others with up to 6 decimals. */
export function argNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6)));
}

/** 131072 → "131,072". */
export function grouped(n: number): string {
  return Number.isFinite(n) ? enUS(Math.round(n)) : String(n);
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
      ? { max_position_embeddings: c.value }
      : {};
  }
  const leaf = (c.key ?? 'max_position_embeddings').split('.').pop()!;
  return { [leaf]: c.value };
}

/** The model as the command names it. */
export function modelRef(input: ServingInput, fallback = 'MODEL'): string {
  return input.model && input.model.trim() ? input.model : fallback;
}
