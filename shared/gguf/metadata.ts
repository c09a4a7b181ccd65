/**
 * GGUF header metadata → the RoPE description, by way of the Hugging Face config keys the GGUF
 * was converted from (llama.cpp `convert_hf_to_gguf.py` writes them; this maps them back), so a
 * GGUF is judged by the same reader and rules as its config.json. Pure: the file reading lives in
 * readNode.ts (Node only).
 *
 * Keys read (gguf-py/gguf/constants.py `Keys`): general.architecture, general.name,
 * general.basename, general.organization, general.finetune, general.size_label,
 * `<arch>.context_length`, `<arch>.embedding_length`, `<arch>.block_count`,
 * `<arch>.feed_forward_length`, `<arch>.attention.head_count`, `<arch>.attention.head_count_kv`,
 * `<arch>.attention.key_length`, `<arch>.attention.sliding_window`, `<arch>.rope.freq_base`,
 * `<arch>.rope.dimension_count`, `<arch>.rope.scaling.type|factor|original_context_length`,
 * `<arch>.rope.scaling.yarn_beta_fast|yarn_beta_slow`, and the older `<arch>.rope.scale_linear`.
 */
export type GgufMetadata = Record<string, unknown>;

/** llama.cpp architecture → the transformers model_type the reader and catalog know. */
const MODEL_TYPE: Record<string, string> = {
  llama: 'llama',
  qwen2: 'qwen2',
  qwen2moe: 'qwen2_moe',
  qwen3: 'qwen3',
  qwen3moe: 'qwen3_moe',
  phi3: 'phi3',
  phi2: 'phi',
  deepseek2: 'deepseek_v3',
  gemma: 'gemma',
  gemma2: 'gemma2',
  gemma3: 'gemma3_text',
  'gpt-oss': 'gpt_oss',
  olmo: 'olmo',
  olmo2: 'olmo2',
  granite: 'granite',
  'command-r': 'cohere',
  starcoder2: 'starcoder2',
  internlm2: 'internlm2',
  exaone: 'exaone',
  glm4: 'glm4',
  stablelm: 'stablelm',
  falcon: 'falcon',
  gptneox: 'gpt_neox',
  minicpm: 'minicpm',
};

export interface GgufConfig {
  /** general.architecture */
  arch: string;
  /** general.name (or basename) when present. */
  name?: string;
  /** `org/Name-Size-Finetune` rebuilt from general.*, for catalog lookups; undefined without an organization. */
  hubRef?: string;
  /** The config.json keys the GGUF stands for (what the conversion read). */
  config: Record<string, unknown>;
  /** Config key path → the GGUF key it came from, for findings. */
  keyOf: Record<string, string>;
  /** The scaling type as written in the GGUF (`none`, `linear`, `yarn`, `longrope`), if any. */
  scalingType?: string;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'bigint') return Number(v);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** Rebuilds the hub id the way convert_hf_to_gguf.py's metadata split it (organization/basename-size-finetune). */
function hubRefOf(m: GgufMetadata): string | undefined {
  const org = str(m['general.organization']);
  const base = str(m['general.basename']);
  if (!org || !base) return undefined;
  const parts = [base, str(m['general.size_label']), str(m['general.finetune'])].filter(Boolean);
  return `${org.replace(/\s+/g, '-')}/${parts.join('-').replace(/\s+/g, '-')}`;
}

/** Undefined when the metadata names no architecture (not a model GGUF, e.g. a vocab-only file). */
export function ggufToConfig(m: GgufMetadata): GgufConfig | undefined {
  const arch = str(m['general.architecture']);
  if (!arch) return undefined;
  const a = (k: string) => `${arch}.${k}`;
  const config: Record<string, unknown> = {};
  const keyOf: Record<string, string> = {};
  const put = (key: string, ggufKey: string, value: unknown) => {
    if (value === undefined) return;
    config[key] = value;
    keyOf[key] = ggufKey;
  };
  const out: GgufConfig = { arch, config, keyOf };
  const name = str(m['general.name']) ?? str(m['general.basename']);
  if (name) out.name = name;
  const hubRef = hubRefOf(m);
  if (hubRef) {
    out.hubRef = hubRef;
    put('_name_or_path', 'general.organization', hubRef);
  }
  put('model_type', 'general.architecture', MODEL_TYPE[arch] ?? arch);
  put('max_position_embeddings', a('context_length'), num(m[a('context_length')]));
  put('hidden_size', a('embedding_length'), num(m[a('embedding_length')]));
  put('num_hidden_layers', a('block_count'), num(m[a('block_count')]));
  put('intermediate_size', a('feed_forward_length'), num(m[a('feed_forward_length')]));
  const heads = num(m[a('attention.head_count')]);
  put('num_attention_heads', a('attention.head_count'), heads);
  put('num_key_value_heads', a('attention.head_count_kv'), num(m[a('attention.head_count_kv')]));
  put('sliding_window', a('attention.sliding_window'), num(m[a('attention.sliding_window')]));
  put('rope_theta', a('rope.freq_base'), num(m[a('rope.freq_base')]));

  // rope.dimension_count is the rotary dimension; the head is key_length (or hidden / heads).
  const ropeDim = num(m[a('rope.dimension_count')]);
  const keyLength = num(m[a('attention.key_length')]);
  const hidden = num(m[a('embedding_length')]);
  const head = keyLength ?? (hidden !== undefined && heads ? Math.floor(hidden / heads) : undefined);
  if (arch === 'deepseek2' && ropeDim !== undefined) {
    put('qk_rope_head_dim', a('rope.dimension_count'), ropeDim); // MLA: RoPE on the decoupled channels only
  } else {
    if (head !== undefined) put('head_dim', keyLength !== undefined ? a('attention.key_length') : a('embedding_length'), head);
    if (ropeDim !== undefined && ropeDim !== head) put('rotary_dim', a('rope.dimension_count'), ropeDim);
    if (ropeDim !== undefined && head === undefined) put('head_dim', a('rope.dimension_count'), ropeDim);
  }

  const type = str(m[a('rope.scaling.type')])?.toLowerCase();
  const linearScale = num(m[a('rope.scale_linear')]);
  if (type) out.scalingType = type;
  if (type && type !== 'none') {
    const scaling: Record<string, unknown> = { rope_type: type };
    keyOf['rope_scaling'] = a('rope.scaling.type');
    keyOf['rope_scaling.rope_type'] = a('rope.scaling.type');
    const factor = num(m[a('rope.scaling.factor')]);
    if (factor !== undefined) {
      scaling['factor'] = factor;
      keyOf['rope_scaling.factor'] = a('rope.scaling.factor');
    }
    const orig = num(m[a('rope.scaling.original_context_length')]);
    if (orig !== undefined) {
      scaling['original_max_position_embeddings'] = orig;
      keyOf['rope_scaling.original_max_position_embeddings'] = a('rope.scaling.original_context_length');
    }
    for (const [k, g] of [
      ['beta_fast', 'rope.scaling.yarn_beta_fast'],
      ['beta_slow', 'rope.scaling.yarn_beta_slow'],
    ] as const) {
      const v = num(m[a(g)]);
      if (v !== undefined) {
        scaling[k] = v;
        keyOf[`rope_scaling.${k}`] = a(g);
      }
    }
    config['rope_scaling'] = scaling;
  } else if (!type && linearScale !== undefined && linearScale !== 1) {
    // Older conversions wrote only rope.scale_linear.
    config['rope_scaling'] = { rope_type: 'linear', factor: linearScale };
    keyOf['rope_scaling'] = a('rope.scale_linear');
    keyOf['rope_scaling.factor'] = a('rope.scale_linear');
  }
  return out;
}

/** The config as the JSON text the model reader parses (one key per line, so findings map back to keys). */
export function ggufConfigText(g: GgufConfig): string {
  return JSON.stringify(g.config, null, 2);
}

/** The GGUF key a finding on line `line` (0-based) of `ggufConfigText` is about (depth from the 2-space indentation). */
export function ggufKeyAtLine(g: GgufConfig, line: number): string | undefined {
  const lines = ggufConfigText(g).split('\n');
  const stack: string[] = [];
  let key: string | undefined;
  for (let i = 0; i <= Math.min(line, lines.length - 1); i++) {
    const m = /^(\s*)"([^"]+)":/.exec(lines[i]);
    if (!m) continue;
    const depth = m[1].length / 2 - 1;
    stack.length = depth;
    stack.push(m[2]);
    if (i === line) key = stack.join('.');
  }
  if (key === undefined) return undefined;
  return g.keyOf[key] ?? g.keyOf[key.split('.')[0]];
}
