/**
 * What transformers (or the model's own code) assumes when a config leaves a RoPE key out, per
 * model_type. Only families whose default differs from the common 10000 / 2048 need an entry.
 */
import { DEFAULT_THETA_5 } from './transformers5Classes';

/**
 * rope_theta default of the model's config class when the key is absent, per transformers
 * generation. 5.x: the 5.17 class table (transformers5Classes.ts). 4.x: the same values, except
 * where a 4.x class is known to differ (CohereConfig(rope_theta=10000.0) in 4.x; 5.17's
 * CohereConfig.default_theta is 500,000). Wrapper types without a base of their own (gemma3,
 * llama4) take their text config's.
 */
const WRAPPER_BASE: Record<string, number> = {
  gemma3: 1e6, // Gemma3Config → Gemma3TextConfig (1,000,000)
  llama4: 500000, // Llama4Config → Llama4TextConfig (500,000)
};
const V4_DIFFERS: Record<string, number> = {
  cohere: 10000, // 4.x CohereConfig(rope_theta=10000.0)
};

/** Gemma-3's base for sliding-window (local) layers when rope_local_base_freq is absent. */
export const GEMMA3_LOCAL_BASE = 10000;

export function familyDefaultBase(modelType: string | undefined, generation: 'v4' | 'v5' = 'v5'): { value: number; note: string } {
  const t = modelType ?? '';
  const v = (generation === 'v4' ? V4_DIFFERS[t] : undefined) ?? DEFAULT_THETA_5[t] ?? WRAPPER_BASE[t];
  const which = generation === 'v4' ? 'transformers 4.x' : 'transformers 5.x';
  if (v !== undefined) return { value: v, note: `rope_theta absent: ${modelType}'s default ${v} (${which})` };
  return { value: 10000, note: `rope_theta absent: the default 10000${modelType ? ` (${modelType})` : ''}` };
}

/** Context length assumed when no length key is present and the family is unknown (vLLM assumes 2048 as well). */
export const DEFAULT_CONTEXT = 2048;

/** max_position_embeddings default of the model's config class, where it is not 2048. */
const DEFAULT_CONTEXT_BY_TYPE: Record<string, number> = {
  gemma3: 131072, // Gemma3TextConfig(max_position_embeddings=131_072); multimodal text_config often omits it
  gemma3_text: 131072,
  gemma: 8192, // GemmaConfig(max_position_embeddings=8192)
  gemma2: 8192,
  cohere: 8192, // CohereConfig(max_position_embeddings=8192)
  mistral: 131072, // MistralConfig(max_position_embeddings=4096 * 32)
  mixtral: 131072,
  qwen2: 32768, // Qwen2Config(max_position_embeddings=32768)
  qwen3: 32768,
  phi3: 4096, // Phi3Config(max_position_embeddings=4096)
  stablelm: 4096, // StableLmConfig(max_position_embeddings=4096)
  deepseek_v2: 2048,
  deepseek_v3: 4096, // DeepseekV3Config(max_position_embeddings=4096)
  llama4_text: 131072, // Llama4TextConfig(max_position_embeddings=4096 * 32)
  gpt_oss: 131072,
};

/** The context a config class assumes when the file has no length key. */
export function familyDefaultContext(modelType: string | undefined): { value: number; note: string } {
  const v = modelType !== undefined ? DEFAULT_CONTEXT_BY_TYPE[modelType] : undefined;
  if (v !== undefined) return { value: v, note: `no context length key: ${modelType}'s default max_position_embeddings ${v}` };
  return { value: DEFAULT_CONTEXT, note: `no context length key: assuming ${DEFAULT_CONTEXT}` };
}

/** Whether transformers' config class for this model type gives max_position_embeddings a default. */
export function hasClassDefault(modelType: string): boolean {
  return DEFAULT_CONTEXT_BY_TYPE[modelType] !== undefined;
}

/** Families that use Gemma-3's local/global base split. */
export function usesLocalBase(modelType: string | undefined): boolean {
  return modelType === 'gemma3' || modelType === 'gemma3_text';
}
