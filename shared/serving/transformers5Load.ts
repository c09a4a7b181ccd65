/**
 * What transformers 5.x refuses when it builds a config class from a file (4.x loaded all of these).
 * 5.x validates configs as it builds them (strict dataclass validators, `validate_rope`); each check
 * here is one transformers 5.17.0 was seen to raise on a real or fixture file, with its error text as
 * 5.17 words it (test/fixtures/transformers-5.17/results.json holds the library's own messages):
 *
 *  - a `layer_types` list whose length is not `num_hidden_layers` (class validator
 *    `validate_layer_type`; a six-entry Gemma-3 pattern for 26 layers), or with an entry that is no
 *    attention layer type 5.18.0 knows (the same validator, any class: a Llama file's "global_attention");
 *  (5.17 also refused a `rope_parameters` mixing plain values into a class keyed by layer type, Olmo-3's flat dict
 *    and Gemma-4's scalars beside its per-type entries; 5.18.0 loads both: test/integration/realTransformers.test.ts);
 *  - Phi-3's first revision's `"type": "su"` without `original_max_position_embeddings` in the dict:
 *    5.x copies the top-level original (else max_position_embeddings) in only for `longrope`
 *    ("Missing required keys in `rope_parameters` for 'rope_type'='longrope': …"); a `longrope` dict
 *    without it loads (5.18.0);
 *  - a scaling dict without a key its type requires (`missingKeysError`).
 */
import { child } from '../document/configNode';
import type { ConfigView } from './consumer';
import { LAYER_TYPES_CLASSES_5, knownTo5x } from '../config/transformers5Classes';
import { pyRepr } from '../core/quote';
import { missingKeysError } from './missingKeys';

/**
 * num_hidden_layers of a class when the file leaves it out (the validator compares against it):
 * Gemma3TextConfig's 26, as 5.17's error on a file without the key shows.
 */
export const DEFAULT_LAYERS: Record<string, number> = { gemma3_text: 26 };

/** The entries 5.18.0 accepts in `layer_types` (configuration_utils.ALLOWED_ATTN_LAYER_TYPES), in its order. */
const ATTENTION_LAYER_TYPES = [
  'full_attention',
  'sliding_attention',
  'chunked_attention',
  'window_attention',
  'indexed_attention',
  'compressed_sparse_attention',
  'heavily_compressed_attention',
  'minimax_m3_sparse',
  'conv',
  'moe',
  'hybrid',
  'hybrid_sliding',
  'linear_attention',
];

/** Legacy entries 5.18.0 renames before it validates (configuration_utils._LEGACY_LAYER_TYPE_REMAP). */
const LEGACY_LAYER_TYPES: Record<string, string> = {
  mamba: 'linear_attention',
  attention: 'full_attention',
  deepseek_sparse_attention: 'indexed_attention',
  qwen_sparse_attention: 'indexed_attention',
};

/** The exception transformers 5.x raises building this file's config class, or undefined when it builds. */
export function transformers5Refusal(view: ConfigView, _text?: string): string | undefined {
  const type = view.modelType ?? '';
  const scope = view.scope;
  const types = child(scope, 'layer_types');
  const layers = child(scope, 'num_hidden_layers');
  const count = layers?.kind === 'number' ? layers.value : layers === undefined ? DEFAULT_LAYERS[type] : undefined;
  // Every 5.x config class validates a layer_types list it is given (PreTrainedConfig.validate_layer_type), after
  // renaming legacy entries ("attention" → "full_attention", "mamba" → "linear_attention").
  if (knownTo5x(type) && types?.kind === 'array') {
    const entries = (types.children ?? []).map((c) =>
      c.kind === 'string' && typeof c.value === 'string' ? (LEGACY_LAYER_TYPES[c.value] ?? c.value) : c.value,
    );
    if (entries.some((e) => typeof e !== 'string' || !ATTENTION_LAYER_TYPES.includes(e))) {
      return `StrictDataclassClassValidationError: Class validation error for validator 'validate_layer_type':\n    ValueError: The \`layer_types\` entries must be in (${ATTENTION_LAYER_TYPES.map((t) => `'${t}'`).join(', ')}) but got ${pyRepr(entries)}`;
    }
  }
  if (LAYER_TYPES_CLASSES_5.has(type) && types?.kind === 'array' && typeof count === 'number') {
    const n = types.children?.length ?? 0;
    if (n !== count) {
      return `StrictDataclassClassValidationError: Class validation error for validator 'validate_layer_type':\n    ValueError: \`num_hidden_layers\` (${count}) must be equal to the number of \`layer_types\` (${n})`;
    }
  }
  const scaling = view.ropeScaling ?? (view.perLayerType ? undefined : view.ropeParameters);
  const raw = scaling?.['rope_type'] ?? scaling?.['type'];
  const longrope = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (longrope === 'su' && scaling?.['original_max_position_embeddings'] === undefined) {
    // 5.x fills the original length (the top-level one, else max_position_embeddings) for `longrope` only: 5.18.0
    // loads a longrope dict without it, and refuses Phi-3's legacy "su".
    return "KeyError: \"Missing required keys in `rope_parameters` for 'rope_type'='longrope': {'original_max_position_embeddings'}\"";
  }
  // A scaling type without a key it requires (a yarn dict with no factor): the KeyError every 5.x release raises.
  return scaling && !view.perLayerType ? missingKeysError(scaling, 'rope_parameters', 'v5') : undefined;
}
