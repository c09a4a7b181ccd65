/**
 * vLLM: the maximum model length it derives from a config, and the `vllm serve` command that runs
 * the model at a context with the config's scaling.
 *
 * Rules read from vllm-project/vllm `vllm/config/model.py::_get_and_verify_max_len` and
 * `vllm/transformers_utils/config.py::patch_rope_parameters`:
 *  - the base length is the SMALLEST of max_position_embeddings, n_positions, max_seq_len,
 *    seq_length, model_max_length, max_target_positions, max_sequence_length, max_seq_length,
 *    seq_len; a `model_max_length` in the config replaces it; none of them → 2048;
 *  - rope scaling (legacy `type` patched to `rope_type`), skipped for gemma3 (already scaled):
 *    su/longrope/llama3 leave it; any other type multiplies by `factor` (default 1), and yarn
 *    first replaces the base by `original_max_position_embeddings`;
 *  - `--max-model-len` above that raises ValueError unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1;
 *  - without `--max-model-len`, longrope models default to original_max_position_embeddings.
 * `--rope-scaling` / `--rope-theta` were removed (vllm PR #28006): scaling goes in `--hf-overrides`.
 */
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, factsOfReading, hasWindows, legacyKeys, modernKeys, servingOf } from './consumer';
import { familyDefaultBase } from '../config/families';
import { knownTo4x } from './transformers';
import {
  ScalingFacts, argNumber, factsOfObject, grouped, isHandAddedType, jsonText, lengthKeys, modelRef, modernScaling,
  overrideAt, extendedScaling, scalingFacts, targetContext,
} from './common';

const LENGTH_KEYS = ['max_position_embeddings', 'n_positions', 'max_seq_len', 'seq_length', 'model_max_length', 'max_target_positions', 'max_sequence_length', 'max_seq_length', 'seq_len'];
const DEFAULT_LEN = 2048;

export const VLLM_LONG_ENV = 'VLLM_ALLOW_LONG_MAX_MODEL_LEN';

/** The unscaled length vLLM starts from, and the key it came from. */
export function vllmBaseLength(input: ServingInput): { value: number; key: string } {
  const keys = lengthKeys(input);
  let best: { value: number; key: string } | undefined;
  for (const k of LENGTH_KEYS) {
    const v = keys[k];
    if (typeof v === 'number' && Number.isFinite(v) && (!best || v < best.value)) best = { value: v, key: k };
  }
  if (typeof keys['model_max_length'] === 'number') best = { value: keys['model_max_length'], key: 'model_max_length' };
  return best ?? { value: DEFAULT_LEN, key: 'default' };
}

/** vLLM's derived max_model_len for the config, or with `facts` in place of its scaling (an override). */
export function vllmDerivedMaxLen(input: ServingInput, facts: ScalingFacts = scalingFacts(input.rope)): number {
  let derived = vllmBaseLength(input).value;
  const gemma3 = (input.rope.modelType ?? '').includes('gemma3');
  if (facts.type !== 'none' && !gemma3 && facts.type !== 'longrope' && facts.type !== 'llama3') {
    const factor = facts.factor ?? 1;
    // transformers v5 standardize_rope_params defaults yarn's original to max_position_embeddings.
    if (facts.type === 'yarn') derived = facts.original ?? input.rope.contextLength.value;
    derived *= factor;
  }
  return Math.floor(derived);
}

/**
 * How vLLM reads a config's RoPE keys (the consumer table). vLLM ≥ 0.24 refuses to start on
 * transformers 4.x (`vllm/transformers_utils/config.py` @ 0036026: "Support for Transformers v4 is
 * deprecated and was removed in vLLM v0.24.0"), so it reads through transformers 5
 * (rope_scaling first, else rope_parameters; rope_theta inside wins), then
 * `patch_rope_parameters_dict` maps a legacy `type` to `rope_type` and `su` to longrope.
 * Earlier releases on transformers 4.x copied the 4.x class default rope_theta over
 * rope_parameters.rope_theta (`patch_rope_parameters`, stored vLLM config.py before the v5 switch).
 */
export function vllmReading(input: ConsumerInput): ConsumerReading {
  const read = modernKeys(input);
  return engineRow(
    // Windows: ModelConfig.get_sliding_window returns hf_config.sliding_window (unless --disable-sliding-window).
    { consumer: 'vllm', label: 'vLLM ≥ 0.24', pkg: 'vllm', range: { from: '0.24.0' }, windows: hasWindows(input) ? 'honoured' : 'n/a', source: 'vllm/transformers_utils/config.py::patch_rope_parameters @ 0036026; vllm/config/model.py::_get_and_verify_max_len, ModelConfig.get_sliding_window' },
    read, vllmDerivedMaxLen(servingOf(input), factsOfReading(input, read.scaling)),
  );
}

/**
 * vLLM before 0.24, on the transformers 4.x it then installed: the config object is 4.x's, so the
 * base is `config.rope_theta` (the class default when the file has only rope_parameters). Releases
 * with `patch_rope_parameters` copy that default over `rope_parameters["rope_theta"]` and keep the
 * dict's scaling (stored vLLM config.py with the "Transformers v4 installed" branch); older ones
 * (`patch_rope_scaling`) read `rope_scaling` only. The scaling cell is left unjudged for a file with
 * rope_parameters, since the two kinds of release differ there.
 */
export function vllmLegacyReading(input: ConsumerInput): ConsumerReading {
  const read = legacyKeys(input, familyDefaultBase(input.view.modelType).value);
  const row = engineRow(
    { consumer: 'vllm-4x', label: 'vLLM < 0.24 (transformers 4.x)', pkg: 'vllm', range: { before: '0.24.0' }, windows: hasWindows(input) ? 'honoured' : 'n/a', source: 'vllm/transformers_utils/config.py::patch_rope_parameters (transformers v4 branch) and ::patch_rope_scaling' },
    read, vllmDerivedMaxLen(servingOf(input), factsOfReading(input, read.scaling)),
  );
  if (!knownTo4x(input.view.modelType)) return { ...row, status: 'cannot-load', base: null, scalingType: null, factor: null, notes: [`no transformers 4.x config class for model_type ${input.view.modelType ?? '(none)'}`] };
  if (!input.view.ropeParameters) return row;
  return { ...row, scalingType: null, factor: null, notes: ['rope_parameters is not read for the base (transformers 4.x\'s class default wins); releases with patch_rope_parameters keep its scaling, older ones ignore it'] };
}

export function vllmPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const derivedMaxLen = vllmDerivedMaxLen(input, facts);
  const notes: string[] = [];
  let scaling: Record<string, unknown> | undefined;
  if (isHandAddedType(facts.type)) {
    scaling = modernScaling(facts.params);
    notes.push(`--hf-overrides repeats the config's ${facts.type} scaling so a hub copy without it (or a stock config.json) runs the same; vLLM removed --rope-scaling (PR #28006).`);
  } else if (facts.type === 'none') {
    scaling = extendedScaling(facts, input.trainedContext, context);
    if (scaling) notes.push(`The config has no RoPE scaling and ${grouped(context)} is beyond its trained context of ${grouped(input.trainedContext)}: the override adds YaRN factor ${argNumber(context / input.trainedContext)} (the preferred fix; static YaRN costs some quality on short inputs).`);
  } else if (facts.type === 'llama3' || facts.type === 'longrope') {
    notes.push(`${facts.type} scaling is read from the model's config.json; vLLM's derived length is max_position_embeddings (it does not multiply by factor for ${facts.type}).`);
    if (facts.type === 'longrope') notes.push(`Without --max-model-len vLLM serves longrope models at original_max_position_embeddings (${grouped(facts.original ?? input.trainedContext)}), so the flag is needed for the long context.`);
  } else {
    notes.push(`RoPE type '${facts.rawType}' is not one vLLM derives a length for; the command sets only --max-model-len.`);
  }
  const overrides = scaling ? overrideAt(facts.keyPath, scaling) : null;
  const after = scaling ? vllmDerivedMaxLen(input, factsOfObject(input.rope, scaling, facts.keyPath)) : derivedMaxLen;
  const env: Record<string, string> = {};
  if (context > after) {
    env[VLLM_LONG_ENV] = '1';
    notes.push(`${grouped(context)} is above the ${grouped(after)} vLLM derives${scaling ? ' with the override' : ''}: it refuses --max-model-len without ${VLLM_LONG_ENV}=1, and positions past ${grouped(after)} are extrapolated.`);
  }
  const args = ['vllm', 'serve', modelRef(input), '--max-model-len', String(context)];
  if (overrides) args.push('--hf-overrides', jsonText(overrides));
  return { engine: 'vllm', derivedMaxLen, context, args, env, overrides, notes };
}
