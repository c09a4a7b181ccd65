/**
 * Hugging Face model config (config.json, or the same keys in YAML) → ModelRope: base, rotary
 * dimension, context, scaling, sliding window and per-layer variants, each tied to the node it was
 * read from or marked as a default with the reason. Also recognises documents that are not model
 * configs (package.json, tsconfig, tokenizer files, training YAML, CI files) and yields nothing.
 */
import { PARTIAL_FACTOR_DEFAULT_ROPE_5, ROTARY_DIM_FROM_FILE_5 } from './transformers5Partial';
import { ConfigNode, ParsedDocument, child } from '../document/configNode';
import { RopeError } from '../core/errors';
import { ROPE_TYPES, RopeSpec, RopeType, TransformersVariant, ropeTypeOf } from '../rope/spec';
import { GEMMA3_LOCAL_BASE, familyDefaultBase, familyDefaultContext, usesLocalBase } from './families';
import type { Located, ModelRope, ScalingDescription } from './modelRope';
import { keyPathOf, locatedBoolean, locatedNumber, locatedString, noted, numberOf, paramValue, stringOf } from './modelValues';
import { draftHeadOf } from './draftHead';
import { noRopeReason } from './ropePresence';
import { readAttentionGroups } from './attentionGroups';
import { statedTrainedContext } from './trainedContext';
import { applyIdentity } from './applyIdentity';
import { ROTARY_DIM_CLASSES_5, knownTo5x } from './transformers5Classes';
import { gemma4DefaultScalings } from './gemma4Defaults';
import { rotaryTableOf, tablesFromFlatScaling } from './rotaryTables';

/** Keys that only a model config has (any one of them, with no non-model marker, makes a model config). */
const MODEL_KEYS = [
  'model_type',
  'architectures',
  'num_attention_heads',
  'n_head',
  'num_heads',
  'rope_theta',
  'rope_scaling',
  'rope_parameters',
  'max_position_embeddings',
  'rotary_emb_base',
  'rope_ratio',
  'rotary_pct',
  'qk_rope_head_dim',
  'n_positions',
  'kv_channels',
  'head_dim',
  'partial_rotary_factor',
];
/** Keys of well-known non-model JSON/YAML files and of training configs. */
const NON_MODEL_KEYS = [
  // package.json, tsconfig, eslint, VS Code
  'dependencies',
  'devDependencies',
  'scripts',
  'compilerOptions',
  'extends',
  'contributes',
  'engines',
  // tokenizer.json, tokenizer_config.json, special_tokens_map.json, generation/adapter configs
  'added_tokens',
  'normalizer',
  'pre_tokenizer',
  'added_tokens_decoder',
  'peft_type',
  'lora_alpha',
  // CI YAML
  'jobs',
  'stages',
  'pipeline',
  'steps',
  'services',
  // training configs (axolotl, LLaMA-Factory, torchtune, LitGPT, GPT-NeoX, nanotron)
  'base_model',
  'model_name_or_path',
  'sequence_len',
  'cutoff_len',
  'datasets',
  'dataset',
  'micro_batch_size',
  'num_epochs',
  'learning_rate',
  'optimizer',
  'train_micro_batch_size_per_gpu',
  'train_iters',
  'train-iters',
  'data_path',
  'data-path',
  'output_dir',
  'checkpoint_dir',
  'checkpointer',
  'tokenizer',
  'stage',
  'finetuning_type',
  'max_steps',
  'epochs',
  'lr',
  'zero_optimization',
  'general',
];
/** Where multimodal and wrapper configs keep the language model's keys. */
const NESTED_SCOPES = ['text_config', 'llm_config', 'language_config', 'text_model', 'thinker_config'];
/** Keys that show a scope holds the attention/RoPE description. */
const ARCH_KEYS = [
  'num_attention_heads',
  'n_head',
  'num_heads',
  'n_heads',
  'hidden_size',
  'head_dim',
  'rope_theta',
  'rope_scaling',
  'rope_parameters',
  'max_position_embeddings',
];

const HIDDEN_KEYS = ['hidden_size', 'n_embd', 'd_model', 'dim'];
const HEADS_KEYS = ['num_attention_heads', 'n_head', 'num_heads', 'n_heads'];
const CONTEXT_KEYS = ['max_position_embeddings', 'seq_length', 'max_seq_len', 'max_sequence_length', 'n_positions', 'n_ctx'];

function hasAny(node: ConfigNode | undefined, keys: readonly string[]): boolean {
  return !!node && node.kind === 'object' && keys.some((k) => child(node, k) !== undefined);
}

/** The language-model scope: the root, or a nested text/LLM config when the root has none of its keys. */
export function primaryScope(root: ConfigNode): ConfigNode {
  if (hasAny(root, HEADS_KEYS) || hasAny(root, ['rope_theta', 'hidden_size'])) return root;
  for (const key of NESTED_SCOPES) {
    let nested = child(root, key);
    if (key === 'thinker_config') nested = child(nested, 'text_config');
    if (nested?.kind === 'object' && hasAny(nested, ARCH_KEYS)) return nested;
  }
  return root;
}

/** True when the document is a model config (a quick look at top-level keys). */
export function isModelConfig(doc: ParsedDocument): boolean {
  const root = doc.root;
  if (!root || root.kind !== 'object') return false;
  if (hasAny(root, NON_MODEL_KEYS)) return false;
  const scope = primaryScope(root);
  if (doc.format === 'yaml') {
    // Training YAMLs share many keys with model configs; only a declared model type counts here.
    return hasAny(root, ['model_type', 'architectures']) || hasAny(scope, ['model_type', 'architectures']);
  }
  return hasAny(scope, MODEL_KEYS) || hasAny(root, ['model_type', 'architectures']);
}

/** Lookup order for one key: the language-model scope first, then the root. */
export class Scopes {
  readonly list: ConfigNode[];
  constructor(
    readonly root: ConfigNode,
    readonly primary: ConfigNode,
  ) {
    this.list = primary === root ? [root] : [primary, root];
  }
  number(key: string): Located<number> | undefined {
    for (const s of this.list) {
      const v = locatedNumber(s, key);
      if (v) return v;
    }
    return undefined;
  }
  node(key: string): ConfigNode | undefined {
    for (const s of this.list) {
      const n = child(s, key);
      if (n && n.kind !== 'null') return n;
    }
    return undefined;
  }
  boolean(key: string): Located<boolean> | undefined {
    for (const s of this.list) {
      const v = locatedBoolean(s, key);
      if (v) return v;
    }
    return undefined;
  }
  string(key: string): Located<string> | undefined {
    for (const s of this.list) {
      const v = locatedString(s, key);
      if (v) return v;
    }
    return undefined;
  }
}

/** Describes one scaling object (`rope_scaling`, `rope_parameters` or one of its per-layer entries). */
export function describeScaling(node: ConfigNode): ScalingDescription {
  const params: Record<string, Located<unknown>> = {};
  for (const c of node.children ?? []) {
    params[c.key!] = { value: paramValue(c), node: c, key: keyPathOf(c) };
  }
  const ropeType = locatedString(node, 'rope_type');
  const legacy = locatedString(node, 'type');
  const rawType = ropeType ?? legacy;
  let type: RopeType | undefined;
  if (!rawType) type = 'default';
  else {
    type = ropeTypeOf(rawType.value);
  }
  const desc: ScalingDescription = { node, key: keyPathOf(node), type, params };
  if (rawType) {
    const t = rawType.value.trim().toLowerCase();
    if (t === 'mrope') rawType.note = "multimodal RoPE (sections per axis), not length scaling: frequencies as 'default'";
    else if (t === 'su') rawType.note = "legacy name of 'longrope'";
    desc.rawType = rawType;
  }
  if (ropeType && legacy) desc.legacyType = legacy;
  return desc;
}

/**
 * True for v5 per-layer-type rope_parameters: objects keyed by layer type. Some saved Gemma-4
 * configs also carry scalars beside them (`"rope_theta": null, "rope_type": "default"`): the reader
 * takes the per-type entries, while transformers 5.17 refuses such a file ("'str' object has no
 * attribute 'get'"; serving/transformers5Load.ts puts that on the 5.x consumer row).
 */
function isPerLayerType(node: ConfigNode): boolean {
  const kids = node.children ?? [];
  const objects = kids.filter((c) => c.kind === 'object');
  return objects.length > 0 && (objects.length === kids.length || objects.some((c) => /attention$/.test(c.key ?? '')));
}

/** The scaling object transformers v5 honours: a non-empty `rope_scaling` first, else `rope_parameters`. */
function scalingRoot(scopes: Scopes): ConfigNode | undefined {
  const rs = scopes.node('rope_scaling');
  if (rs?.kind === 'object' && (rs.children?.length ?? 0) > 0) return rs;
  const rp = scopes.node('rope_parameters');
  if (rp?.kind === 'object' && (rp.children?.length ?? 0) > 0) return rp;
  return undefined;
}

/** Each per-layer-type entry of a v5 `rope_parameters`, keyed as the file keys it. */
function perLayerTypeScalings(node: ConfigNode): Record<string, ScalingDescription> {
  const out: Record<string, ScalingDescription> = {};
  for (const c of node.children ?? []) if (c.kind === 'object' && c.key !== undefined) out[c.key] = describeScaling(c);
  return out;
}

/** Full-attention base keys of configs that prefix each layer kind's base. */
const FULL_BASE_KEYS = ['global_rope_theta', 'rope_theta_global', 'rope_global_theta'];

function resolveBase(scopes: Scopes, mainScaling: ConfigNode | undefined, modelType: string | undefined): Located<number> {
  const inDict = locatedNumber(mainScaling, 'rope_theta');
  if (inDict) return inDict;
  // ModernBERT's global layers read global_rope_theta (its config has no rope_theta).
  // Configs that name both layer kinds' bases under their own prefixes write the full-attention one as
  // global_rope_theta (or rope_theta_global) beside local_rope_theta.
  const keys = modelType === 'modernbert' ? ['global_rope_theta', 'rope_theta'] : ['rope_theta', 'rotary_emb_base', 'rope_embedding_base', ...FULL_BASE_KEYS];
  for (const key of keys) {
    const v = scopes.number(key);
    if (v) return v;
  }
  const dbrx = locatedNumber(scopes.node('attn_config'), 'rope_theta');
  if (dbrx) return dbrx;
  const ratio = scopes.number('rope_ratio');
  if (ratio) return { value: 10000 * ratio.value, node: ratio.node, key: ratio.key, note: `ChatGLM/GLM: base = 10000 × rope_ratio (${ratio.value})` };
  const d = familyDefaultBase(modelType);
  return noted(d.value, d.note);
}

interface Dims {
  headDim: Located<number>;
  rotaryDim: Located<number>;
  partialRotaryFactor: Located<number>;
}

function resolveDims(scopes: Scopes, mainScaling: ConfigNode | undefined, modelType: string | undefined): Dims {
  // MLA (DeepSeek-V2/V3, Kimi): RoPE runs only on the decoupled qk_rope_head_dim channels.
  // DeepSeek-VL2's small models write qk_rope_head_dim 0 with use_mla false: plain multi-head attention.
  const mla = scopes.number('qk_rope_head_dim');
  if (mla && mla.value > 0 && scopes.boolean('use_mla')?.value !== false) {
    return {
      headDim: { ...mla, note: 'MLA: transformers sets head_dim = qk_rope_head_dim for RoPE' },
      rotaryDim: mla,
      partialRotaryFactor: noted(1, 'MLA: the whole qk_rope_head_dim rotates'),
    };
  }
  let headDim = scopes.number('head_dim');
  if (!headDim) {
    const kv = scopes.number('kv_channels');
    if (kv) headDim = kv;
  }
  if (!headDim) {
    const hidden = HIDDEN_KEYS.map((k) => scopes.number(k)).find((v) => v);
    const heads = HEADS_KEYS.map((k) => scopes.number(k)).find((v) => v);
    if (hidden && heads && heads.value > 0) {
      headDim = noted(Math.floor(hidden.value / heads.value), `${hidden.key} / ${heads.key} = ${hidden.value} / ${heads.value}`);
    } else {
      headDim = noted(128, 'head_dim, hidden_size or num_attention_heads absent: assuming 128');
    }
  }
  if (modelType === 'chatglm') {
    // ChatGLM's RotaryEmbedding is built on kv_channels // 2: half of each head rotates.
    const dim = Math.floor(headDim.value / 2);
    return {
      headDim,
      rotaryDim: { value: dim, node: headDim.node, key: headDim.key, note: `ChatGLM rotates half of ${headDim.key ?? 'the head'} (${headDim.value} / 2)` },
      partialRotaryFactor: noted(0.5, 'ChatGLM rotates half of each head'),
    };
  }
  const prf =
    locatedNumber(mainScaling, 'partial_rotary_factor') ?? scopes.number('partial_rotary_factor') ?? scopes.number('rotary_pct') ?? scopes.number('rope_pct');
  if (prf) {
    const dim = Math.trunc(headDim.value * prf.value); // transformers: int(head_dim * partial_rotary_factor)
    return { headDim, rotaryDim: { ...prf, value: dim, note: `int(head_dim ${headDim.value} × ${prf.key} ${prf.value})` }, partialRotaryFactor: prf };
  }
  const rotaryDim = scopes.number('rotary_dim');
  if (rotaryDim) {
    return { headDim, rotaryDim, partialRotaryFactor: noted(rotaryDim.value / headDim.value, `rotary_dim / head_dim = ${rotaryDim.value} / ${headDim.value}`) };
  }
  return { headDim, rotaryDim: { ...headDim }, partialRotaryFactor: noted(1, 'partial_rotary_factor absent: the whole head rotates') };
}

function resolveContext(scopes: Scopes, modelType: string | undefined): Located<number> {
  // Qwen-1 and ChatGLM train at seq_length; Qwen-1's max_position_embeddings only sizes a cache.
  const order = modelType === 'qwen' || modelType === 'chatglm' ? ['seq_length', ...CONTEXT_KEYS] : CONTEXT_KEYS;
  for (const key of order) {
    const v = scopes.number(key);
    if (v) return v;
  }
  const fallback = familyDefaultContext(modelType);
  return noted(fallback.value, `${fallback.note} (none of ${CONTEXT_KEYS.join(', ')})`);
}

export interface ReadOptions {
  /** The file's path: a Hugging Face cache layout (models--org--name/snapshots/…) tells which model it is. */
  filePath?: string;
  /** The reference a training config named this model by (its base_model), when it was resolved from one. */
  baseModel?: string;
}

/** A model config as the reader sees it: its RoPE, or why it has none. */
export type ModelReading = { rope: ModelRope; noRope?: undefined } | { rope?: undefined; noRope: string };

/** The normalized RoPE description of a model config, or undefined when `doc` is not one or has no RoPE. */
export function readModelRope(doc: ParsedDocument): ModelRope | undefined {
  return readModelConfig(doc)?.rope;
}

/** Reads a model config: its RoPE description, or the reason it has no rotary embedding; undefined when `doc` is not a model config. */
export function readModelConfig(doc: ParsedDocument, opts: ReadOptions = {}): ModelReading | undefined {
  if (!isModelConfig(doc)) return undefined;
  const root = doc.root!;
  const primary = primaryScope(root);
  const scopes = new Scopes(root, primary);
  const modelType = stringOf(child(primary, 'model_type')) ?? stringOf(child(root, 'model_type'));
  const noRope = noRopeReason(scopes.list, modelType);
  if (noRope) return { noRope };
  const rope = readRope(scopes, modelType);
  // Every layer that attends is NoPE, or no layer attends (a pattern of SSM/linear mixers only).
  const rotary = rope.groups?.filter((g) => g.base !== null) ?? [];
  if (rope.groups && rotary.length === 0) return { noRope: noRotaryLayerReason(rope.groups) };
  // A draft head has the target's shape but is trained from scratch: it is no shipped checkpoint.
  const draft = draftHeadOf(root);
  if (draft) {
    rope.draftHead = draft;
    return { rope };
  }
  applyIdentity(rope, { root, nameOrPath: stringOf(child(root, '_name_or_path')), filePath: opts.filePath, baseModel: opts.baseModel });
  return { rope };
}

function noRotaryLayerReason(groups: NonNullable<ModelRope['groups']>): string {
  const nope = groups.find((g) => g.noRope);
  if (nope) return `every attention layer uses no position encoding: ${nope.noRope}`;
  return 'no layer uses rotary attention: the layer pattern lists only linear-attention, state-space or MLP mixers';
}

function readRope(scopes: Scopes, modelType: string | undefined): ModelRope {
  const sRoot = scalingRoot(scopes);
  const perLayer = sRoot !== undefined && isPerLayerType(sRoot);
  const mainKey = rotaryTableOf(modelType, 'full_attention') ?? 'full_attention';
  const mainScaling = perLayer ? (child(sRoot, mainKey) ?? sRoot!.children![0]) : sRoot;
  // A Gemma-4 class with no rope_parameters in the file runs its own per-layer-type defaults.
  const classDefaults = sRoot === undefined ? gemma4DefaultScalings(modelType, scopes.number('rope_theta')) : undefined;

  const base = classDefaults ? (classDefaults.full_attention.params.rope_theta as Located<number>) : resolveBase(scopes, mainScaling, modelType);
  const dims = resolveDims(scopes, mainScaling, modelType);
  const contextLength = resolveContext(scopes, modelType);
  const rope: ModelRope = { base, contextLength, ...dims };
  if (modelType) rope.modelType = modelType;

  const topLevelOriginal = scopes.number('original_max_position_embeddings');
  const dictOriginal = locatedNumber(mainScaling, 'original_max_position_embeddings');
  if (topLevelOriginal) rope.topLevelOriginalContextLength = topLevelOriginal;
  const original = topLevelOriginal ?? dictOriginal;
  if (original) rope.originalContextLength = original;

  if (mainScaling) rope.scaling = describeScaling(mainScaling);
  else if (classDefaults) rope.scaling = classDefaults.full_attention;

  const variants: NonNullable<ModelRope['layerVariants']> = [];
  if (perLayer) {
    for (const c of sRoot!.children!) {
      if (c === mainScaling) continue;
      variants.push({
        layerType: c.key!,
        base: locatedNumber(c, 'rope_theta') ?? { ...base, note: `no rope_theta in ${keyPathOf(c)}: the global base` },
        scaling: describeScaling(c),
      });
    }
  }
  for (const [layerType, scaling] of Object.entries(classDefaults ?? {})) {
    if (layerType !== 'full_attention') variants.push({ layerType, base: scaling.params.rope_theta as Located<number>, scaling });
  }
  const local = scopes.number('rope_local_base_freq');
  if (local || usesLocalBase(modelType)) {
    variants.push({
      layerType: 'sliding_attention',
      base: local ?? noted(GEMMA3_LOCAL_BASE, `rope_local_base_freq absent: Gemma-3's default ${GEMMA3_LOCAL_BASE} for sliding layers`),
    });
  }
  if (variants.length) rope.layerVariants = variants;

  const useSliding = scopes.boolean('use_sliding_window');
  const sliding = scopes.number('sliding_window');
  if (sliding && useSliding?.value !== false) rope.slidingWindow = sliding;

  // Qwen-1's remote code applies these itself; transformers' RoPE utilities never read them.
  const dynNtk = scopes.boolean('use_dynamic_ntk');
  if (dynNtk) rope.useDynamicNtk = { ...dynNtk, note: 'Qwen-1 remote code: NTK-scaled base once the input exceeds seq_length' };
  const logn = scopes.boolean('use_logn_attn');
  if (logn) rope.useLognAttn = { ...logn, note: 'Qwen-1 remote code: queries scaled by log_{seq_length}(n) past seq_length' };

  rope.groups = readAttentionGroups({
    scopes,
    modelType,
    base,
    rotaryDim: dims.rotaryDim,
    headDim: dims.headDim,
    contextLength,
    perLayerType: perLayer ? perLayerTypeScalings(sRoot!) : (classDefaults ?? tablesFromFlatScaling(modelType, rope.scaling)),
  });
  // The top-level base and rotary dim are the full-attention group's (Gemma-4: its global head).
  const main = rope.groups.find((g) => g.base !== null);
  if (main?.rotaryDim && main.layerType === 'full_attention') rope.rotaryDim = main.rotaryDim;
  if (main?.headDim && main.layerType === 'full_attention') rope.headDim = main.headDim;
  const trained = statedTrainedContext(rope, modelType === 'qwen' ? scopes.number('seq_length') : undefined);
  if (trained) rope.trainedContext = trained;
  return rope;
}

function numParam(s: ScalingDescription | undefined, key: string): number | undefined {
  const v = s?.params[key]?.value;
  return typeof v === 'number' ? v : undefined;
}

function listParam(s: ScalingDescription | undefined, key: string): number[] | undefined {
  const v = s?.params[key]?.value;
  if (!Array.isArray(v)) return undefined;
  return v.map((x) => (typeof x === 'number' ? x : NaN));
}

/** What computeFrequencies needs from a ModelRope. Throws RopeError for a scaling type transformers does not know. */
export function toRopeSpec(rope: ModelRope, opts: { variant?: TransformersVariant } = {}): RopeSpec {
  // transformers 4.x never reads rope_parameters (no 4.x config class takes it): a file that keeps its
  // base or scaling only there runs on the top-level rope_theta (else the class default) and no scaling.
  if (opts.variant === 'v4') {
    const v4 = v4OnlyReading(rope);
    if (v4) return { ropeType: 'default', base: v4, rotaryDim: rope.rotaryDim.value, maxPositionEmbeddings: rope.contextLength.value };
  }
  const s = rope.scaling;
  if (s && s.type === undefined) {
    throw new RopeError(
      'unknown-rope-type',
      `unknown rope type '${s.rawType?.value ?? '?'}' in ${s.key ?? 'rope_scaling'} (expected one of ${ROPE_TYPES.join(', ')}, or su/mrope)`,
    );
  }
  const spec: RopeSpec = {
    ropeType: s?.type ?? 'default',
    base: rope.base.value,
    rotaryDim: opts.variant === 'v5' ? transformers5RotaryDim(rope, rope.rotaryDim).value : rope.rotaryDim.value,
    maxPositionEmbeddings: rope.contextLength.value,
  };
  const set = <K extends keyof RopeSpec>(k: K, v: RopeSpec[K] | undefined) => {
    if (v !== undefined) spec[k] = v;
  };
  set('originalMaxPositionEmbeddings', numParam(s, 'original_max_position_embeddings'));
  set('topLevelOriginalMaxPositionEmbeddings', rope.topLevelOriginalContextLength?.value);
  set('factor', numParam(s, 'factor'));
  set('attentionFactor', numParam(s, 'attention_factor'));
  set('betaFast', numParam(s, 'beta_fast'));
  set('betaSlow', numParam(s, 'beta_slow'));
  set('mscale', numParam(s, 'mscale'));
  set('mscaleAllDim', numParam(s, 'mscale_all_dim'));
  const truncate = s?.params['truncate']?.value;
  if (typeof truncate === 'boolean') spec.truncate = truncate;
  set('lowFreqFactor', numParam(s, 'low_freq_factor'));
  set('highFreqFactor', numParam(s, 'high_freq_factor'));
  set('shortFactor', listParam(s, 'short_factor'));
  if (s?.type === 'proportional') set('headDim', rope.groups?.find((g) => g.layerType === 'full_attention')?.headDim?.value ?? rope.headDim.value);
  set('longFactor', listParam(s, 'long_factor'));
  return spec;
}

/**
 * The rotary dimensions transformers 5.x's class for this model type rotates, given the dimensions
 * the reader resolved (the model's own). 5.x classes read a partial rotary factor (rope_parameters,
 * where a top-level one is moved) but a top-level `rotary_dim` only where the class has that
 * attribute (codegen, gptj, …) or whose config converts it (MiniMax-M2 in 5.18.0: `rotary_dim: 64` with
 * `head_dim: 128` becomes partial_rotary_factor 0.5).
 * A default RoPE reads a partial factor only in the classes of PARTIAL_FACTOR_DEFAULT_ROPE_5 (Llama and
 * Qwen3-MoE rotate the whole head); scaled types always read it. Types 5.x has no class for run remote code: unchanged.
 */
export function transformers5RotaryDim(rope: ModelRope, dim: Located<number>, headDim: Located<number> = rope.headDim): Located<number> {
  const t = rope.modelType;
  if (!t || !knownTo5x(t) || dim.value === headDim.value) return dim;
  const from = dim.key?.split('.').pop();
  const whole = (why: string): Located<number> => ({ value: headDim.value, note: `transformers 5.x (${t}) rotates the whole head (${headDim.value}): ${why}` });
  if (from === 'rotary_dim' && !ROTARY_DIM_CLASSES_5.has(t) && !ROTARY_DIM_FROM_FILE_5.has(t))
    return whole(`its config class has no rotary_dim, so ${dim.key} ${dim.value} is not read`);
  // A default RoPE rotates what the class's own compute_default_rope_parameters takes; only some classes read the factor.
  if (from === 'partial_rotary_factor' && (rope.scaling?.type ?? 'default') === 'default' && !PARTIAL_FACTOR_DEFAULT_ROPE_5.has(t))
    return whole(`its default RoPE never reads ${dim.key ?? 'partial_rotary_factor'}`);
  return dim;
}

/** The base transformers 4.x runs when the file's RoPE is read from `rope_parameters` alone; undefined otherwise. */
function v4OnlyReading(rope: ModelRope): number | undefined {
  const fromV5 = (key: string | undefined) => !!key && /(^|\.)rope_parameters(\.|$)/.test(key);
  if (!fromV5(rope.scaling?.key) && !fromV5(rope.base.key)) return undefined;
  // rope_parameters' own node sits in the language-model scope, beside the v4 keys.
  let rp = rope.scaling?.node ?? rope.base.node?.parent;
  while (rp && rp.key !== 'rope_parameters') rp = rp.parent;
  const top = numberOf(child(rp?.parent, 'rope_theta'));
  return top ?? familyDefaultBase(rope.modelType, 'v4').value;
}

/** ModelRope for the base of one per-layer variant (e.g. Gemma-3 sliding layers), as a RopeSpec. */
export function variantRopeSpec(rope: ModelRope, layerType: string): RopeSpec | undefined {
  const v = rope.layerVariants?.find((x) => x.layerType === layerType);
  if (!v) return undefined;
  return toRopeSpec({ ...rope, base: v.base, scaling: v.scaling });
}

/** Number of a node, for callers that hold a node but not a Located value. */
export { numberOf };
