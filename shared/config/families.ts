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

/** Context length assumed when no length key is present (vLLM assumes 2048 as well). */
export const DEFAULT_CONTEXT = 2048;

/** Families that use Gemma-3's local/global base split. */
export function usesLocalBase(modelType: string | undefined): boolean {
  return modelType === 'gemma3' || modelType === 'gemma3_text';
}
