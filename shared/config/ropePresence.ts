/**
 * Does this model rotate its queries and keys at all? Decided from the model type and the config's
 * own position keys, never by assuming a default base: BERT-style encoders, T5, GPT-2, ALiBi models,
 * vision towers and state-space models have no rotary embedding, and a RoPE finding on them is noise.
 * Encoders that do use RoPE (ModernBERT, nomic-bert, RoFormer, ESM with `rotary`) stay RoPE.
 */
import { isWorkableLayerCount } from '../core/limits';
import type { ConfigNode } from '../document/configNode';
import { child } from '../document/configNode';
import { booleanOf, numberOf, stringOf } from './modelValues';
import { MODEL_TYPES_5 } from './transformers5Classes';
import { CATALOG } from './catalog';

/** model_type → why it has no rotary embedding (transformers' modeling code for that type). */
const NO_ROPE_TYPES: Record<string, string> = {
  bert: 'learned absolute position embeddings (BERT)',
  roberta: 'learned absolute position embeddings (RoBERTa)',
  'xlm-roberta': 'learned absolute position embeddings (XLM-RoBERTa)',
  xlm_roberta: 'learned absolute position embeddings (XLM-RoBERTa)',
  distilbert: 'learned absolute position embeddings (DistilBERT)',
  albert: 'learned absolute position embeddings (ALBERT)',
  electra: 'learned absolute position embeddings (ELECTRA)',
  camembert: 'learned absolute position embeddings (CamemBERT)',
  deberta: 'disentangled relative position attention (DeBERTa)',
  'deberta-v2': 'disentangled relative position attention (DeBERTa-v2)',
  t5: 'relative position buckets (T5)',
  mt5: 'relative position buckets (mT5)',
  umt5: 'relative position buckets (UMT5)',
  longt5: 'relative position buckets (LongT5)',
  bart: 'learned absolute position embeddings (BART)',
  mbart: 'learned absolute position embeddings (mBART)',
  pegasus: 'sinusoidal absolute position embeddings (Pegasus)',
  marian: 'sinusoidal absolute position embeddings (Marian)',
  gpt2: 'learned absolute position embeddings (GPT-2)',
  gpt_bigcode: 'learned absolute position embeddings (GPT-BigCode / StarCoder 1)',
  opt: 'learned absolute position embeddings (OPT)',
  bloom: 'ALiBi attention biases (BLOOM)',
  mpt: 'ALiBi attention biases (MPT)',
  whisper: 'sinusoidal and learned absolute position embeddings (Whisper)',
  clip: 'learned absolute position embeddings (CLIP)',
  clip_vision_model: 'learned absolute position embeddings (CLIP vision tower)',
  clip_text_model: 'learned absolute position embeddings (CLIP text tower)',
  siglip: 'learned absolute position embeddings (SigLIP)',
  siglip_vision_model: 'learned absolute position embeddings (SigLIP vision tower)',
  vit: 'learned absolute position embeddings (ViT)',
  dinov2: 'learned absolute position embeddings (DINOv2)',
  mamba: 'a state-space model: no attention, no position encoding (Mamba)',
  mamba2: 'a state-space model: no attention, no position encoding (Mamba-2)',
  falcon_mamba: 'a state-space model: no attention, no position encoding (Falcon-Mamba)',
  rwkv: 'a recurrent model: no attention, no position encoding (RWKV)',
  jamba: 'a Mamba/attention hybrid whose attention layers use no position encoding (Jamba)',
  nemotron_h: 'a Mamba-2/attention hybrid whose attention layers use no position encoding (Nemotron-H)',
};

/**
 * Hybrids whose few attention layers are named in a pattern string: the key and the letter that marks
 * an attention layer, to say how many there are.
 */
const HYBRID_PATTERNS: { key: string; attention: string }[] = [
  { key: 'hybrid_override_pattern', attention: '*' }, // Nemotron-H: M Mamba-2, * attention, - MLP, E MoE
];

/** Switches that turn a hybrid's rotary embedding off: key → the value that means "no RoPE". */
const ROPE_SWITCHES: { key: string; off: boolean; what: string }[] = [
  { key: 'use_mem_rope', off: false, what: 'the shared attention blocks use no position encoding (Zamba2)' },
];

/** Types whose rotary embedding is not announced by a `rope_*` key but is always there. */
const ROPE_ENCODERS = new Set(['modernbert', 'nomic_bert', 'roformer']);

/**
 * The reason a model config has no rotary embedding, or undefined when it has one. `scopes` are the
 * language-model scope first, then the root (multimodal wrappers keep the LLM under text_config).
 */
export function noRopeReason(scopes: readonly ConfigNode[], modelType: string | undefined): string | undefined {
  const get = (key: string): ConfigNode | undefined => {
    for (const s of scopes) {
      const n = child(s, key);
      if (n && n.kind !== 'null') return n;
    }
    return undefined;
  };
  const t = modelType?.toLowerCase();
  if (t && ROPE_ENCODERS.has(t)) return undefined;
  // An explicit position_embedding_type wins over the model type (ESM and nomic write `rotary`).
  const pet = stringOf(get('position_embedding_type'))?.toLowerCase();
  if (pet === 'rotary' || pet === 'rope') return undefined;
  if (pet === 'absolute') return 'position_embedding_type "absolute": learned absolute position embeddings';
  if (pet === 'relative_key' || pet === 'relative_key_query') return `position_embedding_type "${pet}": relative position embeddings in attention`;
  if (pet === 'nope' || pet === 'none') return `position_embedding_type "${pet}": no position encoding in attention`;
  if (booleanOf(get('alibi')) === true) return 'alibi: true (ALiBi attention biases)';
  if (booleanOf(child(get('attn_config'), 'alibi')) === true) return 'attn_config.alibi: true (ALiBi attention biases)';
  // Baichuan-13B and Baichuan2-13B share model_type "baichuan" with the 7B models but use ALiBi
  // (their remote code: 13B → BaichuanAttention with ALiBi, 7B → rotary); 13B is hidden_size 5120.
  if (t === 'baichuan' && numberOf(get('hidden_size')) === 5120) return 'ALiBi attention biases (Baichuan 13B remote code)';
  if (t && NO_ROPE_TYPES[t]) {
    // Falcon-style flags can still switch RoPE back on for a type listed here; none of the listed ones do.
    return NO_ROPE_TYPES[t] + hybridMix(get);
  }
  for (const sw of ROPE_SWITCHES) {
    if (booleanOf(get(sw.key)) === sw.off) return `${sw.key}: ${sw.off}: ${sw.what}`;
  }
  // Kimi-Linear and Kimi-K3: MLA layers run without rotation, the KDA (linear-attention) layers carry
  // position; the rope_theta and qk_rope_head_dim kept in the file are not applied.
  if (booleanOf(get('mla_use_nope')) === true) {
    const unread = get('rope_theta') ? '; the rope_theta written there is not applied' : '';
    return `mla_use_nope: true: its MLA attention layers use no position encoding (the linear-attention layers carry position)${unread}`;
  }
  const remote = remoteCodeWithoutRope(scopes, get, t);
  if (remote) return remote;
  if (get('relative_attention_num_buckets')) return 'relative_attention_num_buckets: T5-style relative position buckets';
  return undefined;
}

/** "; 6 of its 52 layers attend (hybrid_override_pattern), and the rope_theta written there is not read". */
function hybridMix(get: (key: string) => ConfigNode | undefined): string {
  for (const { key, attention } of HYBRID_PATTERNS) {
    const pattern = stringOf(get(key));
    if (!pattern) continue;
    const n = [...pattern].filter((c) => c === attention).length;
    const unread = get('rope_theta') ? ', and the rope_theta written there is not read' : '';
    return `; ${n} of its ${pattern.length} layers attend (${attention} in ${key})${unread}`;
  }
  // Jamba: one attention layer every attn_layer_period layers, from attn_layer_offset.
  const period = numberOf(get('attn_layer_period'));
  const offset = numberOf(get('attn_layer_offset'));
  const layers = numberOf(get('num_hidden_layers'));
  if (period && period > 0 && offset !== undefined && isWorkableLayerCount(layers)) {
    const n = Array.from({ length: layers }, (_, i) => i).filter((i) => i % period === offset).length;
    return `; ${n} of its ${layers} layers attend (every ${period}th from layer ${offset}: attn_layer_period, attn_layer_offset)`;
  }
  return '';
}

/** Model types the catalog knows (their remote code is known to rotate: Baichuan2-7B, Qwen-1, ChatGLM). */
const CATALOG_TYPES: ReadonlySet<string> = new Set(
  CATALOG.flatMap((e) => {
    const c = e.config as { model_type?: unknown; text_config?: { model_type?: unknown } };
    return [c.model_type, c.text_config?.model_type].filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase());
  }),
);

/**
 * A remote-code architecture (`auto_map`) that neither transformers nor the catalog knows, whose file
 * carries no rotary key at all: how it encodes position is in code RoPE Lens cannot read, so no base
 * is invented from a default (advice.md situation 1).
 */
function remoteCodeWithoutRope(scopes: readonly ConfigNode[], get: (key: string) => ConfigNode | undefined, t: string | undefined): string | undefined {
  const autoMap = get('auto_map');
  if (!autoMap || (t && (MODEL_TYPES_5.has(t) || CATALOG_TYPES.has(t)))) return undefined;
  const ropeKey = /rope|rotary|rotemb|pos_emb|position_embedding_type/i;
  for (const s of scopes) for (const c of s.children ?? []) if (c.key && ropeKey.test(c.key)) return undefined;
  return `remote code (auto_map${t ? `, model_type "${t}"` : ''}) whose config carries no RoPE key: its position encoding is in code RoPE Lens does not read`;
}
