/**
 * transformers as a consumer of config.json, one reader per release range that changed how RoPE
 * keys are read. Verified in transformers' own source:
 *
 *  - ≤ 4.42: `models/llama/configuration_llama.py::LlamaConfig.__init__` takes `rope_theta=10000.0`
 *    and `rope_scaling=None` and calls `_rope_scaling_validation`, which raises ValueError unless
 *    rope_scaling is exactly {type, factor} with type linear|dynamic and a float factor > 1
 *    ("`rope_scaling` must be a dictionary with two fields, `type` and `factor`, got …"; a Llama-3.1
 *    config fails there at `configuration_llama.py` line 161 in the 4.42 trace quoted by users).
 *    Other model types of that era are not modelled here.
 *  - 4.43 – 4.57: `modeling_rope_utils.py::rope_config_validation` @ v4.45 (ef46806) reads
 *    `rope_scaling["rope_type"]`, else the legacy `type`; `LlamaConfig.__init__` first copies a
 *    legacy `type` over `rope_type` ("BC: if there is a 'type' field, copy it to 'rope_type'").
 *    No 4.x config class has a `rope_parameters` argument: the key lands as an unused attribute,
 *    so a v5-saved file runs on the class default `rope_theta` and no scaling.
 *  - 5.x: `configuration_llama.py` @ main (008e574) declares only `rope_parameters`;
 *    `RotaryEmbeddingConfigMixin.convert_rope_params_to_dict` takes a legacy `rope_scaling` kwarg
 *    first (`rope_scaling or self.rope_parameters`) and fills `rope_theta` only where the dict has
 *    none (`setdefault("rope_theta", kwargs.pop("rope_theta", self.default_theta))`). This is what
 *    the model reader (config/modelConfig.ts) already implements, so the 5.x row is the file's meaning.
 */
import { computeFrequencies } from '../rope/invFreq';
import { toRopeSpec, transformers5RotaryDim } from '../config/modelConfig';
import { LAYER_TYPES_CLASSES_5, knownTo5x } from '../config/transformers5Classes';
import { child } from '../document/configNode';
import { DEFAULT_LAYERS, transformers5Refusal } from './transformers5Load';
import { familyDefaultBase } from '../config/families';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { legacyKeys, numberIn, scalingTypeOf, specOf } from './consumer';
import { FLOAT_KEYS } from './common';
import { pyRepr } from '../core/quote';
import { missingKeysError } from './missingKeys';

/**
 * Model types transformers 4.57 ships a config class for (a file of another type cannot load on
 * 4.x at all, which is not a misread). Types whose RoPE is read from rope_theta/rope_scaling.
 */
const KNOWN_4X = new Set([
  'llama',
  'mistral',
  'mixtral',
  'qwen2',
  'qwen2_moe',
  'qwen3',
  'qwen3_moe',
  'gemma',
  'gemma2',
  'gemma3',
  'gemma3_text',
  'phi',
  'phi3',
  'phimoe',
  'olmo',
  'olmo2',
  'granite',
  'granitemoe',
  'cohere',
  'cohere2',
  'starcoder2',
  'stablelm',
  'deepseek_v2',
  'deepseek_v3',
  'gpt_neox',
  'falcon',
  'gpt_oss',
  'llama4',
  'llama4_text',
  'smollm3',
  'exaone4',
  'qwen2_vl',
  'qwen2_5_vl',
  'internlm2',
  'minicpm',
  'glm',
  'glm4',
  'persimmon',
  'nemotron',
  'helium',
  'olmoe',
]);

/** True when transformers 4.x has a config class for the model type (engines that load through it share the list). */
export function knownTo4x(modelType: string | undefined): boolean {
  return KNOWN_4X.has(modelType ?? '');
}

/** Model types with a config class in 4.42 (their rope_theta is read as in every 4.x). */
const KNOWN_442 = new Set([
  'llama',
  'mistral',
  'mixtral',
  'qwen2',
  'qwen2_moe',
  'gemma',
  'gemma2',
  'phi',
  'phi3',
  'stablelm',
  'starcoder2',
  'gpt_neox',
  'falcon',
  'cohere',
  'olmo',
  'persimmon',
]);

/** Model types whose ≤ 4.42 config validates rope_scaling as {type, factor} (verified for llama). */
const TWO_FIELD_VALIDATION = new Set(['llama']);

const windowsOf = (input: ConsumerInput): ConsumerReading['windows'] => (input.rope.groups?.some((g) => g.window !== undefined) ? 'honoured' : 'n/a');

function attentionFactor(input: ConsumerInput, base: number, scaling: Record<string, unknown> | undefined, type: string, variant: 'v4' | 'v5'): number | null {
  try {
    return computeFrequencies(specOf(input.rope, base, scaling, type), { variant }).attentionFactor;
  } catch {
    return null;
  }
}

/** A YaRN scaling whose mscale keys decide its attention factor (releases inside 4.43 – 4.57 differ there). */
function readsMscaleKeys(scaling: Record<string, unknown> | undefined): boolean {
  return scalingTypeOf(scaling) === 'yarn' && !!scaling?.['mscale'] && !!scaling?.['mscale_all_dim'] && scaling?.['attention_factor'] === undefined;
}

/** What 4.x reads: top-level rope_theta (else the class default) and rope_scaling; never rope_parameters. */
function v4Reading(
  input: ConsumerInput,
  legacyTypeWins: boolean,
): Pick<ConsumerReading, 'base' | 'baseFrom' | 'scalingType' | 'factor' | 'notes'> & { scaling?: Record<string, unknown> } {
  const { view } = input;
  const notes: string[] = [];
  const v4Default = familyDefaultBase(view.modelType, 'v4').value;
  const read = legacyKeys(input, v4Default);
  // A file that names no base runs on the 4.x class default, which is not always 5.x's (Cohere).
  const fromDefault = read.baseFrom.startsWith('default');
  const base = fromDefault ? v4Default : read.base;
  const baseFrom = fromDefault ? `default rope_theta ${v4Default} (not read from the file)` : read.baseFrom;
  let scaling = read.scaling;
  if (scaling && legacyTypeWins && typeof scaling['type'] === 'string') scaling = { ...scaling, rope_type: scaling['type'] };
  if (view.ropeParameters) notes.push('rope_parameters is never read by transformers 4.x');
  const scalingType = scalingTypeOf(scaling);
  return { base, baseFrom, scalingType, factor: scalingType === 'none' ? null : (numberIn(scaling, 'factor') ?? null), notes, scaling };
}

export function transformers442Reading(input: ConsumerInput): ConsumerReading {
  const { view } = input;
  const row: ConsumerReading = {
    consumer: 'transformers-4.42',
    label: 'transformers ≤ 4.42',
    pkg: 'transformers',
    range: { before: '4.43.0' },
    source: 'models/llama/configuration_llama.py::LlamaConfig._rope_scaling_validation @ v4.42',
    status: 'reads',
    base: null,
    baseFrom: '',
    scalingType: null,
    factor: null,
    attentionFactor: null,
    derivedMaxLen: null,
    windows: windowsOf(input),
    notes: [],
  };
  if (!view.modelType || !KNOWN_442.has(view.modelType)) {
    return {
      ...row,
      status: KNOWN_4X.has(view.modelType ?? '') ? 'not-modelled' : 'cannot-load',
      windows: 'not verified',
      notes: [`not modelled for model_type ${view.modelType ?? '(none)'} at this release`],
    };
  }
  if (!TWO_FIELD_VALIDATION.has(view.modelType)) {
    // Every 4.42 config class takes rope_theta (class default otherwise) and has no rope_parameters;
    // how each non-llama class treats rope_scaling was not verified, so that cell stays empty.
    const r = v4Reading(input, false);
    return { ...row, base: r.base, baseFrom: r.baseFrom, notes: [...r.notes, `rope_scaling handling of ${view.modelType} at this release not verified`] };
  }
  const r = v4Reading(input, false);
  const rs = view.ropeScaling;
  if (rs) {
    const keys = Object.keys(rs);
    const type = rs['type'];
    const factor = rs['factor'];
    let error: string | undefined;
    if (keys.length !== 2) error = `\`rope_scaling\` must be a dictionary with two fields, \`type\` and \`factor\`, got ${pyDict(rs)}`;
    else if (type !== 'linear' && type !== 'dynamic') error = `\`rope_scaling\`'s type field must be one of ['linear', 'dynamic'], got ${pyValue(type)}`;
    else if (typeof factor !== 'number' || !(factor > 1)) error = `\`rope_scaling\`'s factor field must be a float > 1, got ${pyValue(factor)}`;
    if (error) return { ...row, status: 'refuses', error: `ValueError: ${error}`, notes: r.notes };
  }
  return { ...row, base: r.base, baseFrom: r.baseFrom, scalingType: r.scalingType, factor: r.factor, attentionFactor: 1, notes: r.notes };
}

/**
 * 4.x classes with a layer_types list check its length (configuration_utils.layer_type_validation @ 4.57.6:
 * "`num_hidden_layers` (26) must be equal to the number of layer types (6)"); Llama has no such list in 4.x.
 */
function layerTypesCount4(input: ConsumerInput): string | undefined {
  const scope = input.view.scope;
  const types = child(scope, 'layer_types');
  const layers = child(scope, 'num_hidden_layers');
  const type = input.view.modelType ?? '';
  // A file without num_hidden_layers is checked against the class default (Gemma3TextConfig's 26, both generations).
  const count = layers?.kind === 'number' ? layers.value : layers === undefined ? DEFAULT_LAYERS[type] : undefined;
  if (!LAYER_TYPES_CLASSES_5.has(type) || types?.kind !== 'array' || typeof count !== 'number') return undefined;
  const n = types.children?.length ?? 0;
  return n === count ? undefined : `ValueError: \`num_hidden_layers\` (${count}) must be equal to the number of layer types (${n})`;
}

export function transformers4Reading(input: ConsumerInput): ConsumerReading {
  const { view } = input;
  const row: ConsumerReading = {
    consumer: 'transformers-4',
    label: 'transformers 4.43 – 4.57',
    pkg: 'transformers',
    range: { from: '4.43.0', before: '5.0.0' },
    source: 'modeling_rope_utils.py::rope_config_validation @ v4.45; models/llama/configuration_llama.py::LlamaConfig.__init__ @ v4.45',
    status: 'reads',
    base: null,
    baseFrom: '',
    scalingType: null,
    factor: null,
    attentionFactor: null,
    derivedMaxLen: null,
    windows: windowsOf(input),
    notes: [],
  };
  if (!KNOWN_4X.has(view.modelType ?? ''))
    return { ...row, status: 'cannot-load', windows: 'n/a', notes: [`no transformers 4.x config class for model_type ${view.modelType ?? '(none)'}`] };
  const r = v4Reading(input, true);
  const refusal = missingKeysError(r.scaling, 'rope_scaling', 'v4') ?? layerTypesCount4(input);
  if (refusal) return { ...row, status: 'refuses', error: refusal, notes: r.notes };
  return {
    ...row,
    base: r.base,
    baseFrom: r.baseFrom,
    scalingType: r.scalingType,
    factor: r.factor,
    // 4.45's YaRN ignores mscale/mscale_all_dim; later 4.x releases read them as 5.x does: the range has no one number.
    attentionFactor: readsMscaleKeys(r.scaling) ? null : attentionFactor(input, r.base ?? 10000, r.scaling, r.scalingType ?? 'none', 'v4'),
    notes: r.notes,
  };
}

export function transformers5Reading(input: ConsumerInput): ConsumerReading {
  const { rope, view } = input;
  const s = rope.scaling;
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s?.params ?? {})) plain[k] = v.value;
  const type = s ? scalingTypeOf(plain) : 'none';
  let af: number | null = null;
  try {
    af = computeFrequencies(toRopeSpec(rope, { variant: 'v5' }), { variant: 'v5' }).attentionFactor;
  } catch {
    af = null;
  }
  const row: ConsumerReading = {
    consumer: 'transformers-5',
    label: 'transformers 5.x',
    pkg: 'transformers',
    range: { from: '5.0.0' },
    source:
      'modeling_rope_utils.py::RotaryEmbeddingConfigMixin.convert_rope_params_to_dict @ v5 (main 008e574); config classes and refusals checked against transformers 5.17.0',
    status: 'reads',
    base: rope.base.value,
    baseFrom: rope.base.key ?? `default rope_theta ${rope.base.value} (not read from the file)`,
    scalingType: type,
    factor: type === 'none' ? null : (numberIn(plain, 'factor') ?? null),
    attentionFactor: af,
    derivedMaxLen: null,
    windows: windowsOf(input),
    rotaryDim: transformers5RotaryDim(rope, rope.rotaryDim).value,
    notes: [],
  };
  // AutoConfig picks the class by the root's model_type (DeepSeek-VL2 wraps a deepseek_v2 text config).
  const classType = view.rootModelType ?? view.modelType;
  if (classType && !knownTo5x(classType)) {
    // No 5.x class: AutoConfig loads it only with trust_remote_code, and the repository's code reads the
    // keys (the model reader follows that code for the families it knows: ChatGLM, Qwen-1, InternLM2…).
    return {
      ...row,
      remoteCode: true,
      notes: [`transformers 5.x has no config class for model_type ${classType}: it loads only with trust_remote_code=True (the repository's own code)`],
    };
  }
  // A refusal keeps the values the file means (the table shows the error; the other rows are still judged against them).
  const error = transformers5Refusal(view, input.text);
  return error ? { ...row, status: 'refuses', error } : row;
}

/**
 * A value as transformers' f-string prints it (an object as its dict, never "[object Object]"),
 * elided past a short length: the file may hold any junk there.
 */
function pyValue(x: unknown): string {
  // transformers prints a string bare (str()); it is quoted here (repr) so that "NaN" reads as the file's text.
  return pyRepr(x, { floatKeys: FLOAT_KEYS });
}

/** The rope_scaling dict as Python prints it, with integral factors as floats (8.0), elided past a short length. */
function pyDict(o: Record<string, unknown>): string {
  return pyRepr(o, { floatKeys: FLOAT_KEYS });
}
