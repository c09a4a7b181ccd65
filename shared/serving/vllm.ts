/**
 * vLLM: the maximum model length it derives from a config, and the `vllm serve` command that runs
 * the model at a context with the config's scaling.
 *
 * Rules read from vllm-project/vllm `vllm/config/model.py::_get_and_verify_max_len` (commit
 * 0052a5b818980ce8a0477706aaf9f75bd5af72cd) and
 * `vllm/transformers_utils/config.py::patch_rope_parameters`:
 *  - the base length is the SMALLEST of max_position_embeddings, n_positions, max_seq_len,
 *    seq_length, model_max_length, max_target_positions, max_sequence_length, max_seq_length,
 *    seq_len; a `model_max_length` in the config replaces it; none of them → 2048;
 *  - rope scaling (legacy `type` patched to `rope_type`), skipped for gemma3 (already scaled):
 *    su/longrope/llama3 leave it; any other type multiplies by `factor` (default 1), and yarn
 *    first replaces the base by `original_max_position_embeddings`;
 *  - with `--disable-sliding-window`, a `sliding_window` (hf_text_config.sliding_window, as
 *    transformers leaves it: Qwen2/3 with use_sliding_window false keep None) smaller than that
 *    length replaces it BEFORE the rope factor is applied (so a Mistral-7B-v0.1 derives 4,096,
 *    a Gemma-3 1,024: every layer then attends in full, capped at the window);
 *  - `--max-model-len` above that raises ValueError unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1;
 *  - without `--max-model-len`, longrope models default to original_max_position_embeddings.
 * `--rope-scaling` / `--rope-theta` were removed (vllm PR #28006): scaling goes in `--hf-overrides`.
 */
import { beforeFirst } from '../core/text';
import { editedBase } from '../config/editOrDerivative';
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, factsOfReading, hasWindows, legacyKeys, modernKeys, servingOf, versionBefore } from './consumer';
import { familyDefaultBase } from '../config/families';
import { knownTo4x } from './transformers';
import {
  ScalingFacts,
  factsOfObject,
  grouped,
  isHandAddedType,
  jsonText,
  lengthKeys,
  modelRef,
  modernScaling,
  overrideAt,
  planRewrite,
  unwrittenRewrite,
  recommendedRewrite,
  reachNotes,
  rewriteNote,
  rewriteOverride,
  scalingFacts,
  staticYarnNote,
  targetContext,
  restoredBaseNote,
} from './common';
import { derivativeNote } from '../config/reach';
import { VLLM_LENGTH_KEYS } from './contextKeys';

const LENGTH_KEYS = VLLM_LENGTH_KEYS;
const DEFAULT_LEN = 2048;

export const VLLM_LONG_ENV = 'VLLM_ALLOW_LONG_MAX_MODEL_LEN';

/** VLLM_ALLOW_LONG_MAX_MODEL_LEN as vllm/envs.py reads it: "1" or "true", any case, trimmed. */
export function vllmAllowsLong(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true'].includes(value.trim().toLowerCase());
}

/** The unscaled length vLLM starts from, and the key it came from. */
export function vllmBaseLength(input: ServingInput): { value: number; key: string } {
  const keys = lengthKeys(input);
  let best: { value: number; key: string } | undefined;
  for (const k of LENGTH_KEYS) {
    const v = keys[k];
    if (typeof v === 'number' && Number.isFinite(v) && (!best || v < best.value)) best = { value: v, key: k };
  }
  if (typeof keys['model_max_length'] === 'number') best = { value: keys['model_max_length'], key: 'model_max_length' };
  return best ?? { value: DEFAULT_LEN, key: 'default' };
}

/**
 * What an override sets to raise vLLM's length to `length`: max_position_embeddings, and every other
 * key it reads that the config writes below `length` (it takes the smallest: Qwen-1's seq_length 8192).
 */
export function vllmLengthValues(input: ServingInput, length: number): Record<string, number> {
  const keys = lengthKeys(input);
  const out: Record<string, number> = { max_position_embeddings: length };
  for (const k of LENGTH_KEYS) if (typeof keys[k] === 'number' && keys[k] < length) out[k] = length;
  return out;
}

export interface VllmEngineOptions {
  /** `--disable-sliding-window` (`disable-sliding-window: true` in a `--config` YAML). */
  disableSlidingWindow?: boolean;
}

/** The sliding window vLLM reads (hf_text_config.sliding_window), or undefined when windows are off. */
export function vllmSlidingWindow(input: ServingInput): number | undefined {
  const w = input.rope.slidingWindow?.value;
  return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : undefined;
}

/** vLLM's derived max_model_len for the config, or with `facts` in place of its scaling (an override). */
export function vllmDerivedMaxLen(input: ServingInput, facts: ScalingFacts = scalingFacts(input.rope), opts: VllmEngineOptions = {}): number {
  let derived = vllmBaseLength(input).value;
  const window = opts.disableSlidingWindow ? vllmSlidingWindow(input) : undefined;
  if (window !== undefined && window < derived) derived = window;
  const gemma3 = (input.rope.modelType ?? '').includes('gemma3');
  if (facts.type !== 'none' && !gemma3 && facts.type !== 'longrope' && facts.type !== 'llama3') {
    const factor = facts.factor ?? 1;
    // transformers v5 standardize_rope_params defaults yarn's original to max_position_embeddings.
    if (facts.type === 'yarn') derived = facts.original ?? input.rope.contextLength.value;
    derived *= factor;
  }
  return Math.floor(derived);
}

/**
 * How vLLM reads a config's RoPE keys (the consumer table). vLLM ≥ 0.24 refuses to start on
 * transformers 4.x (`vllm/transformers_utils/config.py` @ 0036026: "Support for Transformers v4 is
 * deprecated and was removed in vLLM v0.24.0"), so it reads through transformers 5
 * (rope_scaling first, else rope_parameters; rope_theta inside wins), then
 * `patch_rope_parameters_dict` maps a legacy `type` to `rope_type` and `su` to longrope.
 * Earlier releases on transformers 4.x copied the 4.x class default rope_theta over
 * rope_parameters.rope_theta (`patch_rope_parameters`, stored vLLM config.py before the v5 switch).
 */
export function vllmReading(input: ConsumerInput): ConsumerReading {
  const read = modernKeys(input);
  const row = engineRow(
    // Windows: ModelConfig.get_sliding_window returns hf_config.sliding_window (unless --disable-sliding-window).
    {
      consumer: 'vllm',
      label: 'vLLM ≥ 0.24',
      pkg: 'vllm',
      range: { from: '0.24.0' },
      windows: hasWindows(input) ? 'honoured' : 'n/a',
      source:
        'vllm/transformers_utils/config.py::patch_rope_parameters @ 0036026; vllm/config/model.py::_get_and_verify_max_len, ModelConfig.get_sliding_window',
    },
    read,
    vllmDerivedMaxLen(servingOf(input), factsOfReading(input, read.scaling)),
  );
  const attentionFactor = vllmAttentionFactor(input.rope.modelType, row.scalingType, read.scaling);
  const deepseek = !!input.rope.modelType && ATTENTION_READS[input.rope.modelType] === DEEPSEEK_READS;
  const how =
    row.scalingType === 'yarn' && attentionFactor !== null && !deepseek
      ? `vLLM's YaRN reads none of attention_factor, mscale or mscale_all_dim and uses 0.1·ln(${row.factor ?? 1}) + 1`
      : undefined;
  return { ...row, attentionFactor, ...(how ? { attentionFactorHow: how } : {}) };
}

/** vLLM's yarn_get_mscale (rotary_embedding/common.py): 1 at or below scale 1, else 0.1·mscale·ln(scale) + 1. */
function yarnGetMscale(scale: number, mscale = 1): number {
  return scale <= 1 ? 1 : 0.1 * mscale * Math.log(scale) + 1;
}

/**
 * The cos/sin multiplier vLLM's rotary embedding applies, where verified (null elsewhere):
 * `vllm/model_executor/layers/rotary_embedding/__init__.py::get_rope` @ 0036026:
 * - "yarn" → YaRNScalingRotaryEmbedding, which is passed only extrapolation_factor, attn_factor,
 *   beta_fast, beta_slow, apply_yarn_scaling and truncate: mscale, mscale_all_dim and
 *   attention_factor are not read; its multiplier is yarn_get_mscale(factor) × attn_factor
 *   (attn_factor alone with apply_yarn_scaling false);
 * - DeepSeek-V2/V3 attention renames any scaling to "deepseek_yarn" (models/deepseek_v2.py, see
 *   DEEPSEEK_READS) → DeepseekScalingRotaryEmbedding: yarn_get_mscale(factor, mscale) /
 *   yarn_get_mscale(factor, mscale_all_dim) × attn_factor, defaults mscale 1, mscale_all_dim 0;
 * - no scaling, linear, dynamic, llama3: 1. longrope's short/long mscale and other models' own
 *   attention code (MLA variants not listed) are not modelled.
 */
export function vllmAttentionFactor(modelType: string | undefined, type: string | null, scaling: Record<string, unknown> | undefined): number | null {
  const num = (k: string, d: number) => (typeof scaling?.[k] === 'number' && Number.isFinite(scaling[k]) ? (scaling[k] as number) : d);
  if (type === 'none' || type === 'linear' || type === 'dynamic' || type === 'llama3') return 1;
  if (type !== 'yarn') return null;
  const factor = num('factor', 1);
  const attn = num('attn_factor', 1);
  if (modelType && ATTENTION_READS[modelType] === DEEPSEEK_READS)
    return (yarnGetMscale(factor, num('mscale', 1)) / yarnGetMscale(factor, num('mscale_all_dim', 0))) * attn;
  // Other MLA models build their own rotary embedding in vLLM: not verified here.
  if (modelType && MLA_NOT_VERIFIED.has(modelType)) return null;
  return scaling?.['apply_yarn_scaling'] === false ? attn : yarnGetMscale(factor) * attn;
}

/**
 * vLLM before 0.24, on the transformers 4.x it then installed: the config object is 4.x's, so the
 * base is `config.rope_theta` (the class default when the file has only rope_parameters). Releases
 * with `patch_rope_parameters` copy that default over `rope_parameters["rope_theta"]` and keep the
 * dict's scaling (stored vLLM config.py with the "Transformers v4 installed" branch); older ones
 * (`patch_rope_scaling`) read `rope_scaling` only. The scaling cell is left unjudged for a file with
 * rope_parameters, since the two kinds of release differ there.
 */
export function vllmLegacyReading(input: ConsumerInput): ConsumerReading {
  const read = legacyKeys(input, familyDefaultBase(input.view.modelType).value);
  const row = engineRow(
    {
      consumer: 'vllm-4x',
      label: 'vLLM < 0.24 (transformers 4.x)',
      pkg: 'vllm',
      range: { before: '0.24.0' },
      windows: hasWindows(input) ? 'honoured' : 'n/a',
      source: 'vllm/transformers_utils/config.py::patch_rope_parameters (transformers v4 branch) and ::patch_rope_scaling',
    },
    read,
    vllmDerivedMaxLen(servingOf(input), factsOfReading(input, read.scaling)),
  );
  if (!knownTo4x(input.view.modelType))
    return {
      ...row,
      status: 'cannot-load',
      base: null,
      scalingType: null,
      factor: null,
      notes: [`no transformers 4.x config class for model_type ${input.view.modelType ?? '(none)'}`],
    };
  if (!input.view.ropeParameters) return row;
  return {
    ...row,
    scalingType: null,
    factor: null,
    notes: [
      "rope_parameters is not read for the base (transformers 4.x's class default wins); releases with patch_rope_parameters keep its scaling, older ones ignore it",
    ],
  };
}

/** Why vLLM's attention for this model reads no override rope_scaling or rope_theta (ChatGLM), when it does not. */
export function vllmIgnoresRopeKeys(modelType: string | undefined): string | undefined {
  return ratioOnlyReason('vLLM', modelType);
}

export function vllmPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const ratioOnly = vllmIgnoresRopeKeys(input.rope.modelType);
  const context = targetContext(input, facts);
  const derivedMaxLen = vllmDerivedMaxLen(input, facts);
  const notes: string[] = [];
  let scaling: Record<string, unknown> | undefined;
  let overrides: Record<string, unknown> | null = null;
  let rewrite: ServingPlan['rewrite'];
  let mpe: number | undefined;
  let advice: ReturnType<typeof recommendedRewrite>;
  if (isHandAddedType(facts.type)) {
    scaling = modernScaling(facts.params);
    notes.push(
      `--hf-overrides repeats the config's ${facts.type} scaling so a hub copy without it (or a stock config.json) runs the same; vLLM removed --rope-scaling (PR #28006).`,
    );
  } else if (facts.type === 'none' && ratioOnly) {
    // The one recommendation, named but not written: no override reaches this model's positions.
    const unwritable = recommendedRewrite(input, facts, context);
    if (unwritable) {
      const u = unwrittenRewrite(input, unwritable, ratioOnly);
      rewrite = u.rewrite;
      notes.push(u.note);
    }
  } else if (facts.type === 'none') {
    advice = recommendedRewrite(input, facts, context);
    if (advice) {
      const w = rewriteOverride(facts, advice.preferred, context, {
        restoreBase: editedBase(input.rope)?.shipped,
        lengthValues: (n) => vllmLengthValues(input, n),
      });
      overrides = w.override;
      scaling = w.scaling;
      mpe = w.context;
      rewrite = planRewrite(advice, true);
      notes.push(
        `${rewriteNote(input, advice, 'the override writes')}${restoredBaseNote(input, true)}${advice.preferred.kind === 'yarn' ? ' Static YaRN costs some quality on short inputs.' : ''}${derivativeNote(input.rope)}`,
      );
      // A scaling this model's attention drops on older releases: say which release the command needs.
      const need = scaling ? vllmScalingNeedsRelease(input.rope.modelType, undefined) : undefined;
      if (need)
        notes.push(
          `This command needs vLLM ≥ ${need.from}: before it, ${need.why}, so the override passes the length check and the model runs unscaled; there, serve at --max-model-len ${grouped(input.trainedContext)} instead.`,
        );
    }
  } else if (facts.type === 'llama3' || facts.type === 'longrope') {
    notes.push(
      `${facts.type} scaling is read from the model's config.json; vLLM's derived length is max_position_embeddings (it does not multiply by factor for ${facts.type}).`,
    );
    if (facts.type === 'longrope')
      notes.push(
        `Without --max-model-len vLLM serves longrope models at original_max_position_embeddings (${grouped(facts.original ?? input.trainedContext)}), so the flag is needed for the long context.`,
      );
  } else {
    notes.push(`RoPE type '${facts.rawType}' is not one vLLM derives a length for; the command sets only --max-model-len.`);
  }
  const yarn = staticYarnNote(facts, input.trainedContext, context, 'vLLM', input.rope);
  if (yarn) notes.push(yarn);
  notes.push(...reachNotes(input, facts, context, 'vLLM', derivedMaxLen));
  if (!overrides && scaling) overrides = overrideAt(facts.keyPath, scaling);
  const lengthWith = (n: number | undefined) =>
    vllmDerivedMaxLen(
      n !== undefined ? { ...input, contextKeys: { ...lengthKeys(input), ...vllmLengthValues(input, n) } } : input,
      scaling ? factsOfObject(input.rope, scaling, facts.keyPath) : facts,
    );
  let after = overrides ? lengthWith(mpe) : derivedMaxLen;
  if (advice && scaling && mpe === undefined && after < context) {
    // A scaling the engine does not stretch its length by (Gemma-3's is skipped) also raises the context.
    const w = rewriteOverride(facts, advice.preferred, context, {
      restoreBase: editedBase(input.rope)?.shipped,
      setsLength: true,
      lengthValues: (n) => vllmLengthValues(input, n),
    });
    overrides = w.override;
    mpe = w.context;
    after = lengthWith(mpe);
  }
  const env: Record<string, string> = {};
  if (context > after) {
    env[VLLM_LONG_ENV] = '1';
    notes.push(
      `${grouped(context)} is above the ${grouped(after)} vLLM derives${overrides ? ' with the override' : ''}: it refuses --max-model-len without ${VLLM_LONG_ENV}=1, and positions past ${grouped(after)} are extrapolated.`,
    );
  }
  const args = ['vllm', 'serve', modelRef(input), '--max-model-len', String(context)];
  if (overrides) args.push('--hf-overrides', jsonText(overrides));
  return { engine: 'vllm', derivedMaxLen, context, args, env, overrides, notes, ...(rewrite ? { rewrite } : {}) };
}

// ==== Launch grammar (h-engines): how vLLM reads its own command line ====================
//
// Verified in vllm-project/vllm:
//  - `vllm/utils/argparse_utils.py::FlexibleArgumentParser.parse_args` (older releases:
//    `vllm/utils.py`): `vllm serve MODEL`; `--model M` / `--model=M` is moved to the positional
//    slot (with a deprecation warning); every `--name` has its underscores turned into dashes up
//    to the first '.', so `--max_model_len` and `--hf_overrides` work; `--flag=value` is split;
//    `--json-arg.key.sub value` is merged into the JSON of `--json-arg` (the value through
//    json.loads, else human_readable_int, else the string); `--served-model-name` names the API
//    model, never the weights (and without a positional model it raises ValueError).
//  - `human_readable_int` / `human_readable_int_or_auto` (same file): see parseLength in
//    serving/vllmConfigFile.ts; `-1`/`auto` lets vLLM pick the length.
//  - `vllm/transformers_utils/config.py::get_config`: `config.update(hf_overrides_kw)` sets every
//    key as given (a whole `rope_scaling` object REPLACES the model's; no key is checked), then
//    `patch_rope_parameters`.
//  - `vllm/config/model.py::_get_and_verify_max_len`: `disable_sliding_window` caps the base
//    length at `sliding_window` (before the RoPE factor); the refusal message quoted in rules.
//  - `docker/Dockerfile` target `vllm-openai`: ENTRYPOINT `vllm serve` in current releases
//    (`python3 -m vllm.entrypoints.openai.api_server` before), so image arguments are serve arguments.
//  - `--rope-scaling` / `--rope-theta` were removed by PR #28006 (v0.11.1): "unrecognized arguments".
import type { Invocation, Token } from '../launch/types';
import type { GrammarProblem, LaunchRequest } from '../launch/request';
import { GrammarHabits, OptionSpec, ReadArgv, afterPythonModule, engineWrapper, imageIs, imageRepo, lastUse, programName, readArgv } from './argv';
import { type OverrideWords, flagIgnoredOverrideKeys, readOverrideOption } from './overrideOption';
import { wrappedLaunchProgram } from '../launch/sniff';
import { shownValue } from './argv';
import type { LaunchEffect } from './launchModel';
import { loadsPython } from '../document/strictJson';
import { overrideAsRead, ratioOnlyReason, scalingWords } from './launchModel';

export const VLLM_SPECS: OptionSpec[] = [
  { name: 'model', flags: ['--model'], takesValue: true },
  { name: 'max-model-len', flags: ['--max-model-len'], takesValue: true },
  { name: 'hf-overrides', flags: ['--hf-overrides'], takesValue: true },
  { name: 'served-model-name', flags: ['--served-model-name'], takesValue: true },
  { name: 'disable-sliding-window', flags: ['--disable-sliding-window'], takesValue: false },
  { name: 'rope-scaling', flags: ['--rope-scaling'], takesValue: true },
  { name: 'rope-theta', flags: ['--rope-theta'], takesValue: true },
  { name: 'config', flags: ['--config'], takesValue: true },
  { name: 'tokenizer', flags: ['--tokenizer'], takesValue: true },
];

/** `--hf-overrides` in vLLM's problems: ModelConfig applies it with config.update, which checks no key. */
const VLLM_OVERRIDE_WORDS: OverrideWords = {
  flag: '--hf-overrides',
  applied: "is set on the config as is and nothing reads it (vLLM's config.update checks no key)",
};

/** FlexibleArgumentParser: `--flag=value` splits, underscores read as dashes. */
export const VLLM_HABITS: GrammarHabits = { equals: true, underscores: true };

/** Other engines' options vLLM's parser refuses, with vLLM's own spelling where it has one. */
const VLLM_FOREIGN: Record<string, string | undefined> = {
  '--context-length': '--max-model-len',
  '--json-model-override-args': '--hf-overrides',
  '--model-path': '--model',
  '--mem-fraction-static': '--gpu-memory-utilization',
  '--model-id': '--model',
  '--max-total-tokens': '--max-model-len',
  '--ctx-size': '--max-model-len',
  '--rope-factor': undefined,
  '--rope-freq-base': undefined,
  '--rope-scale': undefined,
  '--yarn-orig-ctx': undefined,
};

// `vllm-cpu-env`: the tag vLLM's CPU install docs build docker/Dockerfile.cpu under (target vllm-openai, the same entrypoint).
export const VLLM_IMAGES = ['vllm/vllm-openai', 'vllm/vllm-openai-rocm', 'rocm/vllm', 'vllm-cpu-env'];

/** Where vLLM's serve arguments start in this invocation, or -1 when it is not a vLLM launch. */
function vllmArgsStart(inv: Invocation): { start: number; positionalModel: boolean; note?: string } | undefined {
  const argv = inv.argv;
  if (inv.entrypoint === 'image') {
    // The image under any registry (`vllm/vllm-openai`, a mirror's `…/vllm-openai`).
    if (!inv.image || !imageIs(inv.image.value, VLLM_IMAGES)) return undefined;
    // An image run whose command repeats `vllm serve` (ENTRYPOINT cleared) reads as a program.
    if (programName(argv[0]) === 'vllm' || afterPythonModule(argv, ['vllm.entrypoints.openai.api_server']) > 0)
      return vllmArgsStart({ ...inv, entrypoint: 'program' });
    return { start: 0, positionalModel: true };
  }
  if (programName(argv[0]) === 'vllm' && argv[1]?.value === 'serve') return { start: 2, positionalModel: true };
  const api = afterPythonModule(argv, ['vllm.entrypoints.openai.api_server', 'vllm.entrypoints.api_server']);
  if (api > 0) return { start: api, positionalModel: false };
  // `start_vllm MODEL --max-model-len …` (a wrapper defined elsewhere): vllm serve's grammar.
  const w = engineWrapper(argv, 'vllm', wrappedLaunchProgram, VLLM_SPECS, VLLM_HABITS, VLLM_FOREIGN);
  if (w) return { start: 1, positionalModel: true, note: w.note };
  return undefined;
}

export function readVllmLaunch(inv: Invocation): LaunchRequest | undefined {
  const where = vllmArgsStart(inv);
  if (!where) return undefined;
  // `vllm serve MODEL …`: the word right after serve is the model (read before the options, so an
  // unknown boolean flag later on cannot be mistaken for taking it as a value).
  const first = inv.argv[where.start];
  const leading = where.positionalModel && first && !first.value.startsWith('-') ? first : undefined;
  const r = readArgv(inv.argv, where.start + (leading ? 1 : 0), VLLM_SPECS, VLLM_HABITS);
  const req: LaunchRequest = { program: 'vllm', role: 'serving', invocation: inv, rope: {}, problems: [], notes: where.note ? [where.note] : [] };
  const positional = leading ?? (where.positionalModel ? r.positionals[0] : undefined);
  return vllmRequestOf(req, r, positional, inv.image);
}

/**
 * The request vLLM reads out of its options, wherever they were written: a command line
 * (readVllmLaunch) or a `--config` YAML (readVllmConfigFile, vllmConfigFile.ts), which vLLM itself
 * turns into the same `--key value` arguments. One reader, so both get the same problems.
 */
export function vllmRequestOf(req: LaunchRequest, r: ReadArgv, positional: Token | undefined, image: Token | undefined): LaunchRequest {
  const modelOpt = lastUse(r, 'model');
  const model = positional ?? modelOpt?.value;
  if (model) req.model = model;
  if (!model && lastUse(r, 'served-model-name'))
    req.notes.push('--served-model-name names the model in the API only; the weights come from the positional model or --model, and none is given.');
  if (lastUse(r, 'config')) req.notes.push('Options in the --config YAML are read by RoPE Lens when that file is opened; the command line wins over them.');

  const len = lastUse(r, 'max-model-len');
  if (len?.value) {
    const v = parseLengthOrAuto(len.value.value);
    if (v === 'auto') req.notes.push(`--max-model-len ${len.value.value} lets vLLM choose the length (the derived one, or what fits in memory).`);
    else if (Number.isFinite(v)) req.length = { value: v, option: len };
    else
      req.problems.push({
        token: len.value,
        kind: 'bad-value',
        severity: 'error',
        message: `vLLM cannot read ${shownValue(len.value.value)} as a length (human_readable_int takes 32768, 32k = 32,000, 32K = 32,768; no decimals with K/M/G): argparse refuses the command.`,
      });
  }

  const hf = lastUse(r, 'hf-overrides');
  let overrides = hf ? readOverrideOption(req, hf, VLLM_OVERRIDE_WORDS) : undefined;
  // `--hf-overrides.rope_scaling.factor 4`: merged into the JSON exactly as vLLM does.
  for (const u of r.unknown) {
    if (!u.name.startsWith('--hf-overrides.')) continue;
    const keys = u.name.slice('--hf-overrides.'.length).split('.');
    const raw = u.value?.value ?? '';
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      const n = parseLengthOrAuto(raw);
      value = typeof n === 'number' && Number.isFinite(n) ? n : raw;
    }
    overrides = overrides ?? {};
    let cur = overrides;
    keys.forEach((k, i) => {
      if (i === keys.length - 1) cur[k] = value;
      else cur = (cur[k] && typeof cur[k] === 'object' ? cur[k] : (cur[k] = {})) as Record<string, unknown>;
    });
    req.rope[`hf-overrides.${keys.join('.')}`] = { name: `hf-overrides.${keys.join('.')}`, flag: u.flag, value: u.value };
    if (!req.overrides) req.overrides = { option: { name: 'hf-overrides', flag: u.flag, value: u.value }, value: overrides };
    else req.overrides.value = overrides;
  }
  if (overrides) flagIgnoredOverrideKeys(req, overrides, VLLM_OVERRIDE_WORDS);
  for (const name of ['rope-scaling', 'rope-theta', 'disable-sliding-window']) {
    const u = lastUse(r, name);
    if (u) req.rope[name] = u;
  }
  const pinned = image ? vllmImageVersion(image.value) : undefined;
  for (const name of ['rope-scaling', 'rope-theta']) {
    const u = lastUse(r, name);
    if (!u) continue;
    if (pinned && versionBefore(pinned.join('.'), '0.11.1')) {
      req.problems.push(removedAtPinnedRelease(u.flag, name, pinned.join('.')));
    } else {
      req.problems.push({
        token: u.flag,
        kind: 'removed',
        severity: 'error',
        message: `vLLM removed the ${name} option (PR #28006, v0.11.1): this command fails with "unrecognized arguments". Pass the value through hf-overrides.${name.replace('-', '_')} instead.`,
      });
    }
  }
  for (const u of r.unknown) {
    if (!(u.name in VLLM_FOREIGN)) continue;
    const replacement = VLLM_FOREIGN[u.name];
    req.problems.push(foreignProblem('vllm', u.flag, u.name, replacement, u.value));
  }
  if (image && pinned) req.version = image;
  return req;
}

/**
 * Model types whose vLLM attention builds its rotary embedding without the config's scaling before
 * some release: a scaling override there passes the length check (the derived length reads the
 * override) and the model runs unscaled. One row per model, with the source read.
 */
const SCALING_FROM_RELEASE: Record<string, { from: string; why: string }> = {
  // vllm/model_executor/models/gemma2.py::Gemma2Attention.__init__: `get_rope(self.head_dim,
  // rotary_dim=self.head_dim, max_position=max_position_embeddings, base=self.rope_theta,
  // is_neox_style=True)`, no scaling, @ 025adfb (the v0.6 line) and in a v0.10-era copy (layer_types,
  // per_layer_sliding_window); `get_rope(..., rope_parameters=config.rope_parameters)` @ 02cda6e, the
  // rope_parameters refactor. 0.12.0 is the conservative bound: the first release line known to carry it.
  gemma2: {
    from: '0.12.0',
    why: "Gemma-2's attention builds its rotary embedding from rope_theta alone (get_rope without rope_scaling)",
  },
};

/** vLLM releases whose attention for this model type drops a scaling override (see SCALING_FROM_RELEASE). */
export function vllmScalingNeedsRelease(modelType: string | undefined, image: string | undefined) {
  const fact = modelType ? SCALING_FROM_RELEASE[modelType] : undefined;
  if (!fact) return undefined;
  const v = image ? vllmImageVersion(image) : undefined;
  if (!v) return { from: fact.from, why: fact.why };
  const named = v.join('.');
  return versionBefore(named, fact.from) ? { from: fact.from, why: fact.why, named } : undefined;
}

/** The release an image tag pins (`v0.10.1`, `0.10.1-cu128`), when it names one. */
export function vllmImageVersion(image: string): number[] | undefined {
  const { tag } = imageRepo(image);
  if (!imageIs(image, VLLM_IMAGES) || !tag) return undefined;
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(tag);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** argparse's refusal of an option it does not know (the value goes with it in the message). */
export function foreignProblem(engine: string, flag: Token, name: string, replacement: string | undefined, value?: Token): GrammarProblem {
  const shown = value && !/NaN|undefined|Infinity|\[object/.test(value.value) && value.value.length <= 60 ? `${name} ${value.value}` : name;
  const label = engine === 'vllm' ? 'vLLM' : engine === 'sglang' ? 'SGLang' : engine;
  const p: GrammarProblem = {
    token: flag,
    kind: 'foreign',
    severity: 'error',
    tokens: value && !flag.value.includes('=') ? [flag, value] : [flag],
    message: `${label} does not know ${name}: its argument parser stops with "unrecognized arguments: ${shown}" and the server never starts.${replacement ? ` ${label}'s option is ${replacement}.` : ''}`,
  };
  if (replacement) p.replacement = replacement;
  return p;
}
/**
 * The pinned release still reads a removed option: judged at that release the option works, so the
 * later removal is a fact for an upgrade, a hint (advice.md: a loud refusal is an error only where
 * that reader runs).
 */
function removedAtPinnedRelease(token: Token, name: string, version: string): GrammarProblem {
  return {
    token,
    kind: 'removed',
    severity: 'hint',
    message: `vLLM removed the ${name} option in v0.11.1 (PR #28006): the pinned ${version} still reads it, but a newer release stops with "unrecognized arguments". hf-overrides.${name.replace('-', '_')} works on both.`,
  };
}

/** A `pip install vllm==X` in the same file pins the release: removed options are judged there. */
function vllmAtRelease(req: LaunchRequest, version: string): void {
  if (req.version || !/^\d+(\.\d+)*$/.test(version) || !versionBefore(version, '0.11.1')) return;
  req.problems = req.problems.map((p) => {
    if (p.kind !== 'removed' || p.severity !== 'error') return p;
    const name = beforeFirst(p.token.value.replace(/^--/, ''), '=').replace(/_/g, '-');
    return name === 'rope-scaling' || name === 'rope-theta' ? removedAtPinnedRelease(p.token, name, version) : p;
  });
}

/**
 * What the removed `--rope-scaling`/`--rope-theta` meant (the launch fails on them, but the rest of
 * the command is judged as if they had been written the modern way, as the --config YAML path does).
 */
function removedMeaning(req: LaunchRequest): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const sc = req.rope['rope-scaling']?.value?.value;
  if (sc !== undefined) {
    // vLLM read the option with json.loads; a value that is not a JSON object meant nothing.
    const r = loadsPython(sc);
    const v = 'value' in r ? r.value : undefined;
    if (v && typeof v === 'object' && !Array.isArray(v)) out['rope_scaling'] = v;
  }
  const th = Number(req.rope['rope-theta']?.value?.value);
  if (req.rope['rope-theta'] && Number.isFinite(th)) out['rope_theta'] = th;
  return Object.keys(out).length ? out : undefined;
}

/**
 * What vLLM builds for this command: the model with `--hf-overrides` applied (config.update, then
 * patch_rope_parameters: a legacy `type` reads as rope_type), `--disable-sliding-window` capping the
 * base length at the window, and `_get_and_verify_max_len` on the result.
 */
export function vllmLaunchEffect(req: LaunchRequest, input: ServingInput): LaunchEffect {
  const given = req.overrides?.value ?? removedMeaning(req);
  const { applied: ov, dead, scope } = vllmAppliedOverrides(given, input.rope);
  const label = scope ? `hf-overrides.${scope}` : 'hf-overrides';
  // The length rule reads the merged config (applied); the attention runs `rope` (ChatGLM: rope_ratio only).
  const read = overrideAsRead(input.rope, ov, label, vllmIgnoresRopeKeys(input.rope.modelType));
  const { applied, rope, scaling, ignored } = read;
  const { facts } = applied;
  // config.update sets every key it is given: an override's seq_length is read as the config's own.
  const keys = keysWithOverride(VLLM_LENGTH_POLICY, input, ov);
  const notes: string[] = ignored ? [ignored] : [];
  const window = input.rope.slidingWindow?.value;
  if (req.rope['disable-sliding-window'] && typeof window === 'number' && window > 0) {
    const base = vllmBaseLength({ ...input, contextKeys: keys }).value;
    if (window < base) {
      for (const k of Object.keys(keys)) keys[k] = Math.min(keys[k], window);
      notes.push(`--disable-sliding-window caps vLLM's length at the sliding window (${grouped(window)}) before any RoPE factor.`);
    }
  }
  const derived = vllmDerivedMaxLen({ ...input, rope: applied.rope, contextKeys: keys }, facts);
  const basis = facts.type === 'none' ? `${vllmBaseLength({ ...input, contextKeys: keys }).key}, no RoPE scaling` : `${scalingWords(facts)}`;
  const model = scalingFacts(input.rope);
  const replaces = !!scaling && model.type !== 'none';
  const effect: LaunchEffect = {
    rope,
    facts: read.facts,
    derived,
    basis,
    scalingFromCommand: !!scaling,
    replacesModelScaling: replaces,
    notes,
    overLength: 'refuses',
  };
  if (scope) effect.overrideScope = scope;
  if (dead.length) effect.deadOverrideKeys = dead.map((key) => ({ key, scope: scope! }));
  const reads = input.rope.modelType ? ATTENTION_READS[input.rope.modelType] : undefined;
  Object.assign(effect, scalingKeysLacking(reads, scaling, model.params));
  return effect;
}

/**
 * The scaling keys a model's attention reads (serving/scalingReads.ts): indexed, an override that
 * lacks them fails at load with a KeyError; with a default, the default replaces the model's value.
 * - vllm-project/vllm `vllm/model_executor/models/gpt_oss.py`, `OAIAttention.__init__`: `get_rope(...,
 *   rope_scaling={"rope_type": "yarn", "factor": config.rope_scaling["factor"],
 *   "original_max_position_embeddings": …, "beta_fast": config.rope_scaling["beta_fast"], "beta_slow":
 *   config.rope_scaling["beta_slow"]})`.
 * - DeepSeek-V2/V3/R1: `vllm/model_executor/models/deepseek_v2.py`, `DeepseekV2Attention.__init__` and
 *   `DeepseekV2MLAAttention.__init__` set rope_type "deepseek_yarn" on any scaling not "default", read
 *   `.get("mscale_all_dim", False)` and `["factor"]` for the softmax scale (× yarn_get_mscale(factor,
 *   mscale_all_dim)²); `vllm/model_executor/layers/rotary_embedding/__init__.py`, `get_rope`, branch
 *   "deepseek_yarn": `["factor"]`, `["original_max_position_embeddings"]`, and the rest as keyword
 *   arguments of `deepseek_scaling_rope.py::DeepseekScalingRotaryEmbedding` with defaults
 *   extrapolation_factor 1, attn_factor 1, beta_fast 32, beta_slow 1, mscale 1, mscale_all_dim 0.
 */
const DEEPSEEK_READS: ScalingKeyReads = {
  reader: "vLLM's DeepSeek-V2/V3 attention (deepseek_v2.py, get_rope's deepseek_yarn)",
  indexed: ['factor', 'original_max_position_embeddings'],
  defaults: { mscale_all_dim: 0, mscale: 1, beta_fast: 32, beta_slow: 1, extrapolation_factor: 1, attn_factor: 1 },
  onlyScaled: true,
};
const ATTENTION_READS: Record<string, ScalingKeyReads> = {
  gpt_oss: { indexed: ['factor', 'original_max_position_embeddings', 'beta_fast', 'beta_slow'], reader: "vLLM's gpt-oss attention (OAIAttention)" },
  deepseek_v2: DEEPSEEK_READS,
  deepseek_v3: DEEPSEEK_READS,
  deepseek_v32: DEEPSEEK_READS,
};

/** MLA model types whose vLLM attention may route YaRN through its own code (not verified here). */
const MLA_NOT_VERIFIED = new Set(['kimi_k2', 'mistral4', 'glm4_moe_lite', 'glm_moe_dsa', 'deepseek_v4', 'minicpm3']);

/** The config keys whose override changes the RoPE vLLM runs (what withOverrides reads). */
const ROPE_OVERRIDE_KEYS = ['rope_scaling', 'rope_parameters', 'rope_theta', 'max_position_embeddings'];

/**
 * `--hf-overrides` as vLLM applies it to the config the language model is built from.
 * vllm-project/vllm `vllm/config/model.py::ModelConfig._apply_dict_overrides`: a dict value whose
 * key names a sub-config (`text_config`, a PretrainedConfig) is merged into it key by key
 * (`_update_nested`, which also merges into an existing dict such as its `rope_scaling`); any other
 * key is set on the top-level config. A multimodal model (Gemma 3's Gemma3ForConditionalGeneration)
 * builds its language model from `text_config`, and `_get_and_verify_max_len` reads
 * `get_hf_text_config(...)`, so a top-level RoPE key there is set and never read: `dead`.
 */
export function vllmAppliedOverrides(
  ov: Record<string, unknown> | undefined,
  rope: ModelRope,
): { applied?: Record<string, unknown>; dead: string[]; scope?: string } {
  const scope = languageScopeOf(rope);
  if (!ov) return { dead: [], ...(scope ? { scope } : {}) };
  if (!scope) return { applied: ov, dead: [] };
  const dead = ROPE_OVERRIDE_KEYS.filter((k) => k in ov);
  const inner = ov[scope];
  if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return { dead, scope };
  const applied: Record<string, unknown> = { ...(inner as Record<string, unknown>) };
  // _update_nested merges a dict into the model's own dict: the model's scaling keys stay unless replaced.
  const own = rope.scaling?.key ? scalingFacts(rope).params : undefined;
  for (const k of ['rope_scaling', 'rope_parameters']) {
    const v = applied[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && own && rope.scaling!.key!.endsWith(`.${k}`))
      applied[k] = { ...own, ...(v as Record<string, unknown>) };
  }
  return { applied, dead, scope };
}

/** The sub-config the model's RoPE keys live in (`text_config`), from where they were read. */
function languageScopeOf(rope: ModelRope): string | undefined {
  for (const at of [rope.scaling?.key, rope.base?.key, rope.contextLength?.key]) {
    const m = at ? /^(text_config|language_config|llm_config|text_model)\./.exec(at) : null;
    if (m) return m[1];
  }
  return undefined;
}
/**
 * vLLM's human-readable lengths, exactly as `human_readable_int` parses them
 * (vllm-project/vllm `vllm/utils/argparse_utils.py::human_readable_int`; older releases:
 * `vllm/engine/arg_utils.py`): the whole value (trimmed) is digits with an optional decimal part
 * and one suffix — k/m/g/t multiply by powers of 1000 (decimals allowed, truncated to an int),
 * K/M/G/T by powers of 1024 (no decimals: "Decimals are not allowed with binary suffixes");
 * otherwise Python `int()` (sign, underscores between digits). NaN where vLLM refuses the value.
 * A YAML `--config` value reaches the same function (`load_config_file` passes it as a string).
 */
export function parseLength(raw: string): number {
  const v = raw.trim();
  const m = /^(\d+(?:\.\d+)?)([kKmMgGtT])$/.exec(v);
  if (m) {
    const [, number, suffix] = m;
    const lower = suffix.toLowerCase();
    const power = 'kmgt'.indexOf(lower) + 1;
    if (suffix === lower) return Math.trunc(Number(number) * 1000 ** power);
    return /^\d+$/.test(number) ? Number(number) * 1024 ** power : NaN;
  }
  return /^[+-]?\d+(?:_\d+)*$/.test(v) ? Number(v.replace(/_/g, '')) : NaN;
}

/** `human_readable_int_or_auto` (--max-model-len in recent releases): `-1` or `auto` ask vLLM to fit the memory. */
export function parseLengthOrAuto(raw: string): number | 'auto' {
  const v = raw.trim();
  if (v === '-1' || v.toLowerCase() === 'auto') return 'auto';
  return parseLength(v);
}

// ==== end of launch grammar (h-engines) ====================================================

import type { Engine, LengthPolicy } from './engine';
import { keysWithOverride } from './lengthPolicy';

/** vLLM's length rule, for the rules and the override fixes (engine.ts LengthPolicy). */
export const VLLM_LENGTH_POLICY: LengthPolicy = {
  keys: VLLM_LENGTH_KEYS,
  base: vllmBaseLength,
  derived: (input, facts) => vllmDerivedMaxLen(input, facts),
  lengthValues: vllmLengthValues,
  slidingWindow: vllmSlidingWindow,
};
import type { ModelRope } from '../config/modelRope';
import type { ParsedDocument } from '../document/configNode';
import { readVllmConfigFile } from './vllmConfigFile';
import { type ScalingKeyReads, scalingKeysLacking } from './scalingReads';

export const vllmEngine: Engine = {
  id: 'vllm',
  label: 'vLLM',
  readArgv: readVllmLaunch,
  atRelease: vllmAtRelease,
  // FlexibleArgumentParser reads underscores as dashes, so `--max_model_len` is vLLM's alone too.
  argumentsOnly: { image: 'vllm/vllm-openai', options: ['--max-model-len', '--hf-overrides', '--max_model_len', '--hf_overrides'] },
  imageEntrypoint: (image) =>
    imageIs(image, ['vllm/vllm-openai', 'vllm/vllm-openai-rocm', 'vllm-cpu-env']) ? { command: 'vllm serve', firstArgument: 'the model to serve' } : undefined,
  readConfigFile: (doc: ParsedDocument) => readVllmConfigFile(doc),
  effect: vllmLaunchEffect,
  plan: vllmPlan,
  env: /^VLLM_ALLOW_LONG_MAX_MODEL_LEN$/,
  ownCodes: true,
  lengthPolicy: VLLM_LENGTH_POLICY,
  override: { flag: '--hf-overrides', name: 'hf-overrides', ignoresRopeKeys: vllmIgnoresRopeKeys, scalingNeedsRelease: vllmScalingNeedsRelease },
  // _apply_dict_overrides: a top-level scaling object is set whole; one under a sub-config (text_config) is merged into the model's.
  replacesScaling: "the override's scaling is set over the model's (a top-level object whole, one under text_config key by key)",
  honoursWindows: () => true,
  longEnv: { name: VLLM_LONG_ENV, allows: vllmAllowsLong },
};
