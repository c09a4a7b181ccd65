/**
 * axolotl from the command line: `axolotl train cfg.yml [--key value …]` and
 * `python|accelerate launch -m axolotl.cli.train cfg.yml [--key value …]`.
 *  - `axolotl train` is a click command (src/axolotl/cli/main.py::train) whose config options are
 *    generated from the config schema with hyphens (cli/utils/args.py::add_options_from_config:
 *    `--sequence-len`, `--base-model`); it ignores unknown options and hands them to the launcher
 *    (`ignore_unknown_options`, `launcher_args = ctx.args`), so `--sequence_len` never reaches the config.
 *  - `axolotl.cli.train` runs `fire.Fire(do_cli)` (src/axolotl/cli/train.py): `--sequence_len` and
 *    `--sequence-len`, `--k v` and `--k=v` all become keyword overrides.
 * Either way the overrides go through cli/config.py::load_cfg over the YAML. RoPE settings live
 * under `overrides_of_model_config`, a mapping no command-line option can carry, so fixes that
 * add scaling belong in the YAML (said in the finding).
 */
import type { Invocation } from '../../../launch/types';
import type { LineIndex } from '../../../document/positions';
import type { TrainingConfig } from '../../training';
import { lastOf, normalized, readOptions } from './argv';
import { LaunchDocBuilder } from './launchDoc';
import type { Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { emptyRequest, numberOption, optionUse, setLength, stringOption } from './common';

/** Options of `axolotl train` itself, not config overrides. */
const OWN_OPTIONS = new Set(['launcher', 'cloud']);

export function readAxolotlLaunch(l: Launched, inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  const click = l.entry.value === 'train';
  const dashDash = l.args.findIndex((a) => a.value === '--');
  const args = dashDash >= 0 ? l.args.slice(0, dashDash) : l.args;
  const { options, positionals } = readOptions(args);
  const configFile = positionals.find((p) => /\.(ya?ml|json)$/i.test(p.value)) ?? positionals[0];
  const request = emptyRequest('axolotl', inv);
  // click only knows the hyphenated spelling; fire knows both.
  const usable = options.filter((o) => {
    if (OWN_OPTIONS.has(normalized(o.name))) return false;
    if (click && o.name.includes('_')) {
      request.problems.push({
        token: o.flag,
        kind: 'misspelled',
        severity: 'warning',
        replacement: `--${o.name.replace(/_/g, '-')}`,
        message: `\`axolotl train\` ignores --${o.name}: ${normalized(o.name)} stays as ${configFile?.value ?? 'the config'} sets it. It spells the option --${o.name.replace(/_/g, '-')}; click passes the unknown one on to the launcher.`,
      });
      return false;
    }
    return true;
  });
  const b = new LaunchDocBuilder(lines, inv);
  const modelOpt = lastOf(usable, 'base_model');
  const model = stringOption(b, 'base_model', modelOpt);
  const lengthOpt = lastOf(usable, 'sequence_len');
  const length = numberOption(b, 'sequence_len', lengthOpt);
  const t: TrainingConfig = {
    tool: 'axolotl',
    baseModelCandidates: [],
    overrides: {},
    trains: true,
    overridePath: ['overrides_of_model_config'],
    baseKeyPath: ['overrides_of_model_config', 'rope_theta'],
    scalingKeyPath: ['overrides_of_model_config', 'rope_scaling'],
  };
  if (model && modelOpt) {
    t.baseModel = model;
    request.model = modelOpt.value;
  }
  if (length) t.sequenceLength = length;
  setLength(request, 'sequence_len', lengthOpt, length?.value);
  const cfgOpt = lastOf(usable, 'base_model_config');
  const cfg = stringOption(b, 'base_model_config', cfgOpt);
  if (cfg) t.baseModelCandidates.push(cfg.value);
  const scalingOpt = lastOf(usable, 'rope_scaling');
  if (scalingOpt) {
    // The deprecated top-level key, refused by axolotl's schema (trainerSpecific's finding).
    t.deprecatedScaling = b.add('rope_scaling', scalingOpt, true);
    request.rope['rope_scaling'] = optionUse('rope_scaling', scalingOpt);
  }
  const cfgName = configFile?.value ?? 'the YAML config';
  if (configFile) {
    request.notes.push(`${cfgName} is judged on its own when opened; this command's options override it.`);
    if (!model) request.notes.push(`base_model comes from ${cfgName}.`);
    if (!length) request.notes.push(`sequence_len comes from ${cfgName}.`);
  }
  const spell = (key: string) => `--${click ? key.replace(/_/g, '-') : key}`;
  return {
    program: 'axolotl',
    invocation: inv,
    training: t,
    doc: b.doc(),
    options: b.options,
    request,
    configFile,
    fixElsewhere: `RoPE scaling and rope_theta go under overrides_of_model_config in ${cfgName}: axolotl's command line cannot set that mapping.`,
    writer: {
      jsonKeys: [],
      write: (key, value) => (key.startsWith('overrides_of_model_config') ? undefined : [spell(key), value]),
    },
  };
}
