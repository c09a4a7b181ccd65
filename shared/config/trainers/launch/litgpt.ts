/**
 * `litgpt pretrain|finetune|finetune_lora|finetune_full|finetune_adapter|finetune_adapter_v2 <model> …`
 * (LitGPT's CLI, jsonargparse): the first positional is the model — `model_name` for pretrain (a LitGPT
 * config name or a hub id), `checkpoint_dir` for the fine-tune commands (`checkpoints/<org>/<name>` or a
 * hub id) — or the same as `--model_name` / `--checkpoint_dir`; the length is `--train.max_seq_length`
 * (unset: the model's block_size); `--initial_checkpoint_dir` makes a pretrain continue from weights;
 * `--config` names a YAML judged on its own. The same keys as the YAML reader (config/trainers/litgpt.ts).
 */
import type { Invocation, Token } from '../../../launch/types';
import type { LineIndex } from '../../../document/positions';
import type { TrainingConfig } from '../../training';
import { builtinRope } from '../litgpt';
import { litGptBuiltin } from '../litgptBuiltins';
import { type ArgOption, lastOf, readOptions } from './argv';
import { LaunchDocBuilder } from './launchDoc';
import type { Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { emptyRequest, numberOption, setLength, stringOption } from './common';

/** LitGPT's training subcommands (litgpt/__main__.py). */
export const LITGPT_COMMANDS: readonly string[] = ['pretrain', 'finetune', 'finetune_lora', 'finetune_full', 'finetune_adapter', 'finetune_adapter_v2'];

/** A positional read as the option it stands for (jsonargparse maps the first positional to the model). */
function positional(name: string, tok: Token): ArgOption {
  return { name, flag: tok, value: tok, text: tok.value, valueOffset: tok.offset, valueLength: tok.length, form: 'flag-value' };
}

export function readLitGptLaunch(l: Launched, inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  const { options, positionals } = readOptions(l.args);
  const pretrain = l.entry.value === 'pretrain';
  const modelKey = pretrain ? 'model_name' : 'checkpoint_dir';
  const b = new LaunchDocBuilder(lines, inv);
  const request = emptyRequest('litgpt', inv);
  const t: TrainingConfig = { tool: 'litgpt', baseModelCandidates: [], overrides: {}, trains: true };
  const lengthOpt = lastOf(options, 'train.max_seq_length');
  const length = numberOption(b, 'train.max_seq_length', lengthOpt);
  if (length) t.sequenceLength = length;
  setLength(request, 'train.max_seq_length', lengthOpt, length?.value);
  const initial = stringOption(b, 'initial_checkpoint_dir', lastOf(options, 'initial_checkpoint_dir'));
  if (initial) t.continuesFrom = initial;
  const modelOpt = lastOf(options, modelKey) ?? (positionals[0] ? positional(modelKey, positionals[0]) : undefined);
  const model = stringOption(b, modelKey, modelOpt);
  if (model) {
    request.model = modelOpt!.value;
    const builtin = pretrain && !initial ? litGptBuiltin(model.value) : undefined;
    // A built-in architecture pretrained from scratch is the model this run defines (its base is chosen).
    if (builtin) t.ownModel = builtinRope(model, builtin);
    else {
      t.baseModel = model;
      t.baseModelCandidates.push(model.value.replace(/^(\.\/)?checkpoints\//, ''));
    }
  }
  const configFile = lastOf(options, 'config')?.value;
  if (configFile) {
    request.notes.push(`${configFile.value} is judged on its own when opened; this command's options override it.`);
    if (!model) request.notes.push(`The model comes from ${configFile.value}.`);
  }
  if (!length) request.notes.push("No --train.max_seq_length: LitGPT trains at the model's block_size (its own context), so no extension is asked here.");
  return {
    program: 'litgpt',
    invocation: inv,
    training: t,
    doc: b.doc(),
    options: b.options,
    request,
    configFile,
    fixElsewhere: "LitGPT sets RoPE in the model's config (model_config.rope_base, rope_adjustments): scaling cannot be added from this command.",
    writer: { jsonKeys: [], write: (key, value) => [`--${key}`, value] },
  };
}
