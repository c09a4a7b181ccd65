/**
 * Text Generation Inference: the length its launcher reads from a config, and the launcher command.
 *
 * Rules read from huggingface/text-generation-inference:
 *  - `launcher/src/main.rs`: the launcher's length is max_position_embeddings, else max_seq_len,
 *    else n_positions, with no RoPE factor applied; `--max-input-tokens` must be below
 *    `--max-total-tokens`; `--rope-scaling` takes only `linear` or `dynamic` (with `--rope-factor`),
 *    passed to the shards as ROPE_SCALING/ROPE_FACTOR.
 *  - `server/text_generation_server/layers/rotary.py` (PositionRotaryEmbedding.static): the server
 *    reads rope_scaling from config.json itself: linear, dynamic, yarn (beta_fast 32, beta_slow 1
 *    and attn_factor 1 fixed, whatever the config says), su/longrope, llama3.
 */
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, legacyKeys, servingOf } from './consumer';
import { familyDefaultBase } from '../config/families';
import { knownTo4x } from './transformers';
import { argNumber, grouped, lengthKeys, modelRef, scalingFacts, targetContext } from './common';

const LENGTH_KEYS = ['max_position_embeddings', 'max_seq_len', 'n_positions'];

export function tgiDerivedMaxLen(input: ServingInput): number {
  const keys = lengthKeys(input);
  const key = LENGTH_KEYS.find((k) => typeof keys[k] === 'number');
  return key ? keys[key] : input.rope.contextLength.value;
}

/**
 * How TGI reads a config's RoPE keys (the consumer table): `layers/rotary.py::_get_rope_config`
 * returns `getattr(config, "rope_scaling", None)` (or ROPE_SCALING/ROPE_FACTOR from the launcher),
 * and the base is `config.rope_theta` of the transformers 4.x config it loads: rope_parameters is
 * not read.
 */
export function tgiReading(input: ConsumerInput): ConsumerReading {
  const row = tgiReadingOf(input);
  // It loads configs through transformers 4.x classes: a type 4.x does not know does not load at all.
  return knownTo4x(input.view.modelType) ? row : { ...row, status: 'cannot-load', base: null, scalingType: null, factor: null, notes: [`no transformers 4.x config class for model_type ${input.view.modelType ?? '(none)'}`] };
}

function tgiReadingOf(input: ConsumerInput): ConsumerReading {
  const read = legacyKeys(input, familyDefaultBase(input.view.modelType).value);
  return engineRow(
    { consumer: 'tgi', label: 'TGI', pkg: 'tgi', source: 'server/text_generation_server/layers/rotary.py::_get_rope_config; launcher/src/main.rs' },
    read, tgiDerivedMaxLen(servingOf(input)),
    input.view.ropeParameters ? ['rope_parameters is not read (config.rope_scaling only)'] : [],
  );
}

export function tgiPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const derivedMaxLen = tgiDerivedMaxLen(input);
  const notes: string[] = [];
  const flags: string[] = [];
  let extended = facts.type !== 'none';
  switch (facts.type) {
    case 'linear':
    case 'dynamic':
      if (facts.factor !== undefined) flags.push('--rope-scaling', facts.type, '--rope-factor', argNumber(facts.factor));
      break;
    case 'yarn': {
      notes.push('TGI reads YaRN from config.json (its CLI sets only linear or dynamic): the model\'s config.json must carry this rope_scaling.');
      const bf = facts.params['beta_fast'], bs = facts.params['beta_slow'];
      if ((typeof bf === 'number' && bf !== 32) || (typeof bs === 'number' && bs !== 1) || facts.params['attention_factor'] !== undefined) {
        notes.push('TGI\'s YaRN fixes beta_fast 32, beta_slow 1 and attn_factor 1: the config\'s other values are ignored.');
      }
      break;
    }
    case 'llama3':
    case 'longrope':
      notes.push(`${facts.type} scaling is read from config.json by TGI's rotary layer.`);
      break;
    case 'none':
      if (context > input.trainedContext) {
        const s = context / input.trainedContext;
        flags.push('--rope-scaling', 'dynamic', '--rope-factor', argNumber(s));
        extended = true;
        notes.push(`The config has no RoPE scaling and ${grouped(context)} is beyond its trained context of ${grouped(input.trainedContext)}. TGI's CLI cannot set YaRN (the preferred fix; add it to config.json instead): dynamic NTK factor ${argNumber(s)} is the closest flag.`);
      }
      break;
    default:
      notes.push(`TGI raises NotImplementedError for RoPE type '${facts.rawType}'.`);
  }
  if (context > derivedMaxLen) {
    notes.push(`${grouped(context)} is above the ${grouped(derivedMaxLen)} TGI's launcher reads from max_position_embeddings; the launcher does not check it${extended ? '' : ', and positions past it are extrapolated'}.`);
  }
  const args = ['text-generation-launcher', '--model-id', modelRef(input), '--max-input-tokens', String(Math.max(1, context - 1)), '--max-total-tokens', String(context), ...flags];
  return { engine: 'tgi', derivedMaxLen, context, args, env: {}, overrides: null, notes };
}
