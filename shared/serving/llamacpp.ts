/**
 * llama.cpp (`llama-server`): the training context it reads from the GGUF, and the flags that
 * reproduce the config's scaling at run time.
 *
 * Rules read from ggml-org/llama.cpp:
 *  - `convert_hf_to_gguf.py` (TextModel.set_gguf_parameters) writes `<arch>.context_length` from the
 *    first of max_position_embeddings, n_ctx, n_positions, max_length, max_sequence_length,
 *    model_max_length; for `rope_type` linear it writes rope.scaling.type/factor; for yarn also
 *    rope.scaling.original_context_length (and the yarn beta/attention keys it finds); longrope
 *    becomes rope.scaling.type longrope with the factor lists as tensors; llama3 is baked into a
 *    `rope_freqs` tensor (generate_extra_tensors); dynamic is not converted.
 *  - `common/arg.cpp`: `--rope-scaling {none,linear,yarn}`, `--rope-scale N`, `--yarn-orig-ctx N`,
 *    `--yarn-beta-fast N`, `--yarn-beta-slow N`, `-c/--ctx-size N`, `--override-kv KEY=TYPE:VALUE`.
 *  - `tools/server/server-context.cpp`: a slot context above n_ctx_train (the GGUF context_length)
 *    is capped with "the slot context (…) exceeds the training context of the model (…) - capping".
 */
import { editedBase } from '../config/editOrDerivative';
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, hasWindows, modernKeys, servingOf } from './consumer';
import {
  ScalingFacts,
  argNumber,
  grouped,
  kindName,
  lengthKeys,
  planRewrite,
  reachNotes,
  recommendedRewrite,
  rewriteNote,
  scalingFacts,
  staticYarnNote,
  targetContext,
  restoredBaseNote,
} from './common';
import type { RewriteOption } from '../advice/advice';
import { fmtPlain } from '../core/format';

const GGUF_CONTEXT_KEYS = ['max_position_embeddings', 'n_ctx', 'n_positions', 'max_length', 'max_sequence_length', 'model_max_length'];

/** transformers model_type → llama.cpp architecture name (the GGUF key prefix). */
const ARCH: Record<string, string> = {
  llama: 'llama',
  mistral: 'llama',
  mixtral: 'llama',
  qwen2: 'qwen2',
  qwen2_moe: 'qwen2moe',
  qwen3: 'qwen3',
  qwen3_moe: 'qwen3moe',
  phi3: 'phi3',
  phi: 'phi2',
  deepseek_v2: 'deepseek2',
  deepseek_v3: 'deepseek2',
  gemma: 'gemma',
  gemma2: 'gemma2',
  gemma3: 'gemma3',
  gemma3_text: 'gemma3',
  gpt_oss: 'gpt-oss',
  olmo: 'olmo',
  olmo2: 'olmo2',
  granite: 'granite',
  cohere: 'command-r',
  starcoder2: 'starcoder2',
  internlm2: 'internlm2',
  exaone: 'exaone',
  chatglm: 'chatglm',
  glm4: 'glm4',
  stablelm: 'stablelm',
  falcon: 'falcon',
  gpt_neox: 'gptneox',
  qwen: 'qwen',
  minicpm: 'minicpm',
  baichuan: 'baichuan',
};

/**
 * Whether llama.cpp applies the model's sliding window: only where the conversion writes it
 * (WRITES_WINDOW, below) and src/llama-model.cpp::load_hparams reads it per architecture;
 * LLM_ARCH_LLAMA, which Mistral and Mixtral convert to, reads none (commit 00342301), so their
 * layers attend in full. Elsewhere unverified, taken as not applied: a scaling is then proposed.
 */
export function llamaCppHonoursWindows(modelType: string | undefined): boolean {
  return WRITES_WINDOW.has(modelType ?? '') && llamaCppArch(modelType) !== 'llama';
}

/** The GGUF architecture for a config (a GGUF read back keeps its own `general.architecture`). */
export function llamaCppArch(modelType: string | undefined): string | undefined {
  if (!modelType) return undefined;
  return ARCH[modelType] ?? (Object.values(ARCH).includes(modelType) ? modelType : undefined);
}

/** n_ctx_train: the `<arch>.context_length` the conversion writes (a GGUF's own value when read from one). */
export function llamaCppTrainContext(input: ServingInput): number {
  const keys = lengthKeys(input);
  const key = GGUF_CONTEXT_KEYS.find((k) => typeof keys[k] === 'number');
  return key ? keys[key] : input.rope.contextLength.value;
}

const YARN_BETA_DEFAULTS = { beta_fast: 32, beta_slow: 1 };

/** One llama.cpp option to set: its name in the grammar (no dashes), its flag, its value. */
export interface LlamaOption {
  name: string;
  flag: string;
  value: string;
}

/**
 * The one writer of llama.cpp's scaling flags: `rope-lens serve`, the launch fixes and their titles
 * all take their options from here (`--rope-scaling yarn --rope-scale s --yarn-orig-ctx T`, linear,
 * or NTK through `--rope-freq-base`).
 */
export function llamaCppScalingOptions(
  s: { type: 'yarn'; factor: number; original: number } | { type: 'linear'; factor: number } | { type: 'ntk'; base: string },
): LlamaOption[] {
  switch (s.type) {
    case 'yarn':
      return [
        { name: 'rope-scaling', flag: '--rope-scaling', value: 'yarn' },
        { name: 'rope-scale', flag: '--rope-scale', value: argNumber(s.factor) },
        { name: 'yarn-orig-ctx', flag: '--yarn-orig-ctx', value: String(s.original) },
      ];
    case 'linear':
      return [
        { name: 'rope-scaling', flag: '--rope-scaling', value: 'linear' },
        { name: 'rope-scale', flag: '--rope-scale', value: argNumber(s.factor) },
      ];
    case 'ntk':
      return [{ name: 'rope-freq-base', flag: '--rope-freq-base', value: s.base }];
  }
}

/** Options as arguments (`serve`) and as the words a message or fix title shows. */
export const llamaOptionArgs = (opts: readonly LlamaOption[]): string[] => opts.flatMap((o) => [o.flag, o.value]);
export const llamaOptionText = (opts: readonly LlamaOption[]): string => llamaOptionArgs(opts).join(' ');

/** The flags that set a yarn/linear scaling, or why none can. */
export function llamaCppScalingFlags(facts: ScalingFacts, trained: number): { flags: string[]; notes: string[] } {
  const notes: string[] = [];
  const f = facts.factor;
  switch (facts.type) {
    case 'yarn': {
      if (f === undefined) return { flags: [], notes: ['The YaRN scaling has no factor: no --rope-scale can be written.'] };
      const flags = llamaOptionArgs(llamaCppScalingOptions({ type: 'yarn', factor: f, original: facts.original ?? trained }));
      for (const [key, flag] of [
        ['beta_fast', '--yarn-beta-fast'],
        ['beta_slow', '--yarn-beta-slow'],
      ] as const) {
        const v = facts.params[key];
        if (typeof v === 'number' && v !== YARN_BETA_DEFAULTS[key]) flags.push(flag, argNumber(v));
      }
      if (facts.params['mscale_all_dim'] !== undefined || facts.params['attention_factor'] !== undefined || facts.params['mscale'] !== undefined) {
        notes.push(
          'The YaRN attention scale (mscale, mscale_all_dim, attention_factor) comes from the GGUF keys written at conversion; no flag reproduces it.',
        );
      }
      if (facts.original === undefined)
        notes.push(`The scaling has no original_max_position_embeddings: --yarn-orig-ctx uses the trained context ${grouped(trained)}.`);
      return { flags, notes };
    }
    case 'linear':
      if (f === undefined) return { flags: [], notes: ['The linear scaling has no factor.'] };
      return { flags: llamaOptionArgs(llamaCppScalingOptions({ type: 'linear', factor: f })), notes };
    case 'dynamic':
      return {
        flags: [],
        notes: ['llama.cpp has no dynamic NTK scaling (its --rope-scaling takes none, linear or yarn) and the conversion drops it: the model runs unscaled.'],
      };
    case 'llama3':
      return { flags: [], notes: ['llama3 scaling is baked into the GGUF at conversion (a rope_freqs tensor); no flag is needed or possible.'] };
    case 'longrope':
      return { flags: [], notes: ['longrope is applied from the rope_factors_long/short tensors the conversion writes; no llama.cpp flag can express it.'] };
    case 'none':
      return { flags: [], notes };
    default:
      return { flags: [], notes: [`RoPE type '${facts.rawType}' has no llama.cpp equivalent; no scaling flag is written.`] };
  }
}

/**
 * How llama.cpp reads a config's RoPE keys at conversion (the consumer table):
 * `convert_hf_to_gguf.py::TextModel.__init__` (master, 2026) takes `rope_parameters`, else
 * `rope_scaling`, and mirrors the top-level rope_theta and a legacy `type` into it only where the
 * dict has none; per-layer-type dicts are used as they are. Conversion writes linear, yarn and
 * longrope, bakes llama3 into a rope_freqs tensor and drops dynamic (see llamaCppScalingFlags).
 * Without any base the runtime uses 10,000 (llama_model hparams default).
 */
export function llamaCppReading(input: ConsumerInput): ConsumerReading {
  const { view } = input;
  // A legacy-spelled file is read with the same keys the model reader uses (find_hparam lists).
  if (!view.ropeParameters) return llamaCppRow(input, modernKeys(input), []);
  let params: Record<string, unknown> | undefined = view.ropeParameters;
  let where = 'rope_parameters';
  const notes: string[] = [];
  if (view.perLayerType && params) {
    where = 'rope_parameters.full_attention';
    params = (params['full_attention'] ?? Object.values(params).find((v) => v && typeof v === 'object')) as Record<string, unknown> | undefined;
    notes.push('per-layer-type rope_parameters: the full-attention entry is shown');
  }
  if (view.ropeScaling) notes.push('rope_parameters is read and rope_scaling ignored (transformers 5 does the opposite)');
  const theta = typeof params?.['rope_theta'] === 'number' ? (params['rope_theta'] as number) : view.ropeTheta;
  const baseFrom =
    theta === undefined ? 'default rope_theta 10000 (not read from the file)' : params?.['rope_theta'] !== undefined ? `${where}.rope_theta` : 'rope_theta';
  return llamaCppRow(input, params ? { base: theta ?? 10000, baseFrom, scaling: params } : { base: theta ?? 10000, baseFrom }, notes);
}

/**
 * Model classes whose conversion writes `<arch>.attention.sliding_window` (Gemma2Model and
 * Cohere2Model call `add_sliding_window(self.hparams["sliding_window"])`); for the others the
 * window was not checked.
 */
const WRITES_WINDOW = new Set(['gemma2', 'cohere2']);

function llamaCppRow(input: ConsumerInput, read: { base: number; baseFrom: string; scaling?: Record<string, unknown> }, notes: string[]): ConsumerReading {
  const windows = !hasWindows(input)
    ? 'n/a'
    : WRITES_WINDOW.has(input.view.modelType ?? '')
      ? 'honoured'
      : llamaCppArch(input.view.modelType) === 'llama'
        ? 'ignored'
        : 'not verified';
  const row = engineRow(
    {
      consumer: 'llama.cpp',
      label: 'llama.cpp (convert_hf_to_gguf.py)',
      pkg: 'llama.cpp',
      windows,
      source: 'convert_hf_to_gguf.py::TextModel.__init__, Gemma2Model/Cohere2Model.set_gguf_parameters (master); tools/server/server-context.cpp',
    },
    read,
    llamaCppTrainContext(servingOf(input)),
    notes,
  );
  if (row.scalingType === 'dynamic')
    return {
      ...row,
      scalingType: 'none',
      factor: null,
      scalingDropped: 'dynamic',
      notes: [...notes, 'dynamic scaling is not converted: the model runs unscaled'],
    };
  return row;
}

export function llamaCppPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const nCtxTrain = llamaCppTrainContext(input);
  const notes: string[] = [];
  let { flags, notes: scalingNotes } = llamaCppScalingFlags(facts, input.trainedContext);
  notes.push(...scalingNotes);
  let extended = flags.length > 0;
  const windows = llamaCppHonoursWindows(input.rope.modelType);
  const advice = recommendedRewrite(input, facts, context, windows);
  let rewrite: ServingPlan['rewrite'];
  if (advice) {
    // The advice's first rewrite llama.cpp's flags can say (no llama3 band or dynamic NTK flags).
    const o = advice.options.find((x) => llamaCppFlagsOf(x) !== undefined);
    const written = o === advice.preferred;
    rewrite = planRewrite(advice, written);
    // An edited base is put back beside a scaling (a new base already starts from the shipped one).
    const edit = editedBase(input.rope);
    if (o) {
      flags = llamaCppFlagsOf(o)!;
      if (edit && o.base === undefined) flags = [...flags, '--rope-freq-base', String(edit.shipped)];
      extended = true;
    }
    notes.push(
      written
        ? rewriteNote(input, advice, 'the flags write') + restoredBaseNote(input, true)
        : `${rewriteNote(input, advice, 'the preferred rewrite is')}${restoredBaseNote(input, !!o)} llama.cpp has no flag for ${kindName(advice.preferred.kind)}${o ? `: the flags write ${o.label}, the closest it can` : ''}; or convert the GGUF from a config that carries it.`,
    );
  }
  const yarn = staticYarnNote(facts, input.trainedContext, context, 'llama.cpp', input.rope);
  if (yarn) notes.push(yarn);
  notes.push(...reachNotes(input, facts, context, 'llama.cpp', nCtxTrain, windows));
  if (!input.gguf && !input.ggufHub) notes.push('llama.cpp loads a GGUF: convert the model with convert_hf_to_gguf.py and pass the file to -m.');
  // A Hub GGUF: llama-server fetches the file itself (common/arg.cpp: --hf-repo, --hf-file).
  const model = input.ggufHub ? ['--hf-repo', input.ggufHub.repo, '--hf-file', input.ggufHub.file] : ['-m', input.gguf ?? 'model.gguf'];
  const args = ['llama-server', ...model, '-c', String(context), ...flags];
  if (context > nCtxTrain) {
    const arch = llamaCppArch(input.rope.modelType);
    if (arch) {
      args.push('--override-kv', `${arch}.context_length=int:${context}`);
      notes.push(
        `llama-server caps each slot at the GGUF's ${arch}.context_length (${grouped(nCtxTrain)}) and says only "exceeds the training context of the model - capping"; --override-kv raises it to ${grouped(context)}.`,
      );
    } else {
      notes.push(
        `llama-server caps each slot at the GGUF's <arch>.context_length (${grouped(nCtxTrain)}); add --override-kv <arch>.context_length=int:${context} with the GGUF's general.architecture.`,
      );
    }
    if (!extended) notes.push(`No flag scales past ${grouped(nCtxTrain)}: positions beyond it are extrapolated.`);
  }
  return { engine: 'llama.cpp', derivedMaxLen: nCtxTrain, context, args, env: {}, overrides: null, notes, ...(rewrite ? { rewrite } : {}) };
}

/** llama.cpp's options for an advised rewrite (YaRN, linear, a new base), through its one writer; undefined where it has none. */
export function llamaCppOptionsOf(o: RewriteOption): LlamaOption[] | undefined {
  if (o.kind === 'yarn' && o.original !== undefined) return llamaCppScalingOptions({ type: 'yarn', factor: o.factor, original: o.original });
  if (o.kind === 'linear') return llamaCppScalingOptions({ type: 'linear', factor: o.factor });
  if (o.kind === 'ntk' && o.base !== undefined && Number.isFinite(o.base)) return llamaCppScalingOptions({ type: 'ntk', base: fmtPlain(o.base) });
  return undefined;
}

/** The same as command-line arguments. */
export function llamaCppFlagsOf(o: RewriteOption): string[] | undefined {
  const opts = llamaCppOptionsOf(o);
  return opts ? llamaOptionArgs(opts) : undefined;
}

// ==== Launch grammar (h-engines): how llama.cpp reads its own command line ================
//
// Verified in ggml-org/llama.cpp `common/arg.cpp`:
//  - `common_params_parse_ex`: environment variables are applied first, then the command line
//    overwrites them ("warn: … environment variable is set, but will be overwritten by command
//    line argument"); in a `--long` argument every `_` becomes `-`; the token is looked up whole —
//    there is no `--flag=value` form — and an unknown one stops with "error: invalid argument: %s";
//    a repeated argument warns and the last value is used.
//  - options: `-m/--model` (LLAMA_ARG_MODEL), `-hf/-hfr/--hf-repo` (LLAMA_ARG_HF_REPO), `-c/--ctx-size`
//    (LLAMA_ARG_CTX_SIZE; 0 = from the model), `--rope-scaling {none,linear,yarn}` "defaults to linear
//    unless specified by the model" (LLAMA_ARG_ROPE_SCALING_TYPE), `--rope-scale N` sets
//    rope_freq_scale = 1/N (LLAMA_ARG_ROPE_SCALE), `--rope-freq-base`, `--rope-freq-scale`,
//    `--yarn-orig-ctx` (0 = the model's training context), `--yarn-ext-factor`, `--yarn-attn-factor`,
//    `--yarn-beta-slow`, `--yarn-beta-fast` (each LLAMA_ARG_<NAME>), `--override-kv KEY=TYPE:VALUE`.
//  - `.devops/*.Dockerfile` target `server`: ENTRYPOINT [ "/app/llama-server" ] (images
//    ghcr.io/ggml-org/llama.cpp:server, :server-cuda, …); `:light` runs llama-cli.
import type { Invocation, Token } from '../launch/types';
import type { LaunchRequest, OptionUse } from '../launch/request';
import { OptionSpec, afterPythonModule, engineWrapper, imageIs, imageRepo, lastUse, programName, readArgv } from './argv';
import { isLaunchImage, wrappedLaunchProgram } from '../launch/sniff';
import { shownValue } from './argv';
import type { LaunchEffect } from './launchModel';
import { withScaling } from './launchModel';
import type { ModelRope } from '../config/modelRope';

const LLAMA_SPECS: OptionSpec[] = [
  { name: 'model', flags: ['-m', '--model'], takesValue: true },
  { name: 'hf-repo', flags: ['-hf', '-hfr', '--hf-repo'], takesValue: true },
  { name: 'hf-file', flags: ['-hff', '--hf-file'], takesValue: true },
  { name: 'ctx-size', flags: ['-c', '--ctx-size'], takesValue: true },
  { name: 'parallel', flags: ['-np', '--parallel'], takesValue: true },
  { name: 'rope-scaling', flags: ['--rope-scaling'], takesValue: true },
  { name: 'rope-scale', flags: ['--rope-scale'], takesValue: true },
  { name: 'rope-freq-base', flags: ['--rope-freq-base'], takesValue: true },
  { name: 'rope-freq-scale', flags: ['--rope-freq-scale'], takesValue: true },
  { name: 'yarn-orig-ctx', flags: ['--yarn-orig-ctx'], takesValue: true },
  { name: 'yarn-ext-factor', flags: ['--yarn-ext-factor'], takesValue: true },
  { name: 'yarn-attn-factor', flags: ['--yarn-attn-factor'], takesValue: true },
  { name: 'yarn-beta-slow', flags: ['--yarn-beta-slow'], takesValue: true },
  { name: 'yarn-beta-fast', flags: ['--yarn-beta-fast'], takesValue: true },
  { name: 'override-kv', flags: ['--override-kv'], takesValue: true },
];

/** Options that reach llama.cpp through the environment (`LLAMA_ARG_<NAME>`), by canonical name. */
const LLAMA_ENV: Record<string, string> = {
  model: 'LLAMA_ARG_MODEL',
  'hf-repo': 'LLAMA_ARG_HF_REPO',
  'ctx-size': 'LLAMA_ARG_CTX_SIZE',
  parallel: 'LLAMA_ARG_N_PARALLEL',
  'rope-scaling': 'LLAMA_ARG_ROPE_SCALING_TYPE',
  'rope-scale': 'LLAMA_ARG_ROPE_SCALE',
  'rope-freq-base': 'LLAMA_ARG_ROPE_FREQ_BASE',
  'rope-freq-scale': 'LLAMA_ARG_ROPE_FREQ_SCALE',
  'yarn-orig-ctx': 'LLAMA_ARG_YARN_ORIG_CTX',
  'yarn-ext-factor': 'LLAMA_ARG_YARN_EXT_FACTOR',
  'yarn-attn-factor': 'LLAMA_ARG_YARN_ATTN_FACTOR',
  'yarn-beta-slow': 'LLAMA_ARG_YARN_BETA_SLOW',
  'yarn-beta-fast': 'LLAMA_ARG_YARN_BETA_FAST',
};

export const LLAMA_ROPE_OPTIONS = [
  'rope-scaling',
  'rope-scale',
  'rope-freq-base',
  'rope-freq-scale',
  'yarn-orig-ctx',
  'yarn-ext-factor',
  'yarn-attn-factor',
  'yarn-beta-slow',
  'yarn-beta-fast',
];

const LLAMA_FOREIGN: Record<string, string | undefined> = {
  '--max-model-len': '--ctx-size',
  '--context-length': '--ctx-size',
  '--hf-overrides': undefined,
  '--json-model-override-args': undefined,
  '--rope-theta': '--rope-freq-base',
  '--rope-factor': '--rope-scale',
  '--model-path': '--model',
  '--max-total-tokens': '--ctx-size',
};

const LLAMA_PROGRAMS = ['llama-server', 'llama-cli', 'llama-simple-chat', 'llama-run'];
/** Pre-rename binaries (`server`, `main`), accepted only when called by path (./main) — bare names are too common. */
const LEGACY_PROGRAMS = ['server', 'main'];

export function isLlamaCppImage(image: string): boolean {
  return imageIs(image, ['ggml-org/llama.cpp', 'ggerganov/llama.cpp']);
}

function llamaStart(inv: Invocation): { start: number; program: string; note?: string } | undefined {
  const argv = inv.argv;
  if (inv.entrypoint === 'image') {
    if (!inv.image || !isLlamaCppImage(inv.image.value)) return envWrapper(inv);
    const tag = imageRepo(inv.image.value).tag ?? '';
    const first = programName(argv[0]);
    if (LLAMA_PROGRAMS.includes(first) || first === 'tools.sh') return llamaStart({ ...inv, entrypoint: 'program' });
    return { start: 0, program: tag.startsWith('light') ? 'llama-cli' : 'llama-server' };
  }
  const name = programName(argv[0]);
  if (LLAMA_PROGRAMS.includes(name)) return { start: 1, program: name };
  if (LEGACY_PROGRAMS.includes(name) && argv[0].value.includes('/')) return { start: 1, program: name };
  // `run_llama_server --model … --ctx-size …` (a wrapper defined elsewhere): llama-server's grammar.
  const w = engineWrapper(argv, 'llama-server', wrappedLaunchProgram, LLAMA_SPECS, { equals: false, underscores: true }, LLAMA_FOREIGN);
  if (w) return { start: 1, program: 'llama-server', note: w.note };
  return envWrapper(inv);
}

/** Variables llama-server reads (LLAMA_ARG_<OPTION>); no other program reads them. */
const llamaArgEnv = (inv: Invocation) => Object.keys(inv.env).filter((k) => k.startsWith('LLAMA_ARG_'));

/**
 * `LLAMA_ARG_CTX_SIZE=44000 ./start.sh`, compose `environment: LLAMA_ARG_…` for a custom image: a
 * script or image RoPE Lens does not read, given llama-server's own variables. Only llama-server
 * reads them, so the launch is read as llama-server's from its environment (said so); the
 * wrapper's own arguments are not read. Another engine's program or image is not such a wrapper.
 */
function envWrapper(inv: Invocation): { start: number; program: string; note: string } | undefined {
  const vars = llamaArgEnv(inv);
  if (!vars.length) return undefined;
  const first = inv.argv[0]?.value ?? '';
  const script =
    /\.(?:sh|bash)$/.test(first) ||
    /^\.{0,2}\//.test(first) ||
    (/^(?:ba|z|da)?sh$/.test(programName(inv.argv[0])) && /\.(?:sh|bash)$/.test(inv.argv[1]?.value ?? ''));
  // A script the image runs (`CMD ["/start.sh"]`) is named; else the image whose entrypoint is unknown.
  const unknownImage = inv.entrypoint === 'image' && inv.image && !isLaunchImage(inv.image.value);
  const what = script ? first : unknownImage ? `the image ${inv.image!.value}, whose entrypoint is unknown,` : undefined;
  if (!what) return undefined;
  return {
    start: inv.argv.length,
    program: 'llama-server',
    note: `${what} is given ${vars.join(', ')}: read as llama-server's settings, since llama-server reads LLAMA_ARG_* variables and no other program does (its own arguments are not read).`,
  };
}

/** The env token as an option use (flag and value are the same token: the value written in the environment). */
function envUse(name: string, tok: Token): OptionUse {
  return { name, flag: tok, value: tok };
}

// llama-cpp-python's OpenAI-compatible server (abetlen/llama-cpp-python):
//  - `python -m llama_cpp.server` builds its argparse from the pydantic Settings fields
//    (`llama_cpp/server/cli.py::add_args_from_model`): `--<field>` exactly as the field is named
//    (`--n_ctx`, `--rope_freq_base`; argparse: `--x=v` too, dashes are another flag), booleans take
//    a value. pydantic-settings also reads each field from the environment (`N_CTX`, `MODEL`); the
//    command line wins.
//  - `llama_cpp/server/settings.py` ModelSettings: n_ctx default 2048 (0: the model's own),
//    rope_scaling_type an integer (-1 unspecified, 0 none, 1 linear, 2 yarn, 3 longrope: llama.h),
//    rope_freq_base / rope_freq_scale 0 = from the model, yarn_orig_ctx 0 = the model's,
//    yarn_ext_factor -1, yarn_attn_factor 1, yarn_beta_fast 32, yarn_beta_slow 1;
//    `--hf_model_repo_id` names the Hub repository, `--model` then the file in it.
//  - One llama.cpp context of n_ctx tokens (no server slots, so no per-slot cap).
const LLAMA_PY_SPECS: OptionSpec[] = [
  ['model', 'model'],
  ['hf_model_repo_id', 'hf-repo'],
  ['n_ctx', 'ctx-size'],
  ['rope_scaling_type', 'rope-scaling'],
  ['rope_freq_base', 'rope-freq-base'],
  ['rope_freq_scale', 'rope-freq-scale'],
  ['yarn_orig_ctx', 'yarn-orig-ctx'],
  ['yarn_ext_factor', 'yarn-ext-factor'],
  ['yarn_attn_factor', 'yarn-attn-factor'],
  ['yarn_beta_fast', 'yarn-beta-fast'],
  ['yarn_beta_slow', 'yarn-beta-slow'],
  ['config_file', 'config-file'],
].map(([field, name]) => ({ name, flags: [`--${field}`], takesValue: true }));
const LLAMA_PY_FIELD: Record<string, string> = Object.fromEntries(LLAMA_PY_SPECS.map((s) => [s.name, s.flags[0].slice(2)]));
const LLAMA_PY_SCALING: Record<string, string> = { '-1': 'unspecified', '0': 'none', '1': 'linear', '2': 'yarn', '3': 'longrope' };
/** Values that mean "from the model" in settings.py: not an option the user set. */
const LLAMA_PY_UNSET: Record<string, string> = { 'rope-freq-base': '0', 'rope-freq-scale': '0', 'yarn-orig-ctx': '0', 'rope-scaling': '-1' };

function readLlamaCppPythonLaunch(inv: Invocation, start: number): LaunchRequest {
  const r = readArgv(inv.argv, start, LLAMA_PY_SPECS, { equals: true, underscores: false });
  // Options are written in llama-cpp-python's own spelling; fixes that would add llama-server flags are not offered.
  const shown: Invocation = { ...inv };
  delete shown.append;
  const req: LaunchRequest = {
    program: 'llama.cpp',
    role: 'serving',
    invocation: shown,
    rope: {},
    problems: [],
    notes: ["llama-cpp-python's server (python -m llama_cpp.server) runs one context of n_ctx tokens (no server slots)."],
  };
  const get = (name: string): OptionUse | undefined => {
    const cli = lastUse(r, name);
    if (cli) return cli;
    // pydantic-settings: the field's name in any case.
    const field = LLAMA_PY_FIELD[name];
    const key = Object.keys(inv.env).find((k) => k.toLowerCase() === field);
    return key ? envUse(name, inv.env[key]) : undefined;
  };
  const model = get('hf-repo') ?? get('model');
  if (model?.value) req.model = model.value;
  if (get('config-file')) req.notes.push('--config_file settings are not read: the models and lengths it sets are unknown here.');
  const ctx = get('ctx-size');
  if (ctx?.value) {
    const v = /^\s*\d+\s*$/.test(ctx.value.value) ? Number(ctx.value.value) : NaN;
    if (!Number.isFinite(v))
      req.problems.push({
        token: ctx.value,
        kind: 'bad-value',
        severity: 'error',
        message: `llama-cpp-python reads --n_ctx as an integer: ${shownValue(ctx.value.value)} stops it with "invalid int value".`,
      });
    else if (v === 0) req.notes.push("--n_ctx 0 takes the context from the model (the GGUF's context_length).");
    else req.length = { value: v, option: ctx };
  } else {
    req.notes.push('--n_ctx absent: llama-cpp-python serves 2048 tokens (settings.py default).');
  }
  for (const name of LLAMA_ROPE_OPTIONS) {
    const u = get(name);
    if (!u?.value || u.value.value.trim() === LLAMA_PY_UNSET[name]) continue;
    if (name === 'rope-scaling') {
      const type = LLAMA_PY_SCALING[u.value.value.trim()];
      if (!type) {
        req.problems.push({
          token: u.value,
          kind: 'bad-value',
          severity: 'error',
          message: `llama-cpp-python's --rope_scaling_type is llama.cpp's integer code (0 none, 1 linear, 2 yarn): ${shownValue(u.value.value)} is not one.`,
        });
        continue;
      }
      // The request speaks llama.cpp's names; the integer written stays untouched by fixes.
      req.rope[name] = { ...u, value: { ...u.value, value: type, from: "llama-cpp-python's integer code" } };
      continue;
    }
    req.rope[name] = u;
  }
  for (const u of r.unknown) {
    const dashed = u.name.replace(/^--/, '').replace(/-/g, '_');
    const field = LLAMA_PY_SPECS.find((s) => s.flags[0] === `--${dashed}`);
    if (field && dashed !== u.name.slice(2)) {
      req.problems.push({
        token: u.flag,
        kind: 'misspelled',
        severity: 'error',
        message: `llama-cpp-python's options are its settings' field names: ${u.name} stops argparse with "unrecognized arguments". Write ${field.flags[0]}.`,
        ...(u.flag.quote === 'none' && !u.flag.value.includes('=') ? { replacement: field.flags[0] } : {}),
      });
    } else {
      // A llama-server flag (`-c`, `--ctx-size`): llama-cpp-python's field for it, when it has one.
      const server = LLAMA_SPECS.find((s) => s.flags.includes(u.name));
      const pyField = server ? LLAMA_PY_FIELD[server.name] : undefined;
      if (server || u.name in LLAMA_FOREIGN) {
        req.problems.push({
          token: u.flag,
          kind: 'foreign',
          severity: 'error',
          message: `llama-cpp-python does not know ${u.name}${server ? ' (a llama-server flag)' : ''}: argparse stops with "unrecognized arguments".${pyField ? ` Its option is --${pyField}.` : ''}`,
          ...(pyField && u.flag.quote === 'none' ? { replacement: `--${pyField}` } : {}),
        });
      }
    }
  }
  return req;
}

/** Which llama.cpp front-end the invocation runs (`llama-server`, `llama-cli`, llama-cpp-python's `llama_cpp.server`). */
function llamaProgramOf(inv: Invocation): string | undefined {
  return afterPythonModule(inv.argv, ['llama_cpp.server']) > 0 ? 'llama_cpp.server' : llamaStart(inv)?.program;
}

/** llama-server (and the old `server` binary) serve slots capped at the GGUF's length; the CLIs and llama-cpp-python run one context. */
function isLlamaServerProgram(program: string | undefined): boolean {
  return program === undefined || program === 'llama-server' || program === 'server';
}

export function readLlamaCppLaunch(inv: Invocation): LaunchRequest | undefined {
  const py = afterPythonModule(inv.argv, ['llama_cpp.server']);
  if (py > 0) return readLlamaCppPythonLaunch(inv, py);
  const where = llamaStart(inv);
  if (!where) return undefined;
  const r = readArgv(inv.argv, where.start, LLAMA_SPECS, { equals: false, underscores: true });
  const req: LaunchRequest = { program: 'llama.cpp', role: 'serving', invocation: inv, rope: {}, problems: [], notes: where.note ? [where.note] : [] };
  if (!isLlamaServerProgram(where.program)) req.notes.push(`${where.program} runs one context of -c tokens (no server slots).`);
  const get = (name: string): OptionUse | undefined => {
    const cli = lastUse(r, name);
    if (cli) return cli;
    const env = LLAMA_ENV[name] ? inv.env[LLAMA_ENV[name]] : undefined;
    return env ? envUse(name, env) : undefined;
  };
  const model = get('model') ?? get('hf-repo');
  if (model?.value) req.model = model.value;
  const ctx = get('ctx-size');
  if (ctx?.value) {
    // std::stoi: leading blanks, a sign, digits; whatever follows is silently dropped (`32k` → 32).
    const m = /^\s*([+-]?\d+)/.exec(ctx.value.value);
    const v = m ? Number(m[1]) : NaN;
    if (!Number.isFinite(v))
      req.problems.push({
        token: ctx.value,
        kind: 'bad-value',
        severity: 'error',
        message: `llama.cpp reads -c with std::stoi: ${shownValue(ctx.value.value)} is not a number and it stops with "error while handling argument".`,
      });
    else {
      if (m![0].length !== ctx.value.value.length && ctx.value.value.slice(m![0].length).trim() !== '') {
        req.problems.push({
          token: ctx.value,
          kind: 'bad-value',
          severity: 'warning',
          message: `llama.cpp reads -c with std::stoi, which stops at the first non-digit: ${shownValue(ctx.value.value)} is read as ${v} tokens (no k suffixes).`,
        });
      }
      if (v === 0) req.notes.push("-c 0 takes the context from the model (the GGUF's context_length).");
      else req.length = { value: v, option: ctx };
    }
  }
  for (const name of [...LLAMA_ROPE_OPTIONS, 'parallel']) {
    const u = get(name);
    if (u) req.rope[name] = u;
  }
  const kv = r.uses.filter((u) => u.name === 'override-kv' && u.value && /\.context_length=int:\d+$/.test(u.value.value));
  if (kv.length) req.rope['override-kv'] = kv[kv.length - 1];
  const st = req.rope['rope-scaling']?.value;
  if (st && !['none', 'linear', 'yarn'].includes(st.value)) {
    req.problems.push({
      token: st,
      kind: 'bad-value',
      severity: 'error',
      message: `llama.cpp's --rope-scaling takes none, linear or yarn: ${shownValue(st.value)} stops it with "invalid value".`,
    });
  }
  for (const u of r.unknown) {
    const replacement = LLAMA_FOREIGN[u.name];
    if (u.name in LLAMA_FOREIGN) {
      req.problems.push({
        token: u.flag,
        kind: 'foreign',
        severity: 'error',
        message: `llama.cpp does not know ${u.name}: it stops with "error: invalid argument: ${u.name}".${replacement ? ` Its option is ${replacement}.` : ''}`,
        ...(replacement ? { replacement } : {}),
      });
      continue;
    }
    // `--ctx-size=8192`: llama.cpp has no `=` form; the whole token is an invalid argument.
    const eq = u.name.indexOf('=');
    if (eq > 0) {
      const flag = u.name.slice(0, eq).replace(/_/g, '-');
      if (LLAMA_SPECS.some((s) => s.flags.includes(flag))) {
        const p = {
          token: u.flag,
          kind: 'misspelled' as const,
          severity: 'error' as const,
          message: `llama.cpp has no --flag=value form: ${u.flag.value} stops it with "error: invalid argument: ${u.name}". Write ${flag} ${u.name.slice(eq + 1)}.`,
        };
        req.problems.push(u.flag.quote === 'none' ? { ...p, replacement: `${flag} ${u.flag.value.slice(u.flag.value.indexOf('=') + 1)}` } : p);
      }
    }
  }
  return req;
}
/**
 * What a GGUF's file name says about its family when the model is not in the catalog: enough for
 * the flags' own meaning (`--rope-scale` without `--rope-scaling` is linear on a GGUF that stores no
 * scaling type: llama-model.cpp reads `<arch>.rope.scaling.type` with "linear" as the default).
 * Qwen2/Qwen2.5/Qwen3 checkpoints ship no rope_scaling (so their GGUFs store none) and Qwen
 * documents YaRN over 32,768 tokens for longer inputs. The 1M, 2507 and VL variants differ and are
 * not guessed.
 */
export function ggufFamilyFromName(ref: string): { family: string; storesScaling: false; yarnOriginal: number } | undefined {
  const base = ref.replace(/\\/g, '/').split('/').pop() ?? ref;
  const name = base.toLowerCase();
  if (/-1m|2507|[-_.]vl[-_.]|next/.test(name)) return undefined;
  const m = /(?:^|[^a-z])(qwen2\.5|qwen2|qwen3)(?=[-_.])/.exec(name);
  if (!m) return undefined;
  const family = m[1] === 'qwen2.5' ? 'Qwen2.5' : m[1] === 'qwen3' ? 'Qwen3' : 'Qwen2';
  return { family, storesScaling: false, yarnOriginal: 32768 };
}

/**
 * What llama.cpp runs for this command. The GGUF carries the scaling its conversion wrote (yarn and
 * linear with their factor and original; dynamic dropped; llama3/longrope baked into tensors). The
 * flags replace it: `--rope-scaling` the type (else the GGUF's, else linear), `--rope-scale N` the
 * factor (`--rope-freq-scale F` = 1/F), `--yarn-orig-ctx` the original (0 = the GGUF's training
 * context), `--rope-freq-base` the base. llama-server caps each slot at the GGUF's context_length
 * unless `--override-kv <arch>.context_length=int:N` raises it.
 */
export function llamaCppLaunchEffect(req: LaunchRequest, input: ServingInput): LaunchEffect {
  const notes: string[] = [];
  const own = scalingFacts(input.rope);
  const ggufFacts: ScalingFacts = own.type === 'dynamic' ? { ...own, type: 'none' } : own;
  const num = (name: string): number | undefined => {
    const v = req.rope[name]?.value?.value;
    const n = v === undefined ? NaN : Number(v);
    return Number.isFinite(n) ? n : undefined;
  };
  let rope: ModelRope = input.rope;
  let facts = ggufFacts;
  const base = num('rope-freq-base');
  if (base !== undefined && base > 0) rope = { ...rope, base: { value: base, key: '--rope-freq-base', note: 'command line' } };
  const typeFlag = req.rope['rope-scaling']?.value?.value;
  const scale = num('rope-scale');
  const freqScale = num('rope-freq-scale');
  const factor = scale !== undefined && scale > 0 ? scale : freqScale !== undefined && freqScale > 0 ? 1 / freqScale : undefined;
  const orig = num('yarn-orig-ctx');
  const flagged = typeFlag !== undefined || factor !== undefined || (orig !== undefined && orig > 0);
  let fromCommand = false;
  if (flagged) {
    const ggufType = ggufFacts.type === 'yarn' || ggufFacts.type === 'linear' ? ggufFacts.type : undefined;
    const type = typeFlag === 'none' || typeFlag === 'linear' || typeFlag === 'yarn' ? typeFlag : (ggufType ?? 'linear');
    if (type === 'none') {
      facts = { type: 'none', params: {}, keyPath: 'rope_scaling' };
      rope = { ...rope, scaling: undefined };
    } else {
      const f = factor ?? ggufFacts.factor ?? 1;
      const params: Record<string, unknown> = { rope_type: type, factor: f };
      if (type === 'yarn') params['original_max_position_embeddings'] = orig && orig > 0 ? orig : (ggufFacts.original ?? llamaCppTrainContext(input));
      const w = withScaling(rope, params, 'command line');
      rope = w.rope;
      facts = w.facts;
      fromCommand = true;
      if (f === 1) notes.push(`${type} scaling with factor 1 changes nothing.`);
    }
  }
  let derived = llamaCppTrainContext(input);
  const kv = req.rope['override-kv']?.value?.value;
  const m = kv ? /\.context_length=int:(\d+)$/.exec(kv) : null;
  if (m) derived = Number(m[1]);
  const basis = m ? '--override-kv context_length' : `the GGUF's context_length (max_position_embeddings at conversion)`;
  const program = req.invocation ? llamaProgramOf(req.invocation) : undefined;
  return {
    rope,
    facts,
    derived,
    basis,
    scalingFromCommand: fromCommand,
    replacesModelScaling: fromCommand && ggufFacts.type !== 'none',
    notes,
    overLength: isLlamaServerProgram(program) ? 'caps' : 'warns',
  };
}
// ==== end of launch grammar (h-engines) ====================================================

import type { Engine } from './engine';
import { fmt } from '../core/format';

export const llamaCppEngine: Engine = {
  id: 'llama.cpp',
  label: 'llama.cpp',
  readArgv: readLlamaCppLaunch,
  argumentsOnly: { image: 'ghcr.io/ggml-org/llama.cpp:server', options: ['--ctx-size', '--rope-freq-base', '--rope-scale'] },
  imageEntrypoint: (image) => {
    if (!isLlamaCppImage(image)) return undefined;
    const tag = imageRepo(image).tag ?? '';
    // `.devops/*.Dockerfile`: the full image's tools.sh picks a tool by its first argument.
    if (tag.startsWith('full')) return { command: '/app/tools.sh', firstArgument: 'the tool to run' };
    return { command: tag.startsWith('light') ? '/app/llama-cli' : '/app/llama-server', firstArgument: 'an argument it refuses' };
  },
  effect: llamaCppLaunchEffect,
  plan: llamaCppPlan,
  env: /^LLAMA_ARG_(MODEL|HF_REPO|CTX_SIZE|N_PARALLEL|ROPE_.*|YARN_.*)$/,
  scalingFlags: {
    write: (s) => (s.type === 'dynamic' ? undefined : llamaCppScalingOptions(s)),
    typeOption: 'rope-scaling',
    scales: [{ name: 'rope-scale' }, { name: 'rope-freq-scale', inverse: true }],
    originalOption: 'yarn-orig-ctx',
    scaleAloneIsLinear: true,
  },
  replacesScaling: "the flags replace the GGUF's rope.scaling values",
  honoursWindows: llamaCppHonoursWindows,
  liftLength(modelType, length) {
    const arch = llamaCppArch(modelType);
    return arch ? { name: 'override-kv', flag: '--override-kv', value: `${arch}.context_length=int:${length}` } : undefined;
  },
  overLengthText(w) {
    const C = fmt(w.length),
      D = fmt(w.derived);
    const by = w.covered
      ? `${w.covered} scaling in effect`
      : w.raisedBase
        ? `raised --rope-freq-base ${fmt(w.raisedBase.base)} (the NTK-aware base for ×${fmt(w.raisedBase.factor)})`
        : undefined;
    if (w.verdict === 'caps') {
      return `${w.label} ${C} is above the GGUF's context_length ${D} for ${w.model}: llama-server caps each slot there ("the slot context (…) exceeds the training context of the model (${w.derived}) - capping") and serves ${D}, not ${C}.${by ? ` The ${by} covers ${C}: --override-kv raises the cap.` : ''}`;
    }
    return `${w.label} ${C} is above the GGUF's context_length ${D} for ${w.model}: llama.cpp runs it and only warns "n_ctx_seq (${w.length}) > n_ctx_train (${w.derived}) -- possible training context overflow"${by ? '' : `; positions past ${D} are extrapolated`}.`;
  },
  gguf: true,
  familyFromFileName: ggufFamilyFromName,
};
