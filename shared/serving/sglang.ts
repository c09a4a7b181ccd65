/**
 * SGLang: the context length it derives from a config and the `sglang.launch_server` command.
 *
 * Rules read from sgl-project/sglang `python/sglang/srt/utils/hf_transformers_utils.py::get_context_length`
 * and `python/sglang/srt/configs/model_config.py::_derive_context_length`:
 *  - the length is the FIRST present of max_sequence_length, seq_length, max_seq_len,
 *    model_max_length, max_position_embeddings (2048 when none), on the text config;
 *  - it is multiplied by `rope_scaling.factor` (default 1) unless the scaling object has an
 *    `original_max_position_embeddings` key or `rope_type` is llama3 — so a YaRN config with its
 *    original keeps max_position_embeddings;
 *  - `--context-length` above it raises ValueError unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1;
 *  - config overrides go in `--json-model-override-args` (a JSON object merged into the config).
 */
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, factsOfReading, legacyKeys, servingOf } from './consumer';
import { familyDefaultBase } from '../config/families';
import { knownTo4x } from './transformers';
import {
  ScalingFacts, argNumber, extendedScaling, factsOfObject, grouped, isHandAddedType, jsonText, lengthKeys, modelRef,
  modernScaling, overrideAt, scalingFacts, targetContext,
} from './common';

const LENGTH_KEYS = ['max_sequence_length', 'seq_length', 'max_seq_len', 'model_max_length', 'max_position_embeddings'];
const DEFAULT_LEN = 2048;

export const SGLANG_LONG_ENV = 'SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN';

export function sglangDerivedContext(input: ServingInput, facts: ScalingFacts = scalingFacts(input.rope)): number {
  const keys = lengthKeys(input);
  const key = LENGTH_KEYS.find((k) => typeof keys[k] === 'number');
  const base = key ? keys[key] : DEFAULT_LEN;
  let factor = 1;
  if (facts.type !== 'none') {
    factor = facts.factor ?? 1;
    const t = facts.params['rope_type'];
    if ('original_max_position_embeddings' in facts.params || t === 'llama3') factor = 1;
  }
  return Math.floor(base * factor);
}

/**
 * How SGLang reads a config's RoPE keys (the consumer table): its model files take
 * `getattr(config, "rope_theta", 10000)` and `getattr(config, "rope_scaling", None)`
 * (`python/sglang/srt/models/llama.py::LlamaDecoderLayer.__init__` @ 0023954, 2025, on the
 * transformers 4.x it pins), so rope_parameters is not read and the base is the 4.x class default.
 */
export function sglangReading(input: ConsumerInput): ConsumerReading {
  const row = sglangReadingOf(input);
  // It loads configs through transformers 4.x classes: a type 4.x does not know does not load at all.
  return knownTo4x(input.view.modelType) ? row : { ...row, status: 'cannot-load', base: null, scalingType: null, factor: null, notes: [`no transformers 4.x config class for model_type ${input.view.modelType ?? '(none)'}`] };
}

function sglangReadingOf(input: ConsumerInput): ConsumerReading {
  const read = legacyKeys(input, familyDefaultBase(input.view.modelType).value);
  return engineRow(
    { consumer: 'sglang', label: 'SGLang (2025, transformers 4.x)', pkg: 'sglang', source: 'python/sglang/srt/models/llama.py::LlamaDecoderLayer.__init__ @ 0023954; hf_transformers_utils.py::get_context_length' },
    read, sglangDerivedContext(servingOf(input), factsOfReading(input, read.scaling)),
    input.view.ropeParameters ? ['rope_parameters is not read (getattr rope_theta / rope_scaling)'] : [],
  );
}

export function sglangPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const derivedMaxLen = sglangDerivedContext(input, facts);
  const notes: string[] = [];
  let scaling: Record<string, unknown> | undefined;
  if (isHandAddedType(facts.type)) {
    scaling = modernScaling(facts.params);
    notes.push(`--json-model-override-args repeats the config's ${facts.type} scaling, so a stock config.json runs the same.`);
  } else if (facts.type === 'none') {
    scaling = extendedScaling(facts, input.trainedContext, context);
    if (scaling) notes.push(`The config has no RoPE scaling and ${grouped(context)} is beyond its trained context of ${grouped(input.trainedContext)}: the override adds YaRN factor ${argNumber(context / input.trainedContext)} (the preferred fix).`);
  } else if (facts.type === 'llama3' || facts.type === 'longrope') {
    notes.push(`${facts.type} scaling is read from the model's config.json.`);
  } else {
    notes.push(`RoPE type '${facts.rawType}' is passed through from config.json; SGLang's length rule ignores it.`);
  }
  const overrides = scaling ? overrideAt(facts.keyPath, scaling) : null;
  const after = scaling ? sglangDerivedContext(input, factsOfObject(input.rope, scaling, facts.keyPath)) : derivedMaxLen;
  const env: Record<string, string> = {};
  if (context > after) {
    env[SGLANG_LONG_ENV] = '1';
    const why = scaling && 'original_max_position_embeddings' in scaling
      ? ' (SGLang ignores factor when the scaling has original_max_position_embeddings, so a YaRN model keeps max_position_embeddings)'
      : '';
    notes.push(`${grouped(context)} is above the ${grouped(after)} SGLang derives${why}: it refuses --context-length without ${SGLANG_LONG_ENV}=1.`);
  }
  const args = ['python3', '-m', 'sglang.launch_server', '--model-path', modelRef(input), '--context-length', String(context)];
  if (overrides) args.push('--json-model-override-args', jsonText(overrides));
  return { engine: 'sglang', derivedMaxLen, context, args, env, overrides, notes };
}
