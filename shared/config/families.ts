/**
 * What transformers (or the model's own code) assumes when a config leaves a RoPE key out, per
 * model_type. Only families whose default differs from the common 10000 / 2048 need an entry.
 */

/** rope_theta default of the model's config class when the key is absent. */
const DEFAULT_BASE: Record<string, number> = {
  mixtral: 1e6,         // MixtralConfig(rope_theta=1e6)
  gemma3: 1e6,          // Gemma3TextConfig(rope_theta=1_000_000.0)
  gemma3_text: 1e6,
  llama4: 500000,       // Llama4TextConfig(rope_theta=500000)
  llama4_text: 500000,
  gpt_oss: 150000,      // GptOssConfig(rope_theta=150000.0)
};

/** Gemma-3's base for sliding-window (local) layers when rope_local_base_freq is absent. */
export const GEMMA3_LOCAL_BASE = 10000;

export function familyDefaultBase(modelType: string | undefined): { value: number; note: string } {
  const v = modelType !== undefined ? DEFAULT_BASE[modelType] : undefined;
  if (v !== undefined) return { value: v, note: `rope_theta absent: ${modelType}'s default ${v}` };
  return { value: 10000, note: `rope_theta absent: the default 10000${modelType ? ` (${modelType})` : ''}` };
}

/** Context length assumed when no length key is present and the family is unknown (vLLM assumes 2048 as well). */
export const DEFAULT_CONTEXT = 2048;

/** max_position_embeddings default of the model's config class, where it is not 2048. */
const DEFAULT_CONTEXT_BY_TYPE: Record<string, number> = {
  gemma3: 131072,       // Gemma3TextConfig(max_position_embeddings=131_072); multimodal text_config often omits it
  gemma3_text: 131072,
  gemma: 8192,          // GemmaConfig(max_position_embeddings=8192)
  gemma2: 8192,
  cohere: 8192,         // CohereConfig(max_position_embeddings=8192)
  mistral: 131072,      // MistralConfig(max_position_embeddings=4096 * 32)
  mixtral: 131072,
  qwen2: 32768,         // Qwen2Config(max_position_embeddings=32768)
  qwen3: 32768,
  phi3: 4096,           // Phi3Config(max_position_embeddings=4096)
  stablelm: 4096,       // StableLmConfig(max_position_embeddings=4096)
  deepseek_v2: 2048,
  deepseek_v3: 4096,    // DeepseekV3Config(max_position_embeddings=4096)
  llama4_text: 131072,  // Llama4TextConfig(max_position_embeddings=4096 * 32)
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
