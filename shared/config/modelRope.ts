/**
 * The normalized RoPE description of one document, every value tied to where it was read
 * (or marked as a default with the reason). Produced by the config readers, consumed by the
 * rules, the fixes, the CLI's JSON output, hovers and the Inspector.
 */
import type { ConfigNode } from '../document/configNode';
import type { RopeType } from '../rope/spec';

export interface Located<T> {
  value: T;
  /** The node the value was read from; absent for defaults and derived values. */
  node?: ConfigNode;
  /** The key path as written, e.g. `text_config.rope_theta` or `rope_scaling.factor`. */
  key?: string;
  /** For defaults and derived values: where the number comes from. */
  note?: string;
}

export interface ScalingDescription {
  /** The `rope_scaling` / `rope_parameters` object node. */
  node?: ConfigNode;
  /** Key of that object (`rope_scaling`, `rope_parameters`, `text_config.rope_scaling`…). */
  key?: string;
  /** Normalized type (`su` → longrope, legacy `type` honoured); undefined if unknown/absent. */
  type: RopeType | undefined;
  /** The type as written (`rope_type` or `type`), if any. */
  rawType?: Located<string>;
  /** Legacy `type` when both `type` and `rope_type` are present. */
  legacyType?: Located<string>;
  /** Every key of the scaling object as written, for key checks and the JSON output. */
  params: Record<string, Located<unknown>>;
}

export interface ModelRope {
  modelType?: string;
  /**
   * The config is a speculative-decoding draft head (EAGLE-3, DFlash, MTP as SpecForge writes them):
   * trained from scratch, so its base is chosen before training (advice.md situation 5). What said so.
   */
  draftHead?: string;
  base: Located<number>;
  headDim: Located<number>;
  rotaryDim: Located<number>;
  partialRotaryFactor: Located<number>;
  contextLength: Located<number>;
  originalContextLength?: Located<number>;
  /**
   * The top-level `original_max_position_embeddings` (Phi-3 style) when present, kept apart from the
   * one inside the scaling object because transformers treats the two differently.
   */
  topLevelOriginalContextLength?: Located<number>;
  scaling?: ScalingDescription;
  slidingWindow?: Located<number>;
  /** Per-layer-type variants (v5 nested rope_parameters; Gemma-3 local base for sliding layers). */
  layerVariants?: { layerType: string; base: Located<number>; scaling?: ScalingDescription }[];
  /**
   * Every distinct attention group (full vs sliding/chunked/local layers), each with its own base,
   * rotary dimension and reach; the first is the full-attention group that `base`/`rotaryDim` describe.
   * Filled by the model reader (issue 11); rules judge each group at its reach.
   */
  groups?: AttentionGroup[];
  /** The length the checkpoint was trained at, and where that number comes from (advice.md). */
  trainedContext?: TrainedContext;
  /** Which public model this config is, when known (catalog id), and how that was decided. */
  identity?: ModelIdentity | null;
  /** What the identified model shipped with (its catalog entry), to tell a stock config from an edited one. */
  shipped?: ShippedValues;
  /**
   * When no identity: the catalog models whose architecture this file has but whose RoPE values it
   * does not share (a fine-tune that raised the base or the context, a scaled copy). The file is
   * judged on its own values; this says which model it derives from and how it differs.
   */
  derivativeOf?: DerivativeOf;
  /** Qwen-1 style flags. */
  useDynamicNtk?: Located<boolean>;
  useLognAttn?: Located<boolean>;
}

/** One attention group: layers sharing a base, a rotary dimension and a reach. */
export interface AttentionGroup {
  /** transformers' layer type name: `full_attention`, `sliding_attention`, `chunked_attention`, … */
  layerType: string;
  /** How many layers are of this type, when the config says; null when unknown. */
  layers: number | null;
  /** Where the layer mix was read from (`layer_types`, `hybrid_layer_pattern`, …), or why it is assumed. */
  pattern?: string;
  /**
   * The rotary table these layers read when the model keys its tables by something other than the layer
   * type (DeepSeek-V4: `compress` for its compressed-attention layers, `main` for sliding-only ones).
   */
  table?: string;
  /** null for layers without rotary embedding (NoPE layers of EXAONE-4, Cohere2, Llama-4, SmolLM3). */
  base: Located<number> | null;
  rotaryDim: Located<number> | null;
  /** The head width of these layers when it differs from head_dim (Gemma-4 full layers: global_head_dim). */
  headDim?: Located<number>;
  /** Why these layers have no rotary embedding, for NoPE groups. */
  noRope?: string;
  /** Sliding window or attention chunk; undefined for full attention. */
  window?: Located<number>;
  /** Largest relative distance the group's layers see: min(context, window). */
  reach: number;
  /** The group's own scaling object, when it has one (v5 per-layer rope_parameters). */
  scaling?: ScalingDescription;
}

/** `source`: `config:<key path>`, `catalog:<id>` or `assumed:max_position_embeddings`. */
export interface TrainedContext {
  value: number;
  source: string;
  /** Node of the key it was read from, for `config:` sources. */
  located?: Located<number>;
}

/** `via`: `_name_or_path`, `path` (Hugging Face cache layout), `base_model` or `fingerprint`. */
export interface ModelIdentity {
  id: string;
  via: '_name_or_path' | 'path' | 'base_model' | 'fingerprint';
  /** Fingerprint matches that agree on the trained context (e.g. a base model and its Instruct twin). */
  candidates?: string[];
  /**
   * The identity is a family, not one entry: the model is known by its generation's data
   * (`Qwen2.5`, from families.json), or a file of a known architecture whose values no single entry
   * has all of (`Llama 3`: a Llama-3.1-8B config without its scaling at 262,144). `id` is then the
   * nearest entry, for what the family shares; findings name the family.
   */
  family?: string;
  /**
   * The model shipped this scaling type and the file has none: its context is what that model
   * shipped with its scaling (a Llama-3.1 config that lost its `llama3` block).
   */
  lostScaling?: string;
  /**
   * The file is this model with RoPE values edited and nothing to show they were trained (advice.md,
   * "Derivatives"): the differences, worded (`rope_theta 10,000 (shipped 500,000)`). Judged as the
   * shipped model extended without scaling (situation 3), its fixes measured from what it shipped.
   */
  edit?: string[];
}

/** See `ModelRope.derivativeOf`. */
export interface DerivativeOf {
  /** The models it has the architecture of (ids and aliases), the closest first. */
  candidates: string[];
  /** The context the closest of them was trained at: not this file's T. */
  baseTrainedContext: number;
  /** Its RoPE values that differ, worded (`rope_theta 283,461,213 (shipped 500,000)`). */
  differences: string[];
  /** What the architecture's model without scaling was trained at, when the catalog has one (Llama-2-7B: 4,096). */
  unscaledTrainedContext?: number;
}

/** The RoPE values a public checkpoint's config.json shipped with. */
export interface ShippedValues {
  contextLength?: number;
  base?: number;
  /** Scaling type as shipped ('default' when none). */
  scalingType?: string;
  /** The shipped scaling's factor, when it has one (Llama-3.1's llama3: 8). */
  scalingFactor?: number;
}
