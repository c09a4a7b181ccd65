/**
 * The consumer model's contract: how one reader of a config.json (a transformers generation, an
 * inference engine) reads its RoPE keys. Each reader lives next to that consumer's other truths
 * (engine modules in this folder, transformers generations in transformers.ts); consumers.ts loops
 * over them. Pure data, no file access.
 */
import type { ModelRope } from '../config/modelRope';
import type { ConfigNode, ParsedDocument } from '../document/configNode';
import { child, toPlain } from '../document/configNode';
import { primaryScope } from '../config/modelConfig';
import { factsOfObject, trainedContextOf, type ScalingFacts } from './common';
import type { RopeSpec, RopeType } from '../rope/spec';
import { ropeTypeOf } from '../rope/spec';
import type { ServingInput } from './types';

export type ConsumerId = 'transformers-4.42' | 'transformers-4' | 'transformers-5' | 'vllm-4x' | 'vllm' | 'sglang' | 'llama.cpp' | 'tgi' | 'ollama';
/** The package or program a pin names (requirements, image tags, the `ropeLens.consumers` setting). */
export type ConsumerPackage = 'transformers' | 'vllm' | 'sglang' | 'llama.cpp' | 'tgi' | 'ollama';

/** The RoPE keys exactly as the file writes them, in its language-model scope. */
export interface ConfigView {
  modelType?: string;
  /** The root's `model_type`: the class AutoConfig builds (a multimodal wrapper's, when the RoPE keys sit in a nested text config). */
  rootModelType?: string;
  /** `transformers_version` the file was saved with. */
  transformersVersion?: string;
  /** Top-level `rope_theta` (v4 spelling). */
  ropeTheta?: number;
  /** Top-level `rope_scaling` when it is a non-empty object (v4 spelling). */
  ropeScaling?: Record<string, unknown>;
  /** `rope_parameters` (v5 spelling), flat or keyed by layer type. */
  ropeParameters?: Record<string, unknown>;
  /** True when `rope_parameters` is keyed by layer type (`full_attention`, `sliding_attention`, …). */
  perLayerType: boolean;
  /** Key path of the scope (`[]` for the root, `['text_config']` for a nested text config). */
  scopePath: string[];
  /** The scope node itself (fixes insert beside `rope_parameters`). */
  scope?: ConfigNode;
}

/** How one consumer reads the file. Numbers are null where the consumer has none (or it refuses). */
export interface ConsumerReading {
  consumer: ConsumerId;
  /** Human name with the release range, e.g. `transformers 4.43 – 4.57`. */
  label: string;
  /** The package a pin names for this consumer, and the release range the row covers. */
  pkg: ConsumerPackage;
  range?: { from?: string; before?: string };
  /** Where the reading was verified (file::function @ release). */
  source: string;
  /**
   * reads: loads and computes these values; refuses: raises at load (`error`); cannot-load: the
   * consumer does not know this model type at all (not a misread: no finding); not-modelled: no
   * verified reading for this model type at this release (shown, never judged).
   */
  status: 'reads' | 'refuses' | 'cannot-load' | 'not-modelled';
  /** The error it raises, as it words it. */
  error?: string;
  base: number | null;
  /** Where the base comes from: a key path, or `default (not read from the file)`. */
  baseFrom: string;
  /** `none` when no scaling applies. */
  scalingType: string | null;
  factor: number | null;
  /** cos/sin multiplier (YaRN mscale, longrope attention factor); null where the consumer's value was not verified. */
  attentionFactor: number | null;
  /** How the consumer arrives at its attention factor, where it differs from transformers' rule (for messages). */
  attentionFactorHow?: string;
  /** Longest context the consumer accepts without overrides; null for libraries that do not cap it. */
  derivedMaxLen: number | null;
  windows: 'honoured' | 'ignored' | 'n/a' | 'not verified';
  /**
   * Set when the consumer reads the scaling but cannot apply it (llama.cpp drops dynamic): a
   * capability gap the serving notes already state, not a misread of the file's keys.
   */
  scalingDropped?: string;
  /**
   * How many dimensions of each head the consumer rotates, where verified for this model type
   * (absent: not verified). transformers 5.x reads only some partial-rotary keys per class.
   */
  rotaryDim?: number;
  /** The rotary dimensions the model's own config states (the model reader's): what `rotaryDim` is judged against. */
  modelRotaryDim?: number;
  /** Set when the consumer has no class for the model type and runs the repository's own code (trust_remote_code). */
  remoteCode?: boolean;
  notes: string[];
}

const NESTED_SCOPES = ['text_config', 'llm_config', 'language_config', 'text_model'];

function plainObject(node: ConfigNode | undefined): Record<string, unknown> | undefined {
  if (node?.kind !== 'object' || !node.children?.length) return undefined;
  return toPlain(node) as Record<string, unknown>;
}

/** The raw RoPE keys of a model config (undefined when the document has no object root). */
export function configView(doc: ParsedDocument): ConfigView | undefined {
  const root = doc.root;
  if (!root || root.kind !== 'object') return undefined;
  const scope = primaryScope(root);
  const scopePath = scope === root ? [] : [NESTED_SCOPES.find((k) => child(root, k) === scope) ?? 'text_config'];
  const str = (n: ConfigNode | undefined) => (n?.kind === 'string' && typeof n.value === 'string' ? n.value : undefined);
  const num = (n: ConfigNode | undefined) => (n?.kind === 'number' && typeof n.value === 'number' ? n.value : undefined);
  const rp = plainObject(child(scope, 'rope_parameters'));
  const view: ConfigView = { perLayerType: false, scopePath, scope };
  const modelType = str(child(scope, 'model_type')) ?? str(child(root, 'model_type'));
  if (modelType) view.modelType = modelType;
  const rootType = str(child(root, 'model_type'));
  if (rootType) view.rootModelType = rootType;
  const tv = str(child(root, 'transformers_version')) ?? str(child(scope, 'transformers_version'));
  if (tv) view.transformersVersion = tv;
  const theta = num(child(scope, 'rope_theta'));
  if (theta !== undefined) view.ropeTheta = theta;
  const rs = plainObject(child(scope, 'rope_scaling'));
  if (rs) view.ropeScaling = rs;
  if (rp) {
    view.ropeParameters = rp;
    view.perLayerType = Object.values(rp).some((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  }
  return view;
}

/** `4.43.0.dev0` → [4, 43, 0]; undefined for anything that is not a dotted version. */
export function versionParts(v: string | undefined): number[] | undefined {
  const m = v?.trim().match(/^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/);
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

/** a < b for dotted versions (missing parts count as 0): the one version comparison (consumer ranges, pinned engine images). */
export function versionBefore(a: string, b: string): boolean {
  const x = versionParts(a),
    y = versionParts(b);
  if (!x || !y) return false;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/** Whether a version lies in a reading's release range. */
export function inRange(version: string, range: ConsumerReading['range']): boolean {
  if (!range) return true;
  if (range.from && versionBefore(version, range.from)) return false;
  if (range.before && !versionBefore(version, range.before)) return false;
  return true;
}

/** The scaling type a plain scaling object names (`type` honoured, `su` → longrope); `none` for default/mrope/absent. */
export function scalingTypeOf(obj: Record<string, unknown> | undefined): string {
  if (!obj) return 'none';
  const t = obj['rope_type'] ?? obj['type'];
  if (typeof t !== 'string') return 'none';
  const n = t.trim().toLowerCase();
  const type = ropeTypeOf(n);
  if (type === 'default') return 'none';
  return type ?? n;
}

export function numberIn(obj: Record<string, unknown> | undefined, key: string): number | undefined {
  const v = obj?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** What every reader receives. */
export interface ConsumerInput {
  rope: ModelRope;
  view: ConfigView;
  /** Every context-length key the file writes (engines take the min or the first of different lists). */
  contextKeys: Readonly<Record<string, number>>;
  /** The document's text (how a number is written: Python reads `8.0` as a float, `8` as an int). */
  text?: string;
}

/**
 * A RoPE spec for a consumer's reading: the file's rotary dimension and context, with the base
 * and scaling object the consumer actually uses (plain values).
 */
export function specOf(rope: ModelRope, base: number, scaling: Record<string, unknown> | undefined, type: string): RopeSpec {
  const known = ['linear', 'dynamic', 'yarn', 'longrope', 'llama3', 'proportional'];
  const spec: RopeSpec = {
    ropeType: (known.includes(type) ? type : 'default') as RopeType,
    base,
    rotaryDim: rope.rotaryDim.value,
    maxPositionEmbeddings: rope.contextLength.value,
  };
  const n = (k: string) => numberIn(scaling, k);
  const set = <K extends keyof RopeSpec>(k: K, v: RopeSpec[K] | undefined) => {
    if (v !== undefined) spec[k] = v;
  };
  set('factor', n('factor'));
  set('originalMaxPositionEmbeddings', n('original_max_position_embeddings'));
  set('topLevelOriginalMaxPositionEmbeddings', rope.topLevelOriginalContextLength?.value);
  set('attentionFactor', n('attention_factor'));
  set('betaFast', n('beta_fast'));
  set('betaSlow', n('beta_slow'));
  set('mscale', n('mscale'));
  set('mscaleAllDim', n('mscale_all_dim'));
  set('lowFreqFactor', n('low_freq_factor'));
  set('highFreqFactor', n('high_freq_factor'));
  const list = (k: string) => (Array.isArray(scaling?.[k]) ? (scaling![k] as unknown[]).map((x) => (typeof x === 'number' ? x : NaN)) : undefined);
  set('shortFactor', list('short_factor'));
  set('longFactor', list('long_factor'));
  if (spec.ropeType === 'proportional') set('headDim', rope.headDim.value);
  return spec;
}

/** The base and scaling object a reader of the legacy keys (rope_theta, rope_scaling) gets. */
export function legacyKeys(input: ConsumerInput, defaultBase: number): { base: number; baseFrom: string; scaling?: Record<string, unknown> } {
  const { view } = input;
  // Without rope_parameters the file is in the legacy spelling the model reader already reads with
  // each family's own 4.x keys (rotary_emb_base, global_rope_theta, attn_config.rope_theta, …).
  if (!view.ropeParameters) return modernKeys(input);
  const base = view.ropeTheta ?? defaultBase;
  const baseFrom = view.ropeTheta !== undefined ? 'rope_theta' : `default rope_theta ${defaultBase} (not read from the file)`;
  return view.ropeScaling ? { base, baseFrom, scaling: view.ropeScaling } : { base, baseFrom };
}

/** The file's own reading (transformers 5 semantics, config/modelConfig.ts): base and scaling object. */
export function modernKeys(input: ConsumerInput): { base: number; baseFrom: string; scaling?: Record<string, unknown> } {
  const { rope } = input;
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rope.scaling?.params ?? {})) plain[k] = v.value;
  const out = { base: rope.base.value, baseFrom: rope.base.key ?? `default rope_theta ${rope.base.value} (not read from the file)` };
  return rope.scaling ? { ...out, scaling: plain } : out;
}

/** A row for an engine from the base and scaling object it uses. */
export function engineRow(
  head: Pick<ConsumerReading, 'consumer' | 'label' | 'pkg' | 'source'> & Partial<Pick<ConsumerReading, 'range' | 'windows'>>,
  read: { base: number; baseFrom: string; scaling?: Record<string, unknown> },
  derivedMaxLen: number | null,
  notes: string[] = [],
): ConsumerReading {
  const scalingType = scalingTypeOf(read.scaling);
  return {
    windows: 'not verified',
    ...head,
    status: 'reads',
    base: read.base,
    baseFrom: read.baseFrom,
    scalingType,
    factor: scalingType === 'none' ? null : (numberIn(read.scaling, 'factor') ?? null),
    attentionFactor: null,
    derivedMaxLen,
    notes,
  };
}

/** Whether the file has sliding-window layers at all (a consumer's windows cell is n/a otherwise). */
export function hasWindows(input: ConsumerInput): boolean {
  return !!input.rope.groups?.some((g) => g.window !== undefined);
}

/** The serving model's input for the same file (engines' derived-length functions take it). */
export function servingOf(input: ConsumerInput): ServingInput {
  return { rope: input.rope, trainedContext: trainedContextOf(input.rope), contextKeys: input.contextKeys };
}

/** Scaling facts of the object a consumer uses (`none` when it uses none). */
export function factsOfReading(input: ConsumerInput, scaling: Record<string, unknown> | undefined): ScalingFacts {
  return factsOfObject(input.rope, scaling ?? { rope_type: 'default' }, input.rope.scaling?.key ?? 'rope_scaling');
}
