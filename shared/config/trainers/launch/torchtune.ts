/**
 * `tune run [torchrun options] <recipe> --config <cfg> key=value …` (torchtune): the recipe's
 * config/_parse.py::parse reads `--config` with TuneRecipeArgumentParser (its `--config` option and
 * `tune run`'s torchrun options before the recipe are from torchtune's docs, not re-read this round)
 * and merges the rest as an
 * OmegaConf dotlist (config/_utils.py::_merge_yaml_and_cli_args): `tokenizer.max_seq_len=8192`,
 * `model=torchtune.models.…` (short for `model._component_=…`), `checkpointer.checkpoint_dir=…`,
 * `~key` to delete. Keys as the YAML reader (config/trainers/torchtune.ts) reads them; builders fix
 * RoPE in code, so the command offers no place to write scaling.
 */
import type { Invocation } from '../../../launch/types';
import type { LineIndex } from '../../../document/positions';
import type { TrainingConfig } from '../../training';
import { torchtuneBuilderHubId, torchtuneConfigHubId } from '../torchtune';
import { lastOf, readOptions } from './argv';
import { LaunchDocBuilder } from './launchDoc';
import type { Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { emptyRequest, numberOption, setLength, stringOption } from './common';

export function readTorchtuneLaunch(l: Launched, inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  const { options } = readOptions(l.args, { dotlist: true });
  const cfgOpt = lastOf(options, 'config');
  const configFile = cfgOpt?.form !== 'key=value' ? cfgOpt?.value : undefined;
  const over = options.filter((o) => o.form === 'key=value');
  const b = new LaunchDocBuilder(lines, inv);
  const request = emptyRequest('torchtune', inv);
  const t: TrainingConfig = { tool: 'torchtune', baseModelCandidates: [], overrides: {}, trains: true };
  const lengthKey = ['tokenizer.max_seq_len', 'dataset.max_seq_len', 'max_seq_len'].find((k) => lastOf(over, k));
  const lengthOpt = lengthKey ? lastOf(over, lengthKey) : undefined;
  const length = lengthKey ? numberOption(b, lengthKey, lengthOpt) : undefined;
  if (length) t.sequenceLength = length;
  setLength(request, lengthKey ?? 'max_seq_len', lengthOpt, length?.value);
  const ckptOpt = lastOf(over, 'checkpointer.checkpoint_dir');
  const ckpt = stringOption(b, 'checkpointer.checkpoint_dir', ckptOpt);
  const builderKey = lastOf(over, 'model._component_') ? 'model._component_' : 'model';
  const builderOpt = lastOf(over, builderKey);
  const builder = stringOption(b, builderKey, builderOpt);
  if (ckpt) {
    t.baseModel = ckpt;
    t.baseModelCandidates.push(ckpt.value);
    request.model = ckptOpt!.value;
  }
  if (builder) {
    t.baseModel ??= builder;
    request.model ??= builderOpt!.value;
    const hub = torchtuneBuilderHubId(builder.value);
    if (hub) t.baseModelCandidates.push(hub);
    // Generic builders take the RoPE arguments explicitly.
    const base = numberOption(b, 'model.rope_base', lastOf(over, 'model.rope_base'));
    if (base) t.overrides.base = base;
    const ctx = numberOption(b, 'model.max_seq_len', lastOf(over, 'model.max_seq_len'));
    if (ctx) t.overrides.contextLength = ctx;
  }
  const cfgName = configFile?.value ?? 'the recipe config';
  // A built-in config's builder fixes the model's RoPE in code: its name says which model, unless the command replaces the builder.
  const builtIn = configFile && !builder ? torchtuneConfigHubId(configFile.value) : undefined;
  if (builtIn && cfgOpt) {
    t.baseModelCandidates.push(builtIn);
    t.baseModel ??= stringOption(b, 'config', cfgOpt);
    request.notes.push(`${cfgName} is torchtune's built-in config for ${builtIn} (the model its tune download line fetches): judged as that model.`);
  } else if (configFile) {
    request.notes.push(`${cfgName} is judged on its own when opened (a built-in config name is not read); this command's key=value overrides it.`);
    if (!t.baseModel) request.notes.push(`The model and checkpoint come from ${cfgName}.`);
  }
  if (configFile && !length) request.notes.push(`tokenizer.max_seq_len comes from ${cfgName}.`);
  return {
    program: 'torchtune',
    invocation: inv,
    training: t,
    doc: b.doc(),
    options: b.options,
    request,
    configFile,
    fixElsewhere: "torchtune's model builders set RoPE in code: scaling cannot be added from this command.",
    writer: { jsonKeys: [], write: (key, value) => [`${key}=${value}`] },
  };
}
