/**
 * Which trainer an invocation starts, once launchers are peeled: `accelerate launch`, `torchrun`,
 * `python -m torch.distributed.run`, `deepspeed` and `python` skip their own options to find the
 * script (or module) and its arguments. Launcher options that take no value are listed, so
 * `--multi_gpu train.py` does not read `train.py` as the value of `--multi_gpu`. These lists are
 * from the launchers' documented store_true options and were NOT checked against their sources in
 * this round (accelerate/commands/launch.py::launch_command_parser, torch/distributed/run.py::
 * get_args_parser, deepspeed/launcher/runner.py::parse_args): a boolean missing here makes the
 * script look like that flag's value, and the launch is then usually not read at all.
 *   python: the interpreter's own switches (-u, -O, -B, …; -W/-X take a value; -m, -c).
 * Trainer entry points:
 *   llamafactory-cli / lmf train (LLaMA-Factory setup.py::get_console_scripts → llamafactory.cli:main),
 *   its src/train.py and llamafactory/launcher.py (what the CLI hands to torchrun);
 *   swift sft|pt|rlhf (ms-swift swift/cli/main.py::ROUTE_MAPPING → swift/cli/sft.py, pt.py, rlhf.py);
 *   megatron sft|pt|rlhf (Megatron-SWIFT, swift/cli/_megatron/main.py: MegatronTrainArguments, which
 *   extend ms-swift's own arguments, so `--max_length` means the same; the weights are `--model` or a
 *   converted mcore checkpoint folder in `--load`);
 *   axolotl train (axolotl src/axolotl/cli/main.py::train), python/accelerate -m axolotl.cli.train
 *   (src/axolotl/cli/train.py: fire.Fire(do_cli));
 *   tune run <recipe> (torchtune's `tune` CLI; torchrun options come before the recipe);
 *   litgpt pretrain|finetune|finetune_lora|finetune_full|finetune_adapter[_v2] (LitGPT's CLI);
 *   python -m verl.trainer.main_ppo / verl.trainer.fsdp_sft_trainer (verl, Hydra overrides).
 */
import { isPythonProgram, pythonTarget } from '../../../launch/python';
import type { Token } from '../../../launch/types';
import { normalized } from './argv';
import { LITGPT_COMMANDS } from './litgpt';
import { VERL_MODULES } from './verl';
import { beforeFirst } from '../../../core/text';

export type TrainerProgram = 'llamafactory' | 'swift' | 'axolotl' | 'torchtune' | 'litgpt' | 'verl' | 'generic-trainer';

export interface Launched {
  program: TrainerProgram;
  /** The trainer's own arguments (after `train`, `sft`, or the script). */
  args: Token[];
  /** The token naming what runs: `train`, `sft`, the recipe, the script or module. */
  entry: Token;
  /** Launchers peeled on the way, outermost first (`accelerate launch`, `torchrun`). */
  via: string[];
}

const LAUNCHER_BOOLEANS: Record<string, ReadonlySet<string>> = {
  accelerate: new Set([
    'cpu',
    'multi_gpu',
    'tpu',
    'ipex',
    'use_xpu',
    'use_deepspeed',
    'use_fsdp',
    'use_megatron_lm',
    'm',
    'module',
    'no_python',
    'debug',
    'q',
    'quiet',
    'dynamo_use_fullgraph',
    'dynamo_use_dynamic',
    'dynamo_use_regional_compilation',
    'tpu_use_cluster',
    'tpu_use_sudo',
    'downcast_bf16',
    'enable_cpu_affinity',
    'same_network',
    'h',
    'help',
  ]),
  torchrun: new Set(['standalone', 'no_python', 'm', 'module', 'run_path', 'h', 'help']),
  deepspeed: new Set(['no_python', 'module', 'no_local_rank', 'force_multi', 'bind_cores_to_rank', 'elastic_training', 'no_ssh_check', 'no_ssh', 'h', 'help']),
  python: new Set(['u', 'O', 'OO', 'B', 'E', 's', 'S', 'I', 'b', 'bb', 'q', 'v', 'd', 'i', 'P']),
};

/** `trl` subcommands that train (trl/cli.py); `env`, `vllm-serve` do not. */
const TRL_COMMANDS = ['sft', 'dpo', 'grpo', 'kto', 'orpo', 'ppo', 'rloo'];

function baseName(v: string): string {
  return v.replace(/^.*[\\/]/, '');
}

/** The trainer an invocation runs, or undefined when it runs none RoPE Lens reads. */
export function recognise(argv: Token[]): Launched | undefined {
  return peel(argv, []);
}

function peel(argv: Token[], via: string[]): Launched | undefined {
  const [prog, sub] = argv;
  if (!prog) return undefined;
  const name = baseName(prog.value);
  if ((name === 'llamafactory-cli' || name === 'lmf') && sub?.value === 'train') return { program: 'llamafactory', args: argv.slice(2), entry: sub, via };
  if (name === 'swift' && sub && ['sft', 'pt', 'rlhf'].includes(sub.value)) return { program: 'swift', args: argv.slice(2), entry: sub, via };
  // Megatron-SWIFT: the same argument classes under Megatron (swift/cli/_megatron/main.py ROUTE_MAPPING).
  if (name === 'megatron' && sub && ['sft', 'pt', 'rlhf'].includes(sub.value))
    return { program: 'swift', args: argv.slice(2), entry: sub, via: [...via, 'megatron'] };
  // TRL's CLI (trl/cli.py): `trl sft|dpo|grpo|kto … --model_name_or_path … --max_length …`, the trainer's own dataclass flags.
  if (name === 'trl' && sub && TRL_COMMANDS.includes(sub.value)) return { program: 'generic-trainer', args: argv.slice(2), entry: sub, via: [...via, 'trl'] };
  if (name === 'axolotl' && sub?.value === 'train') return { program: 'axolotl', args: argv.slice(2), entry: sub, via };
  if (name === 'tune' && sub?.value === 'run') return tuneRun(argv.slice(2), via);
  if (name === 'litgpt' && sub && LITGPT_COMMANDS.includes(sub.value)) return { program: 'litgpt', args: argv.slice(2), entry: sub, via };
  if (name === 'accelerate' && sub?.value === 'launch') return launcher('accelerate', argv.slice(2), [...via, 'accelerate launch']);
  if (name === 'torchrun') return launcher('torchrun', argv.slice(1), [...via, 'torchrun']);
  if (name === 'deepspeed') return launcher('deepspeed', argv.slice(1), [...via, 'deepspeed']);
  if (isPythonProgram(name)) return launcher('python', argv.slice(1), via);
  return undefined;
}

/**
 * Skips a launcher's options; the first positional is the script, or the module with `-m`
 * (accelerate/torchrun/deepspeed `--module`, python `-m`), or the program with `--no_python`.
 */
function launcher(kind: keyof typeof LAUNCHER_BOOLEANS, rest: Token[], via: string[]): Launched | undefined {
  const booleans = LAUNCHER_BOOLEANS[kind];
  let moduleMode = false,
    noPython = false;
  if (kind === 'python') {
    // Inline code (-c) has nothing to read.
    const t = pythonTarget(['python', ...rest.map((x) => x.value)]);
    if (!t || t.kind === 'code') return undefined;
    const entry = rest[t.at - 1];
    return target(t.glued ? { ...entry, value: t.name } : entry, rest.slice(t.rest - 1), t.kind === 'module', via);
  }
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i].value;
    if (v.startsWith('-')) {
      const body = normalized(v.replace(/^--?/, ''));
      if (body === 'm' || body === 'module') moduleMode = true;
      if (body === 'no_python') noPython = true;
      if (!v.includes('=') && !booleans.has(body)) i++; // the option's value
      continue;
    }
    if (noPython) return peel(rest.slice(i), via);
    return target(rest[i], rest.slice(i + 1), moduleMode, via);
  }
  return undefined;
}

/** A script or module: a known trainer's entry point, a launcher run as a module, or a generic train script. */
function target(entry: Token, args: Token[], isModule: boolean, via: string[]): Launched | undefined {
  const v = entry.value;
  if (isModule) {
    if (v === 'axolotl.cli.train') return { program: 'axolotl', args, entry, via };
    if (VERL_MODULES.includes(v)) return { program: 'verl', args, entry, via };
    if (v === 'llamafactory.launcher') return { program: 'llamafactory', args, entry, via };
    const swift = v.match(/^swift\.cli\.(_megatron\.)?(sft|pt|rlhf)$/);
    if (swift) return { program: 'swift', args, entry, via: swift[1] ? [...via, 'megatron'] : via };
    if (v === 'torch.distributed.run' || v === 'torch.distributed.launch') return launcher('torchrun', args, [...via, `python -m ${v}`]);
    if (v === 'accelerate.commands.launch') return launcher('accelerate', args, [...via, 'accelerate launch']);
    if (v === 'deepspeed.launcher.runner') return launcher('deepspeed', args, [...via, 'deepspeed']);
    return { program: looksLikeLlamaFactory(args) ? 'llamafactory' : 'generic-trainer', args, entry, via };
  }
  const path = v.replace(/\\/g, '/');
  if (/(^|\/)llamafactory\/launcher\.py$/i.test(path) || /llama[-_]?factory\/src\/train\.py$/i.test(path)) return { program: 'llamafactory', args, entry, via };
  if (/(^|\/)swift\/cli\/(sft|pt|rlhf)\.py$/.test(path)) return { program: 'swift', args, entry, via };
  if (/(^|\/)axolotl\/cli\/train\.py$/.test(path)) return { program: 'axolotl', args, entry, via };
  if (/\.py$/.test(path)) return { program: looksLikeLlamaFactory(args) ? 'llamafactory' : 'generic-trainer', args, entry, via };
  return undefined;
}

/**
 * LLaMA-Factory's own src/train.py, wherever the checkout sits: its arguments use keys only
 * LLaMA-Factory has (`--cutoff_len`, or `--stage` with `--finetuning_type`).
 */
function looksLikeLlamaFactory(args: Token[]): boolean {
  const flags = new Set(args.filter((a) => a.value.startsWith('--')).map((a) => normalized(beforeFirst(a.value.replace(/^--/, ''), '='))));
  return flags.has('cutoff_len') || (flags.has('stage') && flags.has('finetuning_type'));
}

/** `tune run [torchrun options] <recipe> --config <cfg> key=value…`: torchrun options precede the recipe. */
function tuneRun(rest: Token[], via: string[]): Launched | undefined {
  const booleans = LAUNCHER_BOOLEANS.torchrun;
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i].value;
    if (v.startsWith('-')) {
      if (!v.includes('=') && !booleans.has(normalized(v.replace(/^--?/, '')))) i++;
      continue;
    }
    return { program: 'torchtune', args: rest.slice(i + 1), entry: rest[i], via };
  }
  return undefined;
}
