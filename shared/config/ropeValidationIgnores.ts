/**
 * Keys a transformers 5.x config class tells its RoPE validation to ignore
 * (`super().__init__(ignore_keys_at_rope_validation={…})`): model-specific keys that class's model
 * reads, so transformers neither warns about them nor drops them. Copied from the config sources;
 * a rule that would call such a key "unrecognized" or "ignored" says nothing instead.
 */
export const IGNORED_AT_ROPE_VALIDATION: Readonly<Record<string, readonly string[]>> = {
  // models/ministral3/configuration_ministral3.py (Ministral3Config.__init__): the Llama-4 style
  // attention temperature (1 + β·ln(1 + ⌊pos / original⌋)) the model applies past its original context.
  ministral3: ['llama_4_scaling_beta', 'max_position_embeddings'],
  // models/mistral4/configuration_mistral4.py (Mistral4Config.__init__): the same keys.
  mistral4: ['llama_4_scaling_beta', 'max_position_embeddings'],
};

/** Whether transformers 5's config class for `modelType` ignores `key` at RoPE validation on purpose. */
export function ignoredAtRopeValidation(modelType: string | undefined, key: string): boolean {
  return !!modelType && (IGNORED_AT_ROPE_VALIDATION[modelType]?.includes(key) ?? false);
}
