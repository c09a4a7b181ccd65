/**
 * `llamafactory-cli train …` (also `lmf train`, `src/train.py`, `-m llamafactory.launcher`), read
 * as LLaMA-Factory reads it (hparams/parser.py::read_args): when the first argument ends in
 * .yaml/.yml/.json, the file is loaded and the rest is an OmegaConf dotlist merged over it
 * (`OmegaConf.from_cli(sys.argv[2:])`: `cutoff_len=32768`); otherwise every argument goes to
 * HfArgumentParser (`--cutoff_len 32768`, `--cutoff-len=32768`; a bare `--do_train` is True).
 * Keys: model_name_or_path, cutoff_len (default 2048), rope_scaling (the RopeScaling enum, by name:
 * LLaMA-Factory derives factor and original length), do_train, stage — the same as the YAML reader
 * (config/trainers/llamaFactory.ts), whose constants this module uses.
 */
import type { Invocation } from '../../../launch/types';
import type { LineIndex } from '../../../document/positions';
import type { TrainingConfig } from '../../training';
import { LLAMA_FACTORY_DEFAULT_CUTOFF } from '../llamaFactory';
import { ArgOption, lastOf, normalized, readOptions, truthy } from './argv';
import type { GrammarProblem } from '../../../launch/request';
import { LaunchDocBuilder } from './launchDoc';
import type { Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { emptyRequest, numberOption, optionUse, setLength, stringOption } from './common';

export function readLlamaFactoryLaunch(l: Launched, inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  const first = l.args[0];
  const configFile = first && /\.(ya?ml|json)$/i.test(first.value) ? first : undefined;
  const { options } = readOptions(configFile ? l.args.slice(1) : l.args, { dotlist: true });
  // After a config file only `key=value` is read by OmegaConf; without one, only `--key value`.
  const usable = options.filter((o) => (configFile ? o.form === 'key=value' : o.form !== 'key=value'));
  const b = new LaunchDocBuilder(lines, inv);
  const request = emptyRequest('llamafactory', inv);
  for (const o of options.filter((x) => !usable.includes(x))) request.problems.push(wrongForm(o, lines, !!configFile));
  const modelOpt = lastOf(usable, 'model_name_or_path');
  const model = stringOption(b, 'model_name_or_path', modelOpt);
  const cutoffOpt = lastOf(usable, 'cutoff_len');
  const cutoff = numberOption(b, 'cutoff_len', cutoffOpt);
  const t: TrainingConfig = {
    tool: 'llama-factory',
    baseModelCandidates: [],
    overrides: {},
    scalingKeyPath: ['rope_scaling'],
    trains: true,
  };
  if (model) {
    t.baseModel = model;
    request.model = modelOpt!.value;
  }
  if (cutoff) t.sequenceLength = cutoff;
  else if (!configFile) t.sequenceLength = { value: LLAMA_FACTORY_DEFAULT_CUTOFF, note: 'cutoff_len absent: LLaMA-Factory default 2048' };
  setLength(request, 'cutoff_len', cutoffOpt, cutoff?.value);
  const scalingOpt = lastOf(usable, 'rope_scaling');
  const scaling = stringOption(b, 'rope_scaling', scalingOpt);
  if (scaling && scalingOpt) {
    t.scalingByName = scaling;
    request.rope['rope_scaling'] = optionUse('rope_scaling', scalingOpt);
  }
  const doTrain = lastOf(usable, 'do_train');
  const stage = lastOf(usable, 'stage');
  // As the YAML reader: do_train decides, else a stage means a training run; a YAML may hold either.
  t.trains = doTrain ? truthy(doTrain) === true : !!stage || !!configFile;
  if (configFile) {
    request.notes.push(`${configFile.value} is judged on its own when opened; this command's key=value overrides it.`);
    if (!model) request.notes.push(`model_name_or_path comes from ${configFile.value}.`);
    if (!cutoff) request.notes.push(`cutoff_len comes from ${configFile.value}.`);
  }
  return {
    program: 'llamafactory',
    invocation: inv,
    training: t,
    doc: b.doc(),
    options: b.options,
    request,
    configFile,
    writer: {
      jsonKeys: [],
      write: (key, value) => (configFile ? [`${key}=${value}`] : [`--${key}`, value]),
    },
  };
}

/**
 * An option in the form the other parser would read. After a YAML, OmegaConf's merge_with_dotlist
 * makes `--cutoff_len` and `32768` keys of their own (value None) and parse_dict refuses them ("Some
 * keys are not used by the HfArgumentParser"); without a YAML, HfArgumentParser refuses a bare
 * `cutoff_len=32768` ("Some specified arguments are not used by the HfArgumentParser"). The
 * replacement spans the whole option (flag and value).
 */
function wrongForm(o: ArgOption, lines: LineIndex, afterYaml: boolean): GrammarProblem {
  const last = o.value ?? o.flag;
  const offset = o.flag.offset,
    length = last.offset + last.length - offset;
  const raw = lines.text.slice(offset, offset + length);
  const token = { ...o.flag, value: raw, raw, offset, length, range: lines.rangeOf(offset, length) };
  const key = normalized(o.name);
  const replacement = afterYaml ? `${key}=${o.form === 'flag' ? 'true' : (o.text ?? '')}` : `--${key} ${o.text ?? ''}`;
  const message = afterYaml
    ? `LLaMA-Factory refuses ${raw} after a config file: it reads only key=value overrides there. OmegaConf.from_cli makes ${raw} keys of their own and HfArgumentParser refuses them ("Some keys are not used by the HfArgumentParser").`
    : `LLaMA-Factory refuses ${raw}: write --${key}. Without a config file it passes the arguments to HfArgumentParser ("Some specified arguments are not used by the HfArgumentParser").`;
  return {
    token,
    kind: 'bad-value',
    severity: 'error',
    message,
    replacement: /^[\w@%+=:,./-]+( [\w@%+=:,./-]+)?$/.test(replacement) ? replacement : undefined,
  };
}
