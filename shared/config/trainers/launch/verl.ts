/**
 * verl's trainers, configured by Hydra overrides (`key=value`, `+key=value` to add a key):
 *   `python3 -m verl.trainer.main_ppo` (PPO, GRPO, DAPO…): the model is `actor_rollout_ref.model.path`;
 *   each trained sequence is a prompt and a response, `data.max_prompt_length` + `data.max_response_length`
 *   (512 each in verl's ppo_trainer.yaml when not given);
 *   `torchrun -m verl.trainer.fsdp_sft_trainer`: the model is `model.partial_pretrain`, the length `data.max_length`
 *   (1,024 by default in sft_trainer.yaml).
 * RoPE scaling is written into the model's config by `actor_rollout_ref.model.override_config.rope_scaling.*`
 * (`model.override_config.rope_scaling.*` for SFT), as verl's "RoPE Scaling override" page shows. Fixes are not
 * written here (the critic takes its own override): the finding names the keys.
 */
import type { Invocation, Token } from '../../../launch/types';
import type { LineIndex } from '../../../document/positions';
import type { Located, ScalingDescription } from '../../modelRope';
import type { TrainingConfig } from '../../training';
import { ROPE_TYPES, type RopeType } from '../../../rope/spec';
import { type ArgOption, afterEquals, lastOf } from './argv';
import { LaunchDocBuilder } from './launchDoc';
import type { Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { emptyRequest, numberOption, optionUse, stringOption } from './common';

/** The verl modules read here, with each one's keys. */
const VERL: Record<string, { model: string; lengths: [string, number][]; scaling: string }> = {
  'verl.trainer.main_ppo': {
    model: 'actor_rollout_ref.model.path',
    lengths: [
      ['data.max_prompt_length', 512],
      ['data.max_response_length', 512],
    ],
    scaling: 'actor_rollout_ref.model.override_config.rope_scaling',
  },
  'verl.trainer.fsdp_sft_trainer': { model: 'model.partial_pretrain', lengths: [['data.max_length', 1024]], scaling: 'model.override_config.rope_scaling' },
};

export const VERL_MODULES: readonly string[] = Object.keys(VERL);

/** A Hydra override (`a.b=c`, `+a.b=c`, `++a.b=c`). */
const OVERRIDE = /^\+{0,2}([A-Za-z_][\w.]*)=/;

/** Hydra overrides as options, the `+` prefixes dropped from their names. */
function overridesOf(args: Token[]): ArgOption[] {
  const out: ArgOption[] = [];
  for (const tok of args) {
    const m = OVERRIDE.exec(tok.value);
    if (!m) continue;
    const part = afterEquals(tok);
    out.push({ name: m[1], flag: tok, value: tok, text: part.text, valueOffset: part.offset, valueLength: part.length, form: 'key=value' });
  }
  return out;
}

export function readVerlLaunch(l: Launched, inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  const spec = VERL[l.entry.value];
  if (!spec) return undefined;
  const options = overridesOf(l.args);
  const b = new LaunchDocBuilder(lines, inv);
  const request = emptyRequest('verl', inv);
  const t: TrainingConfig = { tool: 'verl', baseModelCandidates: [], overrides: {}, trains: true };
  const modelOpt = lastOf(options, spec.model);
  const model = stringOption(b, spec.model, modelOpt);
  if (model) {
    t.baseModel = model;
    t.baseModelCandidates.push(model.value);
    request.model = modelOpt!.value;
  }
  // The trained length: the sum of the parts, each written or verl's default; the finding sits on the last one written.
  let total = 0;
  let anchor: Located<number> | undefined;
  const parts: string[] = [];
  for (const [key, dflt] of spec.lengths) {
    const o = lastOf(options, key);
    const v = numberOption(b, key, o);
    total += v?.value ?? dflt;
    parts.push(v ? `${key} ${v.value}` : `${key} ${dflt} (verl's default)`);
    if (v) anchor = v;
  }
  if (anchor) {
    t.sequenceLength = { value: total, node: anchor.node, key: anchor.key, note: parts.join(' + ') };
    request.length = { value: total, option: optionUse(anchor.key ?? spec.lengths[0][0], lastOf(options, anchor.key ?? '')!) };
    if (spec.lengths.length > 1) request.notes.push(`verl trains on prompt and response together: ${parts.join(' + ')} = ${total}.`);
  }
  const scaling = readScaling(b, options, spec.scaling);
  if (scaling) {
    t.overrides.scaling = scaling;
    request.rope['rope_scaling'] = optionUse(spec.scaling, lastOf(options, `${spec.scaling}.factor`) ?? lastOf(options, `${spec.scaling}.type`)!);
  }
  return {
    program: 'verl',
    invocation: inv,
    training: t,
    doc: b.doc(),
    options: b.options,
    request,
    fixElsewhere: `verl writes RoPE scaling into the model's config with +${spec.scaling}.type=…, .factor=… and .original_max_position_embeddings=… (and the same under critic.model for a critic).`,
    writer: { jsonKeys: [], write: () => undefined },
  };
}

/** `….rope_scaling.type|rope_type`, `.factor`, `.original_max_position_embeddings` read as one scaling object. */
function readScaling(b: LaunchDocBuilder, options: ArgOption[], prefix: string): ScalingDescription | undefined {
  const typeOpt = lastOf(options, `${prefix}.rope_type`) ?? lastOf(options, `${prefix}.type`);
  const factor = numberOption(b, `${prefix}.factor`, lastOf(options, `${prefix}.factor`));
  if (!typeOpt && !factor) return undefined;
  const raw = typeOpt ? stringOption(b, typeOpt.name, typeOpt) : undefined;
  const type = ROPE_TYPES.find((r) => r === raw?.value) as RopeType | undefined;
  const params: Record<string, Located<unknown>> = {};
  if (raw) params[typeOpt!.name.endsWith('rope_type') ? 'rope_type' : 'type'] = raw;
  if (factor) params['factor'] = factor;
  const original = numberOption(b, `${prefix}.original_max_position_embeddings`, lastOf(options, `${prefix}.original_max_position_embeddings`));
  if (original) params['original_max_position_embeddings'] = original;
  return { key: prefix, type, rawType: raw, params };
}
