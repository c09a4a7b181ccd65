/**
 * SGLang: the context length it derives from a config and the `sglang.launch_server` command.
 *
 * Rules read from sgl-project/sglang `python/sglang/srt/utils/hf_transformers_utils.py::get_context_length`
 * and `python/sglang/srt/configs/model_config.py::_derive_context_length`:
 *  - the length is the FIRST present of CONTEXT_LENGTH_KEYS: max_sequence_length, seq_length,
 *    max_seq_len, model_max_length, max_position_embeddings (2048 when none), on the text config
 *    (SGLANG_LENGTH_KEYS in contextKeys.ts); an override raises it by setting that key;
 *  - it is multiplied by `rope_scaling.factor` (default 1) unless the scaling object has an
 *    `original_max_position_embeddings` key or `rope_type` is llama3 — so a YaRN config with its
 *    original keeps max_position_embeddings;
 *  - `--context-length` above it raises ValueError unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1;
 *  - config overrides go in `--json-model-override-args` (a JSON object merged into the config).
 */
import { editedBase } from '../config/editOrDerivative';
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, factsOfReading, legacyKeys, servingOf } from './consumer';
import { familyDefaultBase } from '../config/families';
import { knownTo4x } from './transformers';
import { SGLANG_LENGTH_KEYS } from './contextKeys';
import type { LengthPolicy } from './engine';
import { keysWithOverride } from './lengthPolicy';
import {
  ScalingFacts,
  planRewrite,
  unwrittenRewrite,
  recommendedRewrite,
  rewriteNote,
  rewriteOverride,
  factsOfObject,
  grouped,
  isHandAddedType,
  jsonText,
  lengthKeys,
  modelRef,
  modernScaling,
  overrideAt,
  reachNotes,
  scalingFacts,
  staticYarnNote,
  targetContext,
  restoredBaseNote,
} from './common';

const LENGTH_KEYS = SGLANG_LENGTH_KEYS;
const DEFAULT_LEN = 2048;

export const SGLANG_LONG_ENV = 'SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN';

/**
 * Whether SGLang's attention for this model honours its sliding window. Its Llama-family code
 * (python/sglang/srt/models/llama.py, which Mistral reuses) builds RadixAttention with no
 * sliding_window_size, so Mistral-7B-v0.1's 4,096 window is not applied: every layer attends in full.
 */
export function sglangHonoursWindows(modelType: string | undefined): boolean {
  return !['llama', 'mistral', 'mixtral'].includes(modelType ?? '');
}

/** Why SGLang's attention for this model reads no override rope_scaling or rope_theta (ChatGLM), when it does not. */
export function sglangIgnoresRopeKeys(modelType: string | undefined): string | undefined {
  return ratioOnlyReason('SGLang', modelType);
}

/** The length SGLang starts from: the first of its keys the config has, else 2048. */
export function sglangBaseLength(input: ServingInput): { value: number; key: string } {
  const keys = lengthKeys(input);
  const key = LENGTH_KEYS.find((k) => typeof keys[k] === 'number');
  return key ? { value: keys[key], key } : { value: DEFAULT_LEN, key: 'default' };
}

/**
 * What an override sets to raise SGLang's length to `length`: the key it reads for this model
 * (Qwen-1, ChatGLM: seq_length, which it reads before max_position_embeddings), else
 * max_position_embeddings.
 */
export function sglangLengthValues(input: ServingInput, length: number): Record<string, number> {
  const key = sglangBaseLength(input).key;
  return { [key === 'default' ? 'max_position_embeddings' : key]: length };
}

export function sglangDerivedContext(input: ServingInput, facts: ScalingFacts = scalingFacts(input.rope)): number {
  const base = sglangBaseLength(input).value;
  let factor = 1;
  if (facts.type !== 'none') {
    factor = facts.factor ?? 1;
    const t = facts.params['rope_type'];
    if ('original_max_position_embeddings' in facts.params || t === 'llama3') factor = 1;
  }
  return Math.floor(base * factor);
}

/**
 * How SGLang reads a config's RoPE keys (the consumer table): its model files take
 * `getattr(config, "rope_theta", 10000)` and `getattr(config, "rope_scaling", None)`
 * (`python/sglang/srt/models/llama.py::LlamaDecoderLayer.__init__` @ 0023954, 2025, on the
 * transformers 4.x it pins), so rope_parameters is not read and the base is the 4.x class default.
 */
export function sglangReading(input: ConsumerInput): ConsumerReading {
  const row = sglangReadingOf(input);
  // It loads configs through transformers 4.x classes: a type 4.x does not know does not load at all.
  return knownTo4x(input.view.modelType)
    ? row
    : {
        ...row,
        status: 'cannot-load',
        base: null,
        scalingType: null,
        factor: null,
        notes: [`no transformers 4.x config class for model_type ${input.view.modelType ?? '(none)'}`],
      };
}

function sglangReadingOf(input: ConsumerInput): ConsumerReading {
  const read = legacyKeys(input, familyDefaultBase(input.view.modelType).value);
  return engineRow(
    {
      consumer: 'sglang',
      label: 'SGLang (2025, transformers 4.x)',
      pkg: 'sglang',
      source: 'python/sglang/srt/models/llama.py::LlamaDecoderLayer.__init__ @ 0023954; hf_transformers_utils.py::get_context_length',
    },
    read,
    sglangDerivedContext(servingOf(input), factsOfReading(input, read.scaling)),
    input.view.ropeParameters ? ['rope_parameters is not read (getattr rope_theta / rope_scaling)'] : [],
  );
}

export function sglangPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const ratioOnly = sglangIgnoresRopeKeys(input.rope.modelType);
  const context = targetContext(input, facts);
  const derivedMaxLen = sglangDerivedContext(input, facts);
  const notes: string[] = [];
  let scaling: Record<string, unknown> | undefined;
  let overrides: Record<string, unknown> | null = null;
  let rewrite: ServingPlan['rewrite'];
  let mpe: number | undefined;
  let advice: ReturnType<typeof recommendedRewrite>;
  if (isHandAddedType(facts.type)) {
    scaling = modernScaling(facts.params);
    notes.push(`--json-model-override-args repeats the config's ${facts.type} scaling, so a stock config.json runs the same.`);
  } else if (facts.type === 'none' && ratioOnly) {
    // The one recommendation, named but not written: no override reaches this model's positions.
    const unwritable = recommendedRewrite(input, facts, context, sglangHonoursWindows(input.rope.modelType));
    if (unwritable) {
      const u = unwrittenRewrite(input, unwritable, ratioOnly);
      rewrite = u.rewrite;
      notes.push(u.note);
    }
  } else if (facts.type === 'none') {
    advice = recommendedRewrite(input, facts, context, sglangHonoursWindows(input.rope.modelType));
    if (advice) {
      // SGLang ignores YaRN's factor when original is set: its YaRN override also raises max_position_embeddings.
      const w = rewriteOverride(facts, advice.preferred, context, {
        restoreBase: editedBase(input.rope)?.shipped,
        yarnSetsLength: true,
        lengthValues: (n) => sglangLengthValues(input, n),
      });
      overrides = w.override;
      scaling = w.scaling;
      mpe = w.context;
      rewrite = planRewrite(advice, true);
      notes.push(rewriteNote(input, advice, 'the override writes') + restoredBaseNote(input, true));
    }
  } else if (facts.type === 'llama3' || facts.type === 'longrope') {
    notes.push(`${facts.type} scaling is read from the model's config.json.`);
  } else {
    notes.push(`RoPE type '${facts.rawType}' is passed through from config.json; SGLang's length rule ignores it.`);
  }
  const yarn = staticYarnNote(facts, input.trainedContext, context, 'SGLang', input.rope);
  if (yarn) notes.push(yarn);
  notes.push(...reachNotes(input, facts, context, 'SGLang', derivedMaxLen, sglangHonoursWindows(input.rope.modelType)));
  if (!overrides && scaling) overrides = overrideAt(facts.keyPath, scaling);
  const lengthWith = (n: number | undefined) =>
    sglangDerivedContext(
      n !== undefined ? { ...input, contextKeys: { ...lengthKeys(input), ...sglangLengthValues(input, n) } } : input,
      scaling ? factsOfObject(input.rope, scaling, facts.keyPath) : facts,
    );
  let after = overrides ? lengthWith(mpe) : derivedMaxLen;
  if (advice && scaling && mpe === undefined && after < context) {
    // A scaling the engine does not stretch its length by (Gemma-3's is skipped) also raises the context.
    const w = rewriteOverride(facts, advice.preferred, context, {
      restoreBase: editedBase(input.rope)?.shipped,
      setsLength: true,
      lengthValues: (n) => sglangLengthValues(input, n),
    });
    overrides = w.override;
    mpe = w.context;
    after = lengthWith(mpe);
  }
  const env: Record<string, string> = {};
  if (context > after) {
    env[SGLANG_LONG_ENV] = '1';
    const why =
      scaling && 'original_max_position_embeddings' in scaling
        ? ' (SGLang ignores factor when the scaling has original_max_position_embeddings, so a YaRN model keeps max_position_embeddings)'
        : '';
    notes.push(`${grouped(context)} is above the ${grouped(after)} SGLang derives${why}: it refuses --context-length without ${SGLANG_LONG_ENV}=1.`);
  }
  const args = ['python3', '-m', 'sglang.launch_server', '--model-path', modelRef(input), '--context-length', String(context)];
  if (overrides) args.push('--json-model-override-args', jsonText(overrides));
  return { engine: 'sglang', derivedMaxLen, context, args, env, overrides, notes, ...(rewrite ? { rewrite } : {}) };
}

// ==== Launch grammar (h-engines): how SGLang reads its own command line ===================
//
// Verified in sgl-project/sglang:
//  - `python/sglang/launch_server.py`: `python -m sglang.launch_server` still runs and warns that
//    `sglang serve --model-path <model>` is the recommended entrypoint; both call
//    `srt/server_args.py::prepare_server_args(argv)`.
//  - `prepare_server_args`: a plain `argparse.ArgumentParser(prog="sglang serve")` (allow_abbrev
//    left on) and `parse_args`: an option it does not know stops the launch with
//    "unrecognized arguments: …"; underscores are NOT read as dashes (`--context_length` is
//    unknown); a unique prefix of an option is accepted (`--context` = `--context-length`).
//  - `ServerArgs.add_cli_args`: `--model-path`/`--model` (required), `--context-length` (int; recent
//    releases parse it with their human_readable_int, `128k`/`128K`), `--json-model-override-args`
//    (a JSON string merged into the HF config).
//  - SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN: see the header of this module.
//  - Images lmsysorg/sglang have no serving ENTRYPOINT: the command is given in full.
import type { Invocation } from '../launch/types';
import type { LaunchRequest } from '../launch/request';
import { OptionSpec, afterPythonModule, engineWrapper, imageIs, lastUse, programName, readArgv } from './argv';
import { type OverrideWords, flagIgnoredOverrideKeys, readOverrideOption } from './overrideOption';
import { wrappedLaunchProgram } from '../launch/sniff';
import { shownValue } from './argv';
import { parseLength } from './vllm';
import { foreignProblem } from './vllm';
import type { LaunchEffect } from './launchModel';
import { overrideAsRead, ratioOnlyReason, scalingWords } from './launchModel';
import { type ScalingKeyReads, scalingKeysLacking } from './scalingReads';

const SGLANG_SPECS: OptionSpec[] = [
  { name: 'model-path', flags: ['--model-path', '--model'], takesValue: true },
  { name: 'context-length', flags: ['--context-length'], takesValue: true },
  { name: 'json-model-override-args', flags: ['--json-model-override-args'], takesValue: true },
  { name: 'served-model-name', flags: ['--served-model-name'], takesValue: true },
  { name: 'tokenizer-path', flags: ['--tokenizer-path'], takesValue: true },
];

/** vLLM's (and others') options that SGLang's parser refuses; the certain replacements. */
const SGLANG_FOREIGN: Record<string, string | undefined> = {
  '--max-model-len': '--context-length',
  '--hf-overrides': '--json-model-override-args',
  '--rope-scaling': undefined,
  '--rope-theta': undefined,
  '--gpu-memory-utilization': '--mem-fraction-static',
  '--max-num-seqs': '--max-running-requests',
  '--enforce-eager': '--disable-cuda-graph',
  '--disable-sliding-window': undefined,
  '--ctx-size': '--context-length',
  '--model-id': '--model-path',
  '--rope-scale': undefined,
  '--rope-freq-base': undefined,
  '--yarn-orig-ctx': undefined,
};

export const SGLANG_IMAGES = ['lmsysorg/sglang'];

/** `--json-model-override-args` in SGLang's problems: get_config merges it with config.update. */
const SGLANG_OVERRIDE_WORDS: OverrideWords = {
  flag: '--json-model-override-args',
  applied: 'is merged into the config as is and nothing reads it',
};

/** Every long option SGLang defines that these readers rely on, for argparse's prefix matching. */
const SGLANG_LONG = SGLANG_SPECS.flatMap((s) => s.flags);

export function readSglangLaunch(inv: Invocation): LaunchRequest | undefined {
  const argv = inv.argv;
  let start = -1;
  if (inv.entrypoint === 'image' && !(inv.image && imageIs(inv.image.value, SGLANG_IMAGES))) return undefined;
  let wrapper: { note: string } | undefined;
  if (programName(argv[0]) === 'sglang' && argv[1]?.value === 'serve') start = 2;
  else start = afterPythonModule(argv, ['sglang.launch_server']);
  // `serve_sglang --model-path … --context-length …` (a wrapper defined elsewhere).
  if (
    start < 0 &&
    inv.entrypoint === 'program' &&
    (wrapper = engineWrapper(argv, 'sglang', wrappedLaunchProgram, SGLANG_SPECS, { equals: true, underscores: false }, SGLANG_FOREIGN))
  )
    start = 1;
  if (start < 0) return undefined;
  // argparse: no `_` → `-`; `--flag=value` splits.
  const r = readArgv(argv, start, SGLANG_SPECS, { equals: true, underscores: false });
  const req: LaunchRequest = { program: 'sglang', role: 'serving', invocation: inv, rope: {}, problems: [], notes: wrapper ? [wrapper.note] : [] };
  // A unique prefix of a known option is that option (argparse allow_abbrev).
  for (const u of [...r.unknown]) {
    const hits = SGLANG_LONG.filter((f) => f.startsWith(u.name) && u.name.length > 2);
    const spec = hits.length === 1 ? SGLANG_SPECS.find((s) => s.flags.includes(hits[0])) : undefined;
    if (spec && spec.name === 'context-length' && u.value) {
      r.uses.push({ name: spec.name, flag: u.flag, value: u.value });
      r.unknown.splice(r.unknown.indexOf(u), 1);
      req.notes.push(`${u.name} is read as ${hits[0]} (argparse accepts a unique prefix).`);
    }
  }
  const model = lastUse(r, 'model-path');
  if (model?.value) req.model = model.value;
  const len = lastUse(r, 'context-length');
  if (len?.value) {
    const v = parseLength(len.value.value);
    if (Number.isFinite(v)) req.length = { value: v, option: len };
    else
      req.problems.push({
        token: len.value,
        kind: 'bad-value',
        severity: 'error',
        message: `SGLang cannot read ${shownValue(len.value.value)} as --context-length: argparse refuses the command.`,
      });
  }
  const ov = lastUse(r, 'json-model-override-args');
  if (ov) {
    const value = readOverrideOption(req, ov, SGLANG_OVERRIDE_WORDS);
    if (value) flagIgnoredOverrideKeys(req, value, SGLANG_OVERRIDE_WORDS);
  }
  for (const u of r.unknown) {
    const us = u.name.replace(/_/g, '-');
    if (u.name in SGLANG_FOREIGN) req.problems.push(foreignProblem('sglang', u.flag, u.name, SGLANG_FOREIGN[u.name], u.value));
    else if (u.name.startsWith('--') && us !== u.name && (SGLANG_LONG.includes(us) || us in SGLANG_FOREIGN)) {
      const meant = SGLANG_LONG.includes(us) ? us : SGLANG_FOREIGN[us];
      const p = foreignProblem('sglang', u.flag, u.name, meant, u.value);
      p.kind = 'misspelled';
      p.message = `SGLang's argument parser does not read underscores as dashes: ${u.name} stops the launch with "unrecognized arguments: ${u.value ? `${u.name} ${u.value.value}` : u.name}".${meant ? ` Write ${meant}.` : ''}`;
      req.problems.push(p);
    }
  }
  return req;
}
/** What SGLang builds for this command: the override merged into the config, then its length rule. */
export function sglangLaunchEffect(req: LaunchRequest, input: ServingInput): LaunchEffect {
  const ov = req.overrides?.value;
  // The length rule reads the merged config (applied); the attention runs `rope` (ChatGLM: rope_ratio only).
  const read = overrideAsRead(input.rope, ov, 'json-model-override-args', sglangIgnoresRopeKeys(input.rope.modelType));
  const { applied, rope, scaling, ignored } = read;
  const { facts } = applied;
  // config.update sets every key it is given, so an override's seq_length counts as much as its max_position_embeddings.
  const keys = keysWithOverride(SGLANG_LENGTH_POLICY, input, ov);
  const derived = sglangDerivedContext({ ...input, rope, contextKeys: keys }, facts);
  const ignoresFactor = facts.type !== 'none' && ('original_max_position_embeddings' in facts.params || facts.params['rope_type'] === 'llama3');
  const basis =
    facts.type === 'none'
      ? "the config's context length, no RoPE scaling"
      : ignoresFactor
        ? `the config's context length (SGLang ignores the factor of a scaling that has original_max_position_embeddings or is llama3)`
        : `the config's context length × ${scalingWords(facts)}`;
  const model = scalingFacts(input.rope);
  return {
    rope,
    facts: read.facts,
    derived,
    basis,
    scalingFromCommand: !!scaling,
    replacesModelScaling: !!scaling && model.type !== 'none',
    notes: ignored ? [ignored] : [],
    overLength: 'refuses',
    ...scalingKeysLacking(input.rope.modelType ? SGLANG_ATTENTION_READS[input.rope.modelType] : undefined, scaling, model.params),
  };
}

/**
 * The scaling keys SGLang's DeepSeek-V2/V3 attention reads with a default (serving/scalingReads.ts).
 * sgl-project/sglang `python/sglang/srt/models/deepseek_v2.py`, `DeepseekV2AttentionMLA.__init__`: any
 * scaling becomes "deepseek_yarn"; `.get("mscale_all_dim", False)` for the softmax scale; the other
 * keys go to `DeepseekScalingRotaryEmbedding` (rotary_embedding) with vLLM's defaults (beta_fast 32,
 * beta_slow 1, mscale 1, mscale_all_dim 0, extrapolation_factor 1, attn_factor 1). Unlike vLLM, the
 * indexed keys differ by release: `["factor"]` in deepseek_v2.py and `["original_max_position_embeddings"]`
 * in get_rope raise KeyError in 2025 releases, while later ones take them through `_get_rope_param`
 * (a logged default: factor 1.0, the model's max_position_embeddings) and guard the softmax scale on
 * "factor" being present; so no key is claimed to stop the load here.
 */
const SGLANG_DEEPSEEK_READS: ScalingKeyReads = {
  reader: "SGLang's DeepSeek-V2/V3 attention (deepseek_v2.py, deepseek_yarn)",
  indexed: [],
  defaults: { mscale_all_dim: 0, mscale: 1, beta_fast: 32, beta_slow: 1, extrapolation_factor: 1, attn_factor: 1 },
  onlyScaled: true,
};
const SGLANG_ATTENTION_READS: Record<string, ScalingKeyReads> = {
  deepseek_v2: SGLANG_DEEPSEEK_READS,
  deepseek_v3: SGLANG_DEEPSEEK_READS,
  deepseek_v32: SGLANG_DEEPSEEK_READS,
};
// ==== end of launch grammar (h-engines) ====================================================

import type { Engine } from './engine';
import { fmt } from '../core/format';

/** SGLang's length rule, for the rules and the override fixes (engine.ts LengthPolicy). */
export const SGLANG_LENGTH_POLICY: LengthPolicy = {
  keys: SGLANG_LENGTH_KEYS,
  base: sglangBaseLength,
  derived: sglangDerivedContext,
  lengthValues: sglangLengthValues,
};

export const sglangEngine: Engine = {
  id: 'sglang',
  label: 'SGLang',
  readArgv: readSglangLaunch,
  effect: sglangLaunchEffect,
  plan: sglangPlan,
  env: /^SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN$/,
  lengthPolicy: SGLANG_LENGTH_POLICY,
  override: { flag: '--json-model-override-args', name: 'json-model-override-args', yarnSetsLength: true, ignoresRopeKeys: sglangIgnoresRopeKeys },
  replacesScaling: "the override object replaces the model's whole (no merge)",
  honoursWindows: sglangHonoursWindows,
  longEnv: { name: SGLANG_LONG_ENV, allows: (v) => ['1', 'true'].includes(v.trim().toLowerCase()) },
  overLengthText(w) {
    const C = fmt(w.length),
      D = fmt(w.derived);
    const quote = `"User-specified context_length (${w.length}) is greater than the derived context_length (${w.derived})"`;
    const past = w.covered
      ? `the ${w.covered} scaling in effect covers ${C}`
      : w.raisedBase
        ? `the raised rope_theta ${fmt(w.raisedBase.base)} (the NTK-aware base for ×${fmt(w.raisedBase.factor)}) covers ${C}`
        : `positions past ${D} are extrapolated`;
    return w.allowedBy !== undefined
      ? `${w.label} ${C} is above the ${D} SGLang derives from ${w.model} (${w.basis}): with ${SGLANG_LONG_ENV}=${w.allowedBy} SGLang only warns (${quote}) and runs; ${past}.`
      : `${w.label} ${C} is above the ${D} SGLang derives from ${w.model} (${w.basis}): SGLang refuses it at startup with ${quote} unless ${SGLANG_LONG_ENV}=1; ${past}.`;
  },
};
