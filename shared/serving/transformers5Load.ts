/**
 * What transformers 5.x refuses when it builds a config class from a file (4.x loaded all of these).
 * 5.x validates configs as it builds them (strict dataclass validators, `validate_rope`); each check
 * here is one transformers 5.17.0 was seen to raise on a real or fixture file, with its error text as
 * 5.17 words it (test/fixtures/transformers-5.17/results.json holds the library's own messages):
 *
 *  - a `layer_types` list whose length is not `num_hidden_layers` (class validator
 *    `validate_layer_type`; a six-entry Gemma-3 pattern for 26 layers);
 *  - a `rope_parameters` that mixes plain values into a class keyed by layer type: Olmo-3 adds its
 *    `full_attention` / `sliding_attention` entries beside a flat dict and then calls `.get` on every
 *    value ("'float' object has no attribute 'get'"); Gemma-4 does the same with scalars written
 *    beside its per-type entries (`"rope_type": "default"` → 'str'; a null is dropped first);
 *  - longrope without `original_max_position_embeddings` in the dict: Phi-3's first revision writes
 *    `"type": "su"` with the original context at the top level, which 5.x copies in only for
 *    `longrope` ("Missing required keys in `rope_parameters` for 'rope_type'='longrope': …").
 */
import type { ConfigNode } from '../document/configNode';
import { child } from '../document/configNode';
import type { ConfigView } from './consumer';
import { LAYER_TYPES_CLASSES_5 } from '../config/transformers5Classes';

/**
 * num_hidden_layers of a class when the file leaves it out (the validator compares against it):
 * Gemma3TextConfig's 26, as 5.17's error on a file without the key shows.
 */
const DEFAULT_LAYERS: Record<string, number> = { gemma3_text: 26 };

/** Classes seen to refuse plain values in a layer-type-keyed rope_parameters (others not verified). */
const PER_TYPE_VALIDATED = new Set(['olmo3', 'gemma4_text']);

/** Python's type name for a JSON value as `json.load` gives it (numbers by how they are written). */
function pyType(node: ConfigNode, text: string | undefined): string {
  switch (node.kind) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'array':
      return 'list';
    case 'object':
      return 'dict';
    case 'null':
      return 'NoneType';
    default: {
      const written = node.raw ?? text?.slice(node.offset, node.offset + node.length);
      return (written !== undefined ? /[.eE]/.test(written) : !Number.isInteger(node.value)) ? 'float' : 'int';
    }
  }
}

/** The exception transformers 5.x raises building this file's config class, or undefined when it builds. */
export function transformers5Refusal(view: ConfigView, text?: string): string | undefined {
  const type = view.modelType ?? '';
  const scope = view.scope;
  const types = child(scope, 'layer_types');
  const layers = child(scope, 'num_hidden_layers');
  const count = layers?.kind === 'number' ? layers.value : layers === undefined ? DEFAULT_LAYERS[type] : undefined;
  if (LAYER_TYPES_CLASSES_5.has(type) && types?.kind === 'array' && typeof count === 'number') {
    const n = types.children?.length ?? 0;
    if (n !== count) {
      return `StrictDataclassClassValidationError: Class validation error for validator 'validate_layer_type':\n    ValueError: \`num_hidden_layers\` (${count}) must be equal to the number of \`layer_types\` (${n})`;
    }
  }
  const rp = child(scope, 'rope_parameters');
  if (PER_TYPE_VALIDATED.has(type) && rp?.kind === 'object') {
    const plain = (rp.children ?? []).find((c) => c.kind !== 'object' && c.kind !== 'null');
    if (plain) return `AttributeError: '${pyType(plain, text)}' object has no attribute 'get'`;
  }
  const scaling = view.ropeScaling ?? (view.perLayerType ? undefined : view.ropeParameters);
  const raw = scaling?.['rope_type'] ?? scaling?.['type'];
  const longrope = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if ((longrope === 'su' || longrope === 'longrope') && scaling?.['original_max_position_embeddings'] === undefined) {
    // 5.x copies a top-level original_max_position_embeddings into the dict for `longrope` only.
    const topLevel = child(scope, 'original_max_position_embeddings');
    if (longrope === 'su' || topLevel?.kind !== 'number') {
      return "KeyError: \"Missing required keys in `rope_parameters` for 'rope_type'='longrope': {'original_max_position_embeddings'}\"";
    }
  }
  return undefined;
}
