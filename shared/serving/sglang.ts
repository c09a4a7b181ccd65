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
import {
  ScalingFacts, argNumber, extendedScaling, extensionFrom, factsOfObject, grouped, isHandAddedType, jsonText, lengthKeys, modelRef,
  modernScaling, overrideAt, reachNotes, scalingFacts, staticYarnNote, targetContext,
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
    const from = extensionFrom(input, facts, context);
    scaling = extendedScaling(facts, from, context);
    if (scaling) notes.push(`The config has no RoPE scaling and ${grouped(context)} is beyond the ${grouped(from!)} it was trained to: the override adds YaRN factor ${argNumber(context / from!)} (the preferred fix).`);
  } else if (facts.type === 'llama3' || facts.type === 'longrope') {
    notes.push(`${facts.type} scaling is read from the model's config.json.`);
  } else {
    notes.push(`RoPE type '${facts.rawType}' is passed through from config.json; SGLang's length rule ignores it.`);
  }
  const yarn = staticYarnNote(facts, input.trainedContext, context, 'SGLang');
  if (yarn) notes.push(yarn);
  notes.push(...reachNotes(input, facts, context, 'SGLang', derivedMaxLen));
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
