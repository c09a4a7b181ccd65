/**
 * The model as an engine builds it for one launch: the resolved model's RoPE description with the
 * command's overrides or flags in effect, and the length the engine derives for it. Each engine
 * module says what its flags do (its `<engine>LaunchEffect`); this file holds the shared shape and
 * the plain-value plumbing.
 */
import type { Located, ModelRope, ScalingDescription } from '../config/modelRope';
import { ropeTypeOf } from '../rope/spec';
import { ScalingFacts, factsOfObject, scalingFacts } from './common';
import { enUS } from '../core/format';

export interface LaunchEffect {
  /** The model as the engine will run it for this command. */
  rope: ModelRope;
  /** The scaling in effect (the command's, else the model's). */
  facts: ScalingFacts;
  /** The length the engine derives (vLLM, SGLang: refuses above it; llama.cpp, Ollama: caps there; TGI: reads it). */
  derived: number;
  /** How the engine arrived at `derived`, for messages ("max_position_embeddings, no RoPE scaling"). */
  basis: string;
  /** The scaling in effect was set by the command (an override object or flags), not by the model. */
  scalingFromCommand: boolean;
  /** The command replaces a scaling the model ships with (an override object, or llama.cpp/TGI flags). */
  replacesModelScaling: boolean;
  notes: string[];
  /**
   * The engine's length verdict, as data: what it does with a requested length above `derived`
   * (vLLM, SGLang: refuse to start; llama-server: caps each slot there; llama-cli: warns and runs;
   * Ollama: clamps; TGI's launcher: does not check).
   */
  overLength?: 'refuses' | 'caps' | 'warns' | 'clamps' | 'unchecked';
  /** Override keys the engine sets where the model never reads them (vLLM: top-level RoPE keys of a model built from `scope`). */
  deadOverrideKeys?: { key: string; scope: string }[];
  /** The sub-config an override's RoPE keys must be written under to be read (vLLM: `text_config`). */
  overrideScope?: string;
  /** Scaling keys the model's attention indexes that the command's scaling lacks (a KeyError at load). */
  droppedScalingKeys?: { keys: string[]; reader: string };
  /**
   * Scaling keys the model's attention reads with a default that the command's scaling lacks while the
   * model ships another value: the engine runs with its default (serving/scalingReads.ts).
   */
  defaultedScalingKeys?: { keys: { key: string; own: unknown; engineDefault: number }[]; reader: string };
}

/** A scaling object given as plain values (an override or flags), as a description without positions. */
export function plainScaling(params: Record<string, unknown>, key: string, note: string): ScalingDescription {
  const located: Record<string, Located<unknown>> = {};
  for (const [k, v] of Object.entries(params)) located[k] = { value: v, key: `${key}.${k}`, note };
  const raw = params['rope_type'] ?? params['type'];
  const desc: ScalingDescription = { key, type: typeof raw === 'string' ? ropeTypeOf(raw) : 'default', params: located };
  if (typeof raw === 'string') desc.rawType = { value: raw, key: `${key}.rope_type`, note };
  return desc;
}

/** The model's values with their positions dropped (they point into another document). */
export function detached(rope: ModelRope, from: string): ModelRope {
  const d = <T>(l: Located<T>): Located<T> => ({ value: l.value, key: l.key, note: l.note ?? `from ${from}` });
  const out: ModelRope = {
    ...rope,
    base: d(rope.base),
    headDim: d(rope.headDim),
    rotaryDim: d(rope.rotaryDim),
    partialRotaryFactor: d(rope.partialRotaryFactor),
    contextLength: d(rope.contextLength),
  };
  if (rope.scaling)
    out.scaling = { ...rope.scaling, node: undefined, params: Object.fromEntries(Object.entries(rope.scaling.params).map(([k, v]) => [k, d(v)])) };
  return out;
}

/**
 * A config override applied as `PretrainedConfig.update` applies it (vLLM `--hf-overrides`, SGLang
 * `--json-model-override-args`): each top-level key replaces the model's value; a `rope_scaling`
 * or `rope_parameters` object replaces the whole scaling object.
 */
export function withOverrides(
  rope: ModelRope,
  overrides: Record<string, unknown> | undefined,
  label: string,
): { rope: ModelRope; facts: ScalingFacts; scaling?: Record<string, unknown> } {
  if (!overrides) return { rope, facts: scalingFacts(rope) };
  const out: ModelRope = { ...rope };
  const theta = overrides['rope_theta'];
  if (typeof theta === 'number') out.base = { value: theta, key: `${label}.rope_theta`, note: label };
  // ChatGLM/GLM configs state their base as rope_ratio (base = 10000 × ratio): an override of it moves the base.
  const ratio = overrides['rope_ratio'];
  if (typeof ratio === 'number' && typeof theta !== 'number' && (rope.base.key?.endsWith('rope_ratio') || rope.modelType === 'chatglm'))
    out.base = { value: 10000 * ratio, key: `${label}.rope_ratio`, note: `${label}: base = 10000 × rope_ratio (${ratio})` };
  const mpe = overrides['max_position_embeddings'];
  if (typeof mpe === 'number') out.contextLength = { value: mpe, key: `${label}.max_position_embeddings`, note: label };
  for (const key of ['rope_scaling', 'rope_parameters']) {
    const v = overrides[key];
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const params = v as Record<string, unknown>;
      out.scaling = plainScaling(params, key, label);
      if (typeof params['rope_theta'] === 'number') out.base = { value: params['rope_theta'] as number, key: `${label}.${key}.rope_theta`, note: label };
      return { rope: out, facts: factsOfObject(out, params, key), scaling: params };
    }
  }
  return { rope: out, facts: scalingFacts(out) };
}

/** The override keys a model whose attention reads only rope_ratio for its positions (ChatGLM in vLLM and SGLang) never reads. */
const RATIO_ONLY_IGNORES = ['rope_theta', 'rope_scaling', 'rope_parameters'];

/**
 * Why `engine`'s attention for this model type reads no rope_scaling or rope_theta of an override, when it
 * does not. ChatGLM2/3 and GLM-4 (`model_type` chatglm) in vLLM (`model_executor/models/chatglm.py`) and
 * SGLang (`python/sglang/srt/models/chatglm.py`): GLMAttention.__init__ calls get_rope with
 * base = 10000 × rope_ratio and no scaling, so such an override changes only the length the engine
 * derives (its length rule multiplies by rope_scaling.factor), never a position.
 */
export function ratioOnlyReason(engine: string, modelType: string | undefined): string | undefined {
  return modelType === 'chatglm'
    ? `${engine}'s ChatGLM attention (models/chatglm.py) builds its rotary embedding from rope_ratio alone: an override's rope_scaling or rope_theta reaches no position.`
    : undefined;
}

/**
 * An override as the engine reads it: `applied` is the merged config its length rule reads; `rope`,
 * `facts` and `scaling` are what its attention runs. They differ only for a model whose attention reads
 * rope_ratio alone (`ratioOnly`, from ratioOnlyReason): then its rope_ratio counts, its rope_theta and
 * scaling do not, and `ignored` says so when the override set either.
 */
export function overrideAsRead(rope: ModelRope, overrides: Record<string, unknown> | undefined, label: string, ratioOnly: string | undefined) {
  const applied = withOverrides(rope, overrides, label);
  if (!ratioOnly) return { applied, rope: applied.rope, facts: applied.facts, scaling: applied.scaling, ignored: undefined };
  const kept = overrides ? Object.fromEntries(Object.entries(overrides).filter(([k]) => !RATIO_ONLY_IGNORES.includes(k))) : undefined;
  const positions = withOverrides(rope, kept, label);
  const ignored = applied.scaling || applied.rope.base.value !== positions.rope.base.value ? ratioOnly : undefined;
  return { applied, rope: positions.rope, facts: positions.facts, scaling: positions.scaling, ignored };
}

/** The same model with a scaling set by flags (llama.cpp, TGI). */
export function withScaling(rope: ModelRope, params: Record<string, unknown>, label: string): { rope: ModelRope; facts: ScalingFacts } {
  const out: ModelRope = { ...rope, scaling: plainScaling(params, 'rope_scaling', label) };
  return { rope: out, facts: factsOfObject(out, params, 'rope_scaling') };
}

/** A scaling described in words: "YaRN factor 4 over 32,768", "linear factor 3", "no scaling". */
export function scalingWords(f: ScalingFacts): string {
  const n = (x: number) => enUS(x, { maximumFractionDigits: 4 });
  switch (f.type) {
    case 'none':
      return 'no RoPE scaling';
    case 'yarn':
      return `YaRN factor ${f.factor === undefined ? '?' : n(f.factor)}${f.original !== undefined ? ` over ${n(f.original)}` : ''}`;
    case 'llama3':
      return `llama3 factor ${f.factor === undefined ? '?' : n(f.factor)}${f.original !== undefined ? ` over ${n(f.original)}` : ''}`;
    case 'linear':
    case 'dynamic':
      return `${f.type === 'linear' ? 'linear' : 'dynamic NTK'} factor ${f.factor === undefined ? '?' : n(f.factor)}`;
    case 'longrope':
      return 'longrope';
    default:
      return `rope_type '${f.rawType ?? '?'}'`;
  }
}
