/**
 * Every context-length key a config writes, read from its language-model scope (the root, or
 * text_config/llm_config/… as vLLM's and SGLang's get_hf_text_config pick), for the engines'
 * own key lists.
 */
import { child, ConfigNode, ParsedDocument } from '../document/configNode';

/** The keys vLLM's _get_and_verify_max_len reads (possible_keys), in its order. */
export const VLLM_LENGTH_KEYS: readonly string[] = [
  'max_position_embeddings',
  'n_positions',
  'max_seq_len',
  'seq_length',
  'model_max_length',
  'max_target_positions',
  'max_sequence_length',
  'max_seq_length',
  'seq_len',
];
/**
 * The keys SGLang reads the length from, in its order: the FIRST one the (text) config has wins
 * (2048 when none). sgl-project/sglang `python/sglang/srt/utils/hf_transformers_utils.py`,
 * CONTEXT_LENGTH_KEYS and get_context_length (called by `srt/configs/model_config.py`,
 * ModelConfig._derive_context_length, on hf_text_config after --json-model-override-args is merged).
 * So Qwen-1 (seq_length 8192, max_position_embeddings 32768) and ChatGLM (seq_length) take their
 * length from seq_length, where vLLM takes the smallest of its keys.
 */
export const SGLANG_LENGTH_KEYS: readonly string[] = ['max_sequence_length', 'seq_length', 'max_seq_len', 'model_max_length', 'max_position_embeddings'];
/** The engines' keys plus those only other engines read (llama.cpp conversion's n_ctx, max_length). */
const KEYS = [...new Set([...VLLM_LENGTH_KEYS, ...SGLANG_LENGTH_KEYS]), 'n_ctx', 'max_length'];
const NESTED = ['text_config', 'llm_config', 'language_config', 'text_model'];

function numbers(node: ConfigNode | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of KEYS) {
    const c = child(node, k);
    if (c?.kind === 'number' && typeof c.value === 'number' && Number.isFinite(c.value)) out[k] = c.value;
  }
  return out;
}

export function contextKeysOf(doc: ParsedDocument): Record<string, number> {
  const root = doc.root;
  if (!root || root.kind !== 'object') return {};
  for (const k of NESTED) {
    const nested = child(root, k);
    if (nested?.kind === 'object' && child(nested, 'num_attention_heads')) return numbers(nested);
  }
  const own = numbers(root);
  if (Object.keys(own).length > 0) return own;
  // A wrapper whose lengths live only in its text config (a catalog description keeps the RoPE subset, no head counts).
  for (const k of NESTED) {
    const nested = child(root, k);
    if (nested?.kind === 'object') {
      const found = numbers(nested);
      if (Object.keys(found).length > 0) return found;
    }
  }
  return own;
}

/**
 * The length vLLM derives for a model with no RoPE (absolute or learned positions: BERT, XLM-RoBERTa rerankers, …):
 * `_get_and_verify_max_len` with no scaling to apply: the smallest of its keys, a `model_max_length` replacing it,
 * 2048 when the config has none. bge-reranker-base (max_position_embeddings 514) derives 514.
 */
export function vllmLengthWithoutRope(keys: Record<string, number>): { value: number; key: string } {
  if (keys.model_max_length !== undefined) return { value: keys.model_max_length, key: 'model_max_length' };
  let best: { value: number; key: string } | undefined;
  for (const k of VLLM_LENGTH_KEYS) if (keys[k] !== undefined && (!best || keys[k] < best.value)) best = { value: keys[k], key: k };
  return best ?? { value: 2048, key: 'none of its keys (vLLM assumes 2048)' };
}
