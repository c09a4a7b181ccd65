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
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, hasWindows, modernKeys, servingOf } from './consumer';
import { ScalingFacts, argNumber, grouped, lengthKeys, scalingFacts, targetContext } from './common';

const GGUF_CONTEXT_KEYS = ['max_position_embeddings', 'n_ctx', 'n_positions', 'max_length', 'max_sequence_length', 'model_max_length'];

/** transformers model_type → llama.cpp architecture name (the GGUF key prefix). */
const ARCH: Record<string, string> = {
  llama: 'llama', mistral: 'llama', mixtral: 'llama', qwen2: 'qwen2', qwen2_moe: 'qwen2moe', qwen3: 'qwen3', qwen3_moe: 'qwen3moe',
  phi3: 'phi3', phi: 'phi2', deepseek_v2: 'deepseek2', deepseek_v3: 'deepseek2', gemma: 'gemma', gemma2: 'gemma2', gemma3: 'gemma3',
  gemma3_text: 'gemma3', gpt_oss: 'gpt-oss', olmo: 'olmo', olmo2: 'olmo2', granite: 'granite', cohere: 'command-r',
  starcoder2: 'starcoder2', internlm2: 'internlm2', exaone: 'exaone', chatglm: 'chatglm', glm4: 'glm4', stablelm: 'stablelm',
  falcon: 'falcon', gpt_neox: 'gptneox', qwen: 'qwen', minicpm: 'minicpm', baichuan: 'baichuan',
};

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

/** The flags that set a yarn/linear scaling, or why none can. */
export function llamaCppScalingFlags(facts: ScalingFacts, trained: number): { flags: string[]; notes: string[] } {
  const notes: string[] = [];
  const f = facts.factor;
  switch (facts.type) {
    case 'yarn': {
      if (f === undefined) return { flags: [], notes: ['The YaRN scaling has no factor: no --rope-scale can be written.'] };
      const flags = ['--rope-scaling', 'yarn', '--rope-scale', argNumber(f), '--yarn-orig-ctx', String(facts.original ?? trained)];
      for (const [key, flag] of [['beta_fast', '--yarn-beta-fast'], ['beta_slow', '--yarn-beta-slow']] as const) {
        const v = facts.params[key];
        if (typeof v === 'number' && v !== YARN_BETA_DEFAULTS[key]) flags.push(flag, argNumber(v));
      }
      if (facts.params['mscale_all_dim'] !== undefined || facts.params['attention_factor'] !== undefined || facts.params['mscale'] !== undefined) {
        notes.push('The YaRN attention scale (mscale, mscale_all_dim, attention_factor) comes from the GGUF keys written at conversion; no flag reproduces it.');
      }
      if (facts.original === undefined) notes.push(`The scaling has no original_max_position_embeddings: --yarn-orig-ctx uses the trained context ${grouped(trained)}.`);
      return { flags, notes };
    }
    case 'linear':
      if (f === undefined) return { flags: [], notes: ['The linear scaling has no factor.'] };
      return { flags: ['--rope-scaling', 'linear', '--rope-scale', argNumber(f)], notes };
    case 'dynamic':
      return { flags: [], notes: ['llama.cpp has no dynamic NTK scaling (its --rope-scaling takes none, linear or yarn) and the conversion drops it: the model runs unscaled.'] };
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
  const baseFrom = theta === undefined ? 'default rope_theta 10000 (not read from the file)' : params?.['rope_theta'] !== undefined ? `${where}.rope_theta` : 'rope_theta';
  return llamaCppRow(input, params ? { base: theta ?? 10000, baseFrom, scaling: params } : { base: theta ?? 10000, baseFrom }, notes);
}

/**
 * Model classes whose conversion writes `<arch>.attention.sliding_window` (Gemma2Model and
 * Cohere2Model call `add_sliding_window(self.hparams["sliding_window"])`); for the others the
 * window was not checked.
 */
const WRITES_WINDOW = new Set(['gemma2', 'cohere2']);

function llamaCppRow(input: ConsumerInput, read: { base: number; baseFrom: string; scaling?: Record<string, unknown> }, notes: string[]): ConsumerReading {
  const windows = !hasWindows(input) ? 'n/a' : WRITES_WINDOW.has(input.view.modelType ?? '') ? 'honoured' : 'not verified';
  const row = engineRow(
    { consumer: 'llama.cpp', label: 'llama.cpp (convert_hf_to_gguf.py)', pkg: 'llama.cpp', windows, source: 'convert_hf_to_gguf.py::TextModel.__init__, Gemma2Model/Cohere2Model.set_gguf_parameters (master); tools/server/server-context.cpp' },
    read, llamaCppTrainContext(servingOf(input)), notes,
  );
  if (row.scalingType === 'dynamic') return { ...row, scalingType: 'none', factor: null, scalingDropped: 'dynamic', notes: [...notes, 'dynamic scaling is not converted: the model runs unscaled'] };
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
  if (facts.type === 'none' && context > input.trainedContext) {
    const s = context / input.trainedContext;
    flags = ['--rope-scaling', 'yarn', '--rope-scale', argNumber(s), '--yarn-orig-ctx', String(input.trainedContext)];
    extended = true;
    notes.push(`The config has no RoPE scaling and ${grouped(context)} is beyond its trained context of ${grouped(input.trainedContext)}: the flags add YaRN factor ${argNumber(s)} (the preferred fix).`);
  }
  if (!input.gguf) notes.push('llama.cpp loads a GGUF: convert the model with convert_hf_to_gguf.py and pass the file to -m.');
  const args = ['llama-server', '-m', input.gguf ?? 'model.gguf', '-c', String(context), ...flags];
  if (context > nCtxTrain) {
    const arch = llamaCppArch(input.rope.modelType);
    if (arch) {
      args.push('--override-kv', `${arch}.context_length=int:${context}`);
      notes.push(`llama-server caps each slot at the GGUF's ${arch}.context_length (${grouped(nCtxTrain)}) and says only "exceeds the training context of the model - capping"; --override-kv raises it to ${grouped(context)}.`);
    } else {
      notes.push(`llama-server caps each slot at the GGUF's <arch>.context_length (${grouped(nCtxTrain)}); add --override-kv <arch>.context_length=int:${context} with the GGUF's general.architecture.`);
    }
    if (!extended) notes.push(`No flag scales past ${grouped(nCtxTrain)}: positions beyond it are extrapolated.`);
  }
  return { engine: 'llama.cpp', derivedMaxLen: nCtxTrain, context, args, env: {}, overrides: null, notes };
}
