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
  if (!input.gguf && !input.ggufHub) notes.push('llama.cpp loads a GGUF: convert the model with convert_hf_to_gguf.py and pass the file to -m.');
  // A Hub GGUF: llama-server fetches the file itself (common/arg.cpp: --hf-repo, --hf-file).
  const model = input.ggufHub ? ['--hf-repo', input.ggufHub.repo, '--hf-file', input.ggufHub.file] : ['-m', input.gguf ?? 'model.gguf'];
  const args = ['llama-server', ...model, '-c', String(context), ...flags];
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
