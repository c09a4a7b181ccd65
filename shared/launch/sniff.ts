/**
 * The one list of launch words: what makes a file worth parsing and a command worth reporting.
 * Adapters know no engine; this only says "this may start an inference engine or a trainer", so
 * a file that launches nothing is dismissed by one regex test, before any parse.
 */
import { pythonTarget } from './python';
import type { Invocation } from './types';

/** Programs (by basename) that start an engine or a trainer. */
export const LAUNCH_PROGRAMS: readonly string[] = [
  'vllm', 'sglang', 'llama-server', 'llama-cli', 'text-generation-launcher', 'text-generation-inference',
  'ollama', 'swift', 'llamafactory-cli', 'axolotl', 'tune', 'accelerate', 'torchrun', 'deepspeed',
];

/** llama.cpp's older binaries: only as a path (`./main`, `./server`, `build/bin/server`), never bare. */
export const LLAMA_CPP_PATH_BINARIES: readonly string[] = ['main', 'server'];

/** Words that make a parameter mention enough (an Ollama `num_ctx` in a request body, its env variable). */
export const LAUNCH_PARAMETER_WORDS: readonly string[] = ['num_ctx', 'OLLAMA_CONTEXT_LENGTH'];

/** Modules that `python -m` starts an engine or trainer with (prefix match on the dotted name). */
export const LAUNCH_MODULES: readonly string[] = [
  'vllm', 'sglang', 'axolotl', 'llamafactory', 'swift', 'torch.distributed.run', 'torch.distributed.launch',
  'accelerate', 'deepspeed', 'torchtune', 'text_generation_server',
];

/** Image names that carry an engine or trainer (`vllm/vllm-openai`, `lmsysorg/sglang`, llama.cpp's images…). */
export const LAUNCH_IMAGE_WORDS: readonly string[] = [
  'vllm', 'sglang', 'llama.cpp', 'text-generation-inference', 'ollama', 'axolotl', 'llamafactory', 'ms-swift', 'torchtune',
];

/**
 * Words in the name of a script that trains (`train.py`, `finetune.py`, `sft.py`, `pretrain_gpt.py`,
 * `run_clm.py`, trl's `dpo.py` …): `python SCRIPT.py` with such a name may start a trainer. The
 * trainer modules read such scripts generically and use the same words to tell training from
 * evaluation (config/trainers/launch/generic.ts).
 */
export const TRAINING_SCRIPT_WORDS: readonly string[] = ['train', 'tune', 'tuning', 'sft', 'dpo', 'orpo', 'kto', 'ppo', 'grpo', 'rlhf', 'run_clm'];
export const TRAINING_SCRIPT_NAME = new RegExp(TRAINING_SCRIPT_WORDS.join('|'), 'i');

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const words = [...LAUNCH_PROGRAMS, ...LAUNCH_PARAMETER_WORDS, ...LAUNCH_IMAGE_WORDS, 'vllm-openai', 'lmsysorg/sglang'];

/**
 * Any launch word, `python -m`, `python` running a script named for training, or a llama.cpp
 * binary path. Deliberately generous (`tune` matches "fine-tune"): a false hit costs one parse, a
 * miss loses a finding.
 */
export const LAUNCH_WORD_RE = new RegExp(
  `(?:^|[^\\w.-])(?:${[...new Set(words)].map(escape).join('|')})(?![\\w])` +
  `|python[\\d.]*\\s+(?:-\\S+\\s+)*-m\\b` +
  `|python[\\d.]*\\s+(?:-\\S+\\s+)*[^\\s;|&]*?(?:${TRAINING_SCRIPT_WORDS.map(escape).join('|')})[^\\s;|&/]*\\.py\\b` +
  `|(?:\\.|/bin)/(?:${LLAMA_CPP_PATH_BINARIES.join('|')})\\b`,
);

/** The cheap test run before any parse: false means the text launches nothing RoPE Lens reads. */
export function mentionsLaunchWord(text: string): boolean {
  return LAUNCH_WORD_RE.test(text);
}

const PROGRAMS = new Set(LAUNCH_PROGRAMS);
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** The module after `-m` when argv starts `python… [flags] -m MODULE`. */
export function pythonModule(argv: readonly string[]): string | undefined {
  const t = pythonTarget(argv);
  return t?.kind === 'module' ? t.name : undefined;
}

/** The script `python… [flags] SCRIPT.py` runs, when argv starts so (not `-m`, not `-c`). */
export function pythonScript(argv: readonly string[]): string | undefined {
  const t = pythonTarget(argv);
  return t?.kind === 'script' && /\.py$/.test(t.name) ? t.name : undefined;
}

/** Whether argv[0] (with `python -m`, or `python` and a script named for training) names a program or module from the lists above. */
export function isLaunchProgram(argv: readonly string[]): boolean {
  const p = argv[0];
  if (p === undefined) return false;
  const b = baseName(p);
  if (PROGRAMS.has(b)) return true;
  if (p.includes('/') && LLAMA_CPP_PATH_BINARIES.includes(b)) return true;
  const m = pythonModule(argv);
  if (m !== undefined) return LAUNCH_MODULES.some((x) => m === x || m.startsWith(x + '.'));
  const script = pythonScript(argv);
  return script !== undefined && TRAINING_SCRIPT_NAME.test(baseName(script));
}

export function isLaunchImage(image: string): boolean {
  return LAUNCH_IMAGE_WORDS.some((w) => image.includes(w));
}

/** Whether an adapter reports this invocation: a launch program, a launch image, or a launch parameter. */
export function isLaunchInvocation(inv: Invocation): boolean {
  const argv = inv.argv.map((t) => t.value);
  if (inv.entrypoint === 'program' ? isLaunchProgram(argv) : (inv.image && isLaunchImage(inv.image.value)) || isLaunchProgram(argv)) return true;
  if (Object.keys(inv.env).some((k) => LAUNCH_PARAMETER_WORDS.includes(k))) return true;
  return argv.some((a) => LAUNCH_PARAMETER_WORDS.some((w) => a.includes(w)));
}
