/**
 * The one list of launch words: what makes a file worth parsing and a command worth reporting.
 * Adapters know no engine; this only says "this may start an inference engine or a trainer", so
 * a file that launches nothing is dismissed by one regex test, before any parse.
 */
import { peelWrappers } from './shell/peel';
import { pythonTarget } from './python';
import type { LineMap } from './text';
import type { Invocation, Token } from './types';

/** Programs (by basename) that start an engine or a trainer. */
export const LAUNCH_PROGRAMS: readonly string[] = [
  'vllm',
  'sglang',
  'llama-server',
  'llama-cli',
  'text-generation-launcher',
  'text-generation-inference',
  'ollama',
  'swift',
  'llamafactory-cli',
  'axolotl',
  'tune',
  'accelerate',
  'torchrun',
  'deepspeed',
  // ms-swift's Megatron path (`megatron sft|pt|rlhf …`, swift/cli/_megatron).
  'megatron',
  // TRL's CLI (`trl sft …`).
  'trl',
  // LitGPT's CLI (`litgpt pretrain|finetune_lora …`).
  'litgpt',
];

/** llama.cpp's older binaries: only as a path (`./main`, `./server`, `build/bin/server`), never bare. */
export const LLAMA_CPP_PATH_BINARIES: readonly string[] = ['main', 'server'];

/** Words that make a parameter mention enough (an Ollama `num_ctx` in a request body, its env variable). */
export const LAUNCH_PARAMETER_WORDS: readonly string[] = ['num_ctx', 'OLLAMA_CONTEXT_LENGTH'];

/**
 * Environment variables only an engine reads (llama-server's `LLAMA_ARG_<OPTION>`, common/arg.cpp
 * `.set_env`): given to a script or an image RoPE Lens does not know, they say which engine it
 * starts (`LLAMA_ARG_CTX_SIZE=44000 ./start.sh`); the engine module decides.
 */
export const LAUNCH_ENV_PREFIXES: readonly string[] = ['LLAMA_ARG_'];
const LAUNCH_ENV_RE = /(?:^|[^\w])LLAMA_ARG_[A-Z0-9_]+/;

/**
 * Options only an inference engine takes (vLLM's `--max-model-len`, SGLang's `--context-length`,
 * llama-server's `--ctx-size`, TGI's `--max-total-tokens`): arguments given to an image whose
 * entrypoint is unknown, holding one, may be that engine's; the engine modules decide whose.
 */
export const LAUNCH_ARGUMENT_WORDS: readonly string[] = [
  '--max-model-len',
  // vLLM reads underscores as dashes (`--max_model_len`, as many compose files write it).
  '--max_model_len',
  '--context-length',
  '--ctx-size',
  '--max-total-tokens',
  '--max-input-tokens',
];

/** Modules that `python -m` starts an engine or trainer with (prefix match on the dotted name). */
export const LAUNCH_MODULES: readonly string[] = [
  'vllm',
  'sglang',
  'axolotl',
  'llamafactory',
  'swift',
  'torch.distributed.run',
  'torch.distributed.launch',
  'accelerate',
  'deepspeed',
  'torchtune',
  'text_generation_server',
  // llama-cpp-python's OpenAI-compatible server (`python -m llama_cpp.server --n_ctx …`).
  'llama_cpp.server',
  // verl's RL and SFT trainers (`python3 -m verl.trainer.main_ppo key=value …`, Hydra overrides).
  'verl.trainer',
];

/** Image names that carry an engine or trainer (`vllm/vllm-openai`, `lmsysorg/sglang`, llama.cpp's images…). */
export const LAUNCH_IMAGE_WORDS: readonly string[] = [
  'vllm',
  'sglang',
  'llama.cpp',
  'text-generation-inference',
  'ollama',
  'axolotl',
  'llamafactory',
  'ms-swift',
  'torchtune',
  // LocalAI (`localai/localai`, `quay.io/go-skynet/local-ai`): recognised to be said, its model YAML is not read.
  'local-ai',
  'localai/',
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
const words = [
  ...LAUNCH_PROGRAMS,
  ...LAUNCH_PARAMETER_WORDS,
  ...LAUNCH_ARGUMENT_WORDS,
  ...LAUNCH_IMAGE_WORDS,
  'vllm-openai',
  'lmsysorg/sglang',
  'kubeai.org',
  'huggingface-text-generation-inference',
];

/**
 * Engine names a wrapper's name may carry (`run_llama_server`, `start_vllm`, `serve-sglang`,
 * `launch_tgi`), with the program each stands for. Whether the wrapper's arguments really are
 * that engine's flags is the engine module's call, not this one.
 */
const WRAPPED_ENGINES: readonly [RegExp, string][] = [
  [/llama[_-]?server|llama[_-]?cpp/, 'llama-server'],
  [/vllm/, 'vllm'],
  [/sglang/, 'sglang'],
  [/ollama/, 'ollama'],
  [/tgi|text[_-]generation[_-](?:inference|launcher)/, 'text-generation-launcher'],
];
const WRAPPER_NAME = /^[A-Za-z][\w-]*$/;
const ENGINE_NAMES_IN_WRAPPERS = ['vllm', 'sglang', 'llama', 'ollama', 'tgi'];
/** A word named for an engine beside other words (`run_llama_server`, `vllm-serve-7b`), matched one word at a time. */
const WRAPPER_WORD =
  /^(?:[A-Za-z][\w-]*?[_-](?:llama[_-]?server|llama[_-]?cpp|vllm|sglang|ollama|tgi)(?:[_-][\w-]*)?|(?:llama[_-]?server|vllm|sglang|ollama|tgi)[_-][\w-]+)$/;
/** What ends a command word; a word longer than a command name could be is not one (and bounds the pattern's work). */
const WORD_DELIMITERS = /[\s;&|(`)]+/;
const MAX_COMMAND_WORD = 256;

function mentionsWrapperWord(text: string): boolean {
  return text.split(WORD_DELIMITERS).some((w) => w.length <= MAX_COMMAND_WORD && WRAPPER_WORD.test(w));
}

/**
 * The program a command named for an engine stands for (`run_llama_server` → `llama-server`),
 * when the name is a bare word that carries an engine's name beside other words; undefined for
 * the engine's own program names and for paths and script files (`./start_vllm.sh`).
 */
export function wrappedLaunchProgram(name: string): string | undefined {
  if (!WRAPPER_NAME.test(name) || PROGRAMS.has(name)) return undefined;
  const lower = name.toLowerCase();
  for (const [re, program] of WRAPPED_ENGINES) {
    const m = re.exec(lower);
    // The engine's name must be a part of the name, not the whole of it or inside a longer word.
    if (
      m &&
      m[0].length < lower.length &&
      (m.index === 0 || /[_-]/.test(lower[m.index - 1])) &&
      (m.index + m[0].length === lower.length || /[_-]/.test(lower[m.index + m[0].length]))
    )
      return program;
  }
  return undefined;
}

/**
 * Any launch word or a llama.cpp binary path (`python -m` and training scripts: pythonLaunches). Deliberately generous (`tune` matches "fine-tune"): a false hit costs one parse, a
 * miss loses a finding.
 */
export const LAUNCH_WORD_RE = new RegExp(
  `(?:^|[^\\w.-])(?:${[...new Set(words)].map(escape).join('|')})(?![\\w])` +
    // `-mvllm.entrypoints…` glued, in an exec-form list where `python3` is a separate quoted word.
    `|(?:^|[\\s"'\\[,])-m(?:${LAUNCH_MODULES.map(escape).join('|')})\\b` +
    `|(?:\\.|/bin)/(?:${LLAMA_CPP_PATH_BINARIES.join('|')})\\b`,
);

/**
 * `python[3.x] [options] -m…`, or `python [options] SCRIPT.py` whose file name carries a training
 * word, read word by word: as one pattern over the text (`python\s+(?:-\S+\s+)*…`) it retried the
 * option loop from every split and went quadratic on a long run of options.
 */
function pythonLaunches(text: string): boolean {
  if (!text.includes('python')) return false;
  const words = text.split(/\s+/);
  for (let i = 0; i + 1 < words.length; i++) {
    if (!PYTHON_WORD.test(words[i])) continue;
    let j = i + 1;
    for (; j < words.length && words[j].startsWith('-'); j++) if (/^-m(?![0-9])/.test(words[j])) return true;
    if (j < words.length && namesTrainingScript(words[j])) return true;
  }
  return false;
}
const PYTHON_WORD = /python[\d.]*$/;

/** A script word (up to `;`, `|` or `&`) holding `NAME.py` whose NAME (after its last '/') carries a training word. */
function namesTrainingScript(word: string): boolean {
  const script = word.split(/[;|&]/, 1)[0];
  for (const m of script.matchAll(/\.py\b/g)) if (TRAINING_SCRIPT_NAME.test(script.slice(script.lastIndexOf('/', m.index) + 1, m.index))) return true;
  return false;
}

/** The cheap test run before any parse: false means the text launches nothing RoPE Lens reads. */
export function mentionsLaunchWord(text: string): boolean {
  if (LAUNCH_WORD_RE.test(text) || LAUNCH_ENV_RE.test(text) || pythonLaunches(text)) return true;
  // The wrapper pattern tries every word; most texts name no engine at all, which indexOf says at once.
  return ENGINE_NAMES_IN_WRAPPERS.some((w) => text.includes(w)) && mentionsWrapperWord(text);
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
  if (inv.entrypoint === 'program' && argv.length > 1 && wrappedLaunchProgram(argv[0])) return true;
  if (inv.entrypoint === 'program' ? isLaunchProgram(argv) : (inv.image && isLaunchImage(inv.image.value)) || isLaunchProgram(argv)) return true;
  if (Object.keys(inv.env).some((k) => LAUNCH_PARAMETER_WORDS.includes(k) || LAUNCH_ENV_PREFIXES.some((p) => k.startsWith(p)))) return true;
  // `image: my/custom` + `command: ["--model", "x", "--max-model-len", "65536"]`: arguments only an engine takes.
  if (inv.entrypoint === 'image' && argv[0]?.startsWith('-') && argv.some((a) => LAUNCH_ARGUMENT_WORDS.includes(a.split('=')[0]))) return true;
  return argv.some((a) => LAUNCH_PARAMETER_WORDS.some((w) => a.includes(w)));
}

/**
 * A container command's argv from its first launch program on: `["vllm", "serve", …]` as is,
 * `["tini", "--", "vllm", …]` or `["env", "A=1", "llama-server", …]` with the wrappers peeled.
 * Undefined when it does not start a known program.
 */
export function launchArgv(argv: Token[], doc: LineMap): { argv: Token[]; env: Record<string, Token> } | undefined {
  if (!argv.length) return undefined;
  if (isLaunchProgram(argv.map((t) => t.value))) return { argv, env: {} };
  const p = peelWrappers(argv, doc);
  return !p.container && p.argv.length < argv.length && isLaunchProgram(p.argv.map((t) => t.value)) ? { argv: p.argv, env: p.env } : undefined;
}

/** Whether a container command starts a known program (wrappers peeled). */
export function startsWithLaunch(argv: Token[], doc: LineMap): boolean {
  return launchArgv(argv, doc) !== undefined;
}
