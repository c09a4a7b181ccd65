/**
 * Attention groups: layers that share a base, a rotary dimension and a reach. Hybrid models
 * alternate sliding-window (or chunked) layers with full-attention layers, often with a different
 * base per kind, and some layers use no rotary embedding at all (NoPE). Su's bound is over the
 * relative distances a layer sees, so a sliding layer is judged at its window, not the context.
 *
 * Layer layouts, as transformers' config classes derive them:
 *  - `layer_types` (v5 and newer v4 configs) is authoritative when present;
 *  - Gemma-2: every other layer slides (i even); Gemma-3: `sliding_window_pattern` N (default 6),
 *    layer i slides unless (i + 1) % N == 0; EXAONE-4 / Cohere2: a pattern string like "LLLG" or a
 *    number, and their full-attention layers skip RoPE ("global NoPE");
 *  - ModernBERT: layer i is global when i % global_attn_every_n_layers == 0, local layers see
 *    `local_attention` tokens with `local_rope_theta`;
 *  - Llama-4 / SmolLM3: `no_rope_layers[i] == 1` means layer i uses RoPE (default: every 4th layer
 *    is NoPE); Llama-4's RoPE layers attend in chunks of `attention_chunk_size`;
 *  - Qwen2/3: `use_sliding_window: false` switches windows off; when on, layers from
 *    `max_window_layers` slide;
 *  - Mistral-7B-v0.1 and others: a `sliding_window` with no layer pattern slides every layer.
 */
import { isWorkableLayerCount } from '../core/limits';
import type { ConfigNode } from '../document/configNode';
import type { AttentionGroup, Located, ModelRope, ScalingDescription } from './modelRope';
import { booleanOf, noted, numberOf, stringOf } from './modelValues';
import { PER_LAYER_TYPE_5 } from './transformers5Classes';
import { GEMMA4_LAST_LAYER_FULL, gemma4DefaultGlobalHeadDim, gemma4DefaultLayerTypes, isGemma4Text } from './gemma4Defaults';
import { rotaryTableOf, tableFactorHead } from './rotaryTables';

/** Key lookup over the language-model scope, then the root (see modelConfig's Scopes). */
export interface ScopeLookup {
  number(key: string): Located<number> | undefined;
  node(key: string): ConfigNode | undefined;
  boolean(key: string): Located<boolean> | undefined;
}

type Kind = 'full_attention' | 'sliding_attention' | 'chunked_attention' | 'nope' | 'no_attention';

interface Layout {
  /** One kind per layer, when the number of layers is known. */
  kinds?: Kind[];
  /** Kinds present when the count is unknown. */
  present: Set<Kind>;
  /** The key the mix was read from, or what was assumed and why. */
  pattern?: string;
}

/** One layer-type name (layer_types, layers_block_type) → its kind; linear/SSM mixers use no RoPE attention. */
export function kindOfLayerName(name: string): Kind {
  const t = name.toLowerCase();
  if (/linear|mamba|ssm|conv|recurrent|rwkv|delta|lightning|mlp|moe/.test(t)) return 'no_attention';
  if (t.includes('chunk')) return 'chunked_attention';
  if (t.includes('sliding') || t.includes('local') || t.includes('swa')) return 'sliding_attention';
  return 'full_attention';
}

/**
 * Per-layer lists of 0/1 that say which layers slide (or attend at all), by key, with what 1 and 0 mean
 * in the config class that reads them.
 */
const FLAG_LISTS: { key: string; one: Kind; zero: Kind }[] = [
  { key: 'hybrid_layer_pattern', one: 'sliding_attention', zero: 'full_attention' }, // MiMo-V2: 1 = sliding window
  { key: 'attn_type_list', one: 'full_attention', zero: 'no_attention' }, // MiniMax-01/M1: 0 = lightning (linear) attention
];

/** Keys of a base for sliding-window layers, beside the full-attention rope_theta. */
export const SLIDING_BASE_KEYS = ['rope_local_base_freq', 'local_rope_theta', 'swa_rope_theta', 'sliding_rope_theta', 'rope_theta_local', 'rope_local_theta'];

const NOPE_FULL_TYPES = new Set(['exaone4', 'cohere2']);

/** The layer kinds of a model, as its config class lays them out. */
function layout(s: ScopeLookup, modelType: string | undefined, window: Located<number> | undefined): Layout {
  const n = s.number('num_hidden_layers')?.value;
  const count = isWorkableLayerCount(n) ? n : undefined;
  const fromKinds = (kinds: Kind[]): Layout => ({ kinds, present: new Set(kinds) });
  const perLayer = (f: (i: number) => Kind, fallback: Kind[]): Layout =>
    count ? fromKinds(Array.from({ length: count }, (_, i) => f(i))) : { present: new Set(fallback) };

  const gemma4 = isGemma4Text(modelType);
  for (const key of ['layer_types', 'layers_block_type']) {
    const types = s.node(key);
    if (types?.kind === 'array' && types.children?.length) {
      const kinds = types.children.map((c) => kindOfLayerName(stringOf(c) ?? ''));
      if (gemma4 && kinds[kinds.length - 1] !== 'full_attention') {
        kinds[kinds.length - 1] = 'full_attention';
        return { ...fromKinds(kinds), pattern: `${key}; ${GEMMA4_LAST_LAYER_FULL}` };
      }
      return { ...fromKinds(kinds), pattern: key };
    }
  }
  // Gemma-4's config classes lay out their own default (every 6th layer full, the last one full),
  // window or not.
  if (gemma4) {
    const pattern = "assumed: Gemma-4's default layer_types (every 6th layer full attention, the last layer full)";
    if (count) return { ...fromKinds(gemma4DefaultLayerTypes(count).map(kindOfLayerName)), pattern };
    return { present: new Set<Kind>(['full_attention', 'sliding_attention']), pattern };
  }
  for (const { key, one, zero } of FLAG_LISTS) {
    const flags = s.node(key);
    if (flags?.kind === 'array' && flags.children?.length) {
      return { ...fromKinds(flags.children.map((c) => (numberOf(c) === 1 || booleanOf(c) === true ? one : zero))), pattern: key };
    }
  }
  // DeepSeek-V4: per-layer compression ratios; 0 attends only within the sliding window, 4 (CSA) and
  // 128 (HCA) attend over the whole context through compressed KV. Entries past num_hidden_layers
  // describe the MTP layers, not the backbone.
  const ratios = s.node('compress_ratios');
  if (ratios?.kind === 'array' && ratios.children?.length) {
    const backbone = count !== undefined ? ratios.children.slice(0, count) : ratios.children;
    return {
      ...fromKinds(backbone.map((c) => ((numberOf(c) ?? 0) > 0 ? 'full_attention' : 'sliding_attention'))),
      pattern: 'compress_ratios (0: sliding window only; 4 and 128: compressed attention over the whole context)',
    };
  }
  const t = modelType ?? '';
  if (t === 'modernbert') {
    const every = s.number('global_attn_every_n_layers')?.value ?? 3;
    return perLayer((i) => (i % every === 0 ? 'full_attention' : 'sliding_attention'), ['full_attention', 'sliding_attention']);
  }
  const noRope = s.node('no_rope_layers');
  if (t.startsWith('llama4') || t === 'smollm3' || (noRope?.kind === 'array' && noRope.children?.length)) {
    const interval = s.number('no_rope_layer_interval')?.value ?? 4;
    const flags = noRope?.kind === 'array' && noRope.children?.length ? noRope.children.map((c) => numberOf(c) ?? 1) : undefined;
    const usesRope = (i: number) => (flags ? flags[i] !== 0 : (i + 1) % interval !== 0);
    const ropeKind: Kind = s.number('attention_chunk_size') ? 'chunked_attention' : window ? 'sliding_attention' : 'full_attention';
    if (flags) return fromKinds(flags.map((_, i) => (usesRope(i) ? ropeKind : 'nope')));
    return perLayer((i) => (usesRope(i) ? ropeKind : 'nope'), [ropeKind, 'nope']);
  }
  if (!window) return perLayer(() => 'full_attention', ['full_attention']);
  if (t === 'gemma2') return perLayer((i) => (i % 2 === 0 ? 'sliding_attention' : 'full_attention'), ['sliding_attention', 'full_attention']);
  const pattern = s.node('sliding_window_pattern');
  const patternText = stringOf(pattern);
  const full: Kind = NOPE_FULL_TYPES.has(t) ? 'nope' : 'full_attention';
  if (patternText && /^[LG]+$/i.test(patternText)) {
    const p = patternText.toUpperCase();
    return perLayer((i) => (p[i % p.length] === 'L' ? 'sliding_attention' : full), ['sliding_attention', full]);
  }
  // Class defaults: Gemma-3 every 6th layer full; Cohere2 and Olmo-3 every 4th (Olmo3Config builds
  // layer_types "sliding_attention" if (i + 1) % 4 != 0 else "full_attention").
  const every = numberOf(pattern) ?? (t.startsWith('gemma3') ? 6 : t === 'cohere2' || t === 'olmo3' ? 4 : undefined);
  if (every !== undefined && every >= 1) {
    return perLayer((i) => ((i + 1) % every !== 0 ? 'sliding_attention' : full), ['sliding_attention', full]);
  }
  if (t === 'qwen2' || t === 'qwen3' || t === 'qwen2_moe' || t === 'qwen3_moe') {
    const from = s.number('max_window_layers')?.value ?? 0;
    return perLayer((i) => (i >= from ? 'sliding_attention' : 'full_attention'), ['sliding_attention', 'full_attention']);
  }
  // A window and no pattern this reader knows. With a separate sliding base beside the full one the
  // config has both kinds of layers: keep both groups (the full layers reach the whole context).
  const slidingBase = SLIDING_BASE_KEYS.find((k) => s.number(k) !== undefined);
  const fullBase = ['rope_theta', 'global_rope_theta', 'rope_theta_global', 'rope_global_theta'].find((k) => s.number(k) !== undefined);
  if (slidingBase && fullBase) {
    const unknown = UNKNOWN_PATTERN_KEYS.find((k) => s.node(k) !== undefined);
    return {
      present: new Set<Kind>(['full_attention', 'sliding_attention']),
      pattern: `assumed: ${unknown ? `${unknown} not understood` : 'no layer pattern'}; ${fullBase} and ${slidingBase} both set, so some layers are full attention and some slide`,
    };
  }
  return { ...perLayer(() => 'sliding_attention', ['sliding_attention']), pattern: 'assumed: sliding_window set and no layer pattern, so every layer slides' };
}

/** Keys that look like a layer pattern; one this reader does not interpret is named in the assumption. */
const UNKNOWN_PATTERN_KEYS = [
  'sliding_window_pattern',
  'layer_pattern',
  'attention_pattern',
  'hybrid_layer_pattern',
  'layer_types',
  'swa_layers',
  'sliding_window_layers',
  'full_attention_layers',
  'global_attn_layers',
  'attention_type',
];

/** The sliding window in force, or undefined when windows are off. */
export function slidingWindowOf(s: ScopeLookup, modelType: string | undefined): Located<number> | undefined {
  if (s.boolean('use_sliding_window')?.value === false) return undefined;
  if (modelType === 'modernbert') return s.number('local_attention');
  const w = s.number('sliding_window') ?? s.number('sliding_window_size');
  return w && w.value > 0 ? w : undefined;
}

export interface GroupInputs {
  scopes: ScopeLookup;
  modelType: string | undefined;
  /** The full-attention base and rotary dim the reader resolved, and the context. */
  base: Located<number>;
  rotaryDim: Located<number>;
  headDim: Located<number>;
  contextLength: Located<number>;
  /**
   * Per-layer-type rope parameters keyed as the class keys its rotary tables: v5 `rope_parameters`
   * entries the file writes, or a config class's own defaults (Gemma-4 without rope_parameters).
   */
  perLayerType?: Record<string, ScalingDescription>;
}

const NOPE_REASON: Record<string, string> = {
  exaone4: 'EXAONE-4 full-attention layers use no position encoding (global NoPE)',
  cohere2: 'Cohere2 full-attention layers use no position encoding (global NoPE)',
};

/** Every distinct attention group, the full-attention (or first RoPE) group first. */
export function readAttentionGroups(g: GroupInputs): AttentionGroup[] {
  const { scopes: s, modelType } = g;
  const window = slidingWindowOf(s, modelType);
  const chunk = s.number('attention_chunk_size');
  const lay = layout(s, modelType, window);
  const counts = new Map<Kind, number>();
  for (const k of lay.kinds ?? []) counts.set(k, (counts.get(k) ?? 0) + 1);
  const kinds = (lay.kinds ? [...counts.keys()] : [...lay.present]).filter((k) => k !== 'no_attention');
  const order: Kind[] = ['full_attention', 'chunked_attention', 'sliding_attention', 'nope'];
  kinds.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const context = g.contextLength.value;

  return kinds.map((kind): AttentionGroup => {
    const layers = lay.kinds ? counts.get(kind)! : null;
    if (kind === 'nope') {
      const reason = NOPE_REASON[modelType ?? ''] ?? 'no_rope_layers marks these layers as NoPE (no position encoding)';
      return { layerType: 'full_attention', layers, base: null, rotaryDim: null, noRope: reason, reach: context };
    }
    const limit = kind === 'sliding_attention' ? window : kind === 'chunked_attention' ? chunk : undefined;
    const table = rotaryTableOf(modelType, kind);
    const params = g.perLayerType?.[table ?? kind];
    const base = groupBase(g, kind, params);
    const rotaryDim = groupRotaryDim(g, kind, params);
    const group: AttentionGroup = { layerType: kind, layers, base, rotaryDim, reach: limit ? Math.min(context, limit.value) : context };
    if (table) group.table = table;
    if (lay.pattern) group.pattern = lay.pattern;
    const globalHead = kind === 'full_attention' ? globalHeadDimOf(s, modelType) : undefined;
    if (globalHead) group.headDim = globalHead;
    if (limit) group.window = limit;
    if (params) group.scaling = params;
    return group;
  });
}

/** A numeric parameter of a per-type scaling, with where it was read (or the default's note). */
function paramNumber(params: ScalingDescription | undefined, key: string): Located<number> | undefined {
  const p = params?.params[key];
  return p && typeof p.value === 'number' ? (p as Located<number>) : undefined;
}

/** Gemma-4's full-attention head: `global_head_dim`, else its config class's default (512). */
function globalHeadDimOf(s: ScopeLookup, modelType: string | undefined): Located<number> | undefined {
  return s.number('global_head_dim') ?? gemma4DefaultGlobalHeadDim(modelType);
}

function groupBase(g: GroupInputs, kind: Kind, params: ScalingDescription | undefined): Located<number> {
  const own = paramNumber(params, 'rope_theta');
  if (own) return own;
  // DeepSeek-V4's compressed layers rotate with their own base.
  const compressed = kind === 'full_attention' && g.scopes.node('compress_ratios') ? g.scopes.number('compress_rope_theta') : undefined;
  if (compressed) return compressed;
  if (kind === 'full_attention' || kind === 'chunked_attention') return g.base;
  const s = g.scopes;
  const local = SLIDING_BASE_KEYS.map((k) => s.number(k)).find((v) => v !== undefined);
  if (local) return local;
  if (g.modelType === 'gemma3' || g.modelType === 'gemma3_text')
    return noted(10000, 'default rope_local_base_freq 10,000 (not in the file; Gemma-3 sliding layers)');
  if (g.modelType === 'modernbert') return noted(10000, 'default local_rope_theta 10,000 (not in the file; ModernBERT local layers)');
  return g.base;
}

function groupRotaryDim(g: GroupInputs, kind: Kind, params: ScalingDescription | undefined): Located<number> {
  // Per-layer-type heads under their own prefix: Gemma-4's full-attention layers have a wider head,
  // `global_head_dim`; MiMo-V2's sliding layers have `swa_head_dim` (times the model-wide factor).
  const globalHead = kind === 'full_attention' ? globalHeadDimOf(g.scopes, g.modelType) : undefined;
  const swaHead = kind === 'sliding_attention' ? g.scopes.number('swa_head_dim') : undefined;
  if (swaHead && !params) {
    const shared = g.scopes.number('partial_rotary_factor');
    return shared
      ? { ...shared, value: Math.trunc(swaHead.value * shared.value), note: `int(swa_head_dim ${swaHead.value} × partial_rotary_factor ${shared.value})` }
      : swaHead;
  }
  const prf = paramNumber(params, 'partial_rotary_factor');
  const head = globalHead ?? (prf ? tableFactorHead(g.modelType, g.scopes.number('head_dim')) : undefined) ?? g.headDim;
  if (params?.type === 'proportional') {
    // int(partial_rotary_factor × head // 2) pairs rotate (exponents over the whole head); the rest stay still.
    const f = prf?.value ?? 1;
    const rotated = 2 * Math.floor((f * head.value) / 2);
    return {
      ...(prf ?? head),
      value: rotated,
      note: `proportional RoPE: ${rotated} of ${head.key ?? 'head_dim'} ${head.value} channels rotate (partial_rotary_factor ${f})`,
    };
  }
  if (prf)
    return {
      ...prf,
      value: Math.trunc(head.value * prf.value),
      note: `int(${head.key ?? 'head_dim'} ${head.value} × ${prf.key ?? 'partial_rotary_factor'} ${prf.value})`,
    };
  if (globalHead) return globalHead;
  // A per-type entry without its own factor: the model-wide one (the reader's rotary dim may carry the
  // full-attention entry's factor, which other layer types do not share).
  if (params && g.perLayerType) {
    const shared = g.scopes.number('partial_rotary_factor');
    return shared ? { ...shared, value: Math.trunc(g.headDim.value * shared.value) } : g.headDim;
  }
  return g.rotaryDim;
}

/** Groups that rotate (NoPE groups have no base). */
export function ropeGroups(rope: ModelRope): (AttentionGroup & { base: Located<number>; rotaryDim: Located<number> })[] {
  return (rope.groups ?? []).filter(
    (x): x is AttentionGroup & { base: Located<number>; rotaryDim: Located<number> } => x.base !== null && x.rotaryDim !== null,
  );
}

/**
 * The scaling a group runs with: its own per-type object, else the model's. Classes that key
 * rope_parameters by layer type (5.x: Gemma-3, ModernBERT, Olmo-3, …) give a legacy flat
 * rope_scaling to the full-attention layers only; their sliding layers run default RoPE
 * (transformers 5.17 on Olmo-3.1-32B-Instruct: YaRN and attention scaling 1.208 on full layers,
 * default RoPE and 1.0 on sliding ones).
 */
export function groupScaling(rope: ModelRope, group: AttentionGroup): ScalingDescription | undefined {
  if (group.scaling) return group.scaling;
  const perType = rope.modelType === 'gemma3' || PER_LAYER_TYPE_5.has(rope.modelType ?? '');
  return group.layerType === 'sliding_attention' && perType ? undefined : rope.scaling;
}
