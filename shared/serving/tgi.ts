/**
 * Text Generation Inference: the length its launcher reads from a config, and the launcher command.
 *
 * Rules read from huggingface/text-generation-inference:
 *  - `launcher/src/main.rs`: the launcher's length is max_position_embeddings, else max_seq_len,
 *    else n_positions, with no RoPE factor applied; `--max-input-tokens` must be below
 *    `--max-total-tokens`; `--rope-scaling` takes only `linear` or `dynamic` (with `--rope-factor`),
 *    passed to the shards as ROPE_SCALING/ROPE_FACTOR.
 *  - `server/text_generation_server/layers/rotary.py` (PositionRotaryEmbedding.static): the server
 *    reads rope_scaling from config.json itself: linear, dynamic, yarn (beta_fast 32, beta_slow 1
 *    and attn_factor 1 fixed, whatever the config says), su/longrope, llama3.
 */
import type { ServingInput, ServingPlan } from './types';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { engineRow, legacyKeys, servingOf } from './consumer';
import { familyDefaultBase } from '../config/families';
import { knownTo4x } from './transformers';
import { kindName } from './common';
import {
  argNumber,
  grouped,
  lengthKeys,
  modelRef,
  planRewrite,
  reachNotes,
  recommendedRewrite,
  restoredBaseNote,
  rewriteNote,
  scalingFacts,
  targetContext,
} from './common';

const LENGTH_KEYS = ['max_position_embeddings', 'max_seq_len', 'n_positions'];

/**
 * The one writer of TGI's scaling flags (`serve`, the launch fixes and their titles): the launcher's
 * `--rope-scaling` takes linear or dynamic only, with `--rope-factor`; undefined for any other.
 */
export function tgiScalingOptions(s: FlagScaling): EngineOption[] | undefined {
  return s.type === 'linear' || s.type === 'dynamic'
    ? [
        { name: 'rope-scaling', flag: '--rope-scaling', value: s.type },
        { name: 'rope-factor', flag: '--rope-factor', value: argNumber(s.factor) },
      ]
    : undefined;
}

const optionArgs = (opts: readonly EngineOption[] | undefined): string[] => (opts ?? []).flatMap((o) => [o.flag, o.value]);

export function tgiDerivedMaxLen(input: ServingInput): number {
  const keys = lengthKeys(input);
  const key = LENGTH_KEYS.find((k) => typeof keys[k] === 'number');
  return key ? keys[key] : input.rope.contextLength.value;
}

/**
 * How TGI reads a config's RoPE keys (the consumer table): `layers/rotary.py::_get_rope_config`
 * returns `getattr(config, "rope_scaling", None)` (or ROPE_SCALING/ROPE_FACTOR from the launcher),
 * and the base is `config.rope_theta` of the transformers 4.x config it loads: rope_parameters is
 * not read.
 */
export function tgiReading(input: ConsumerInput): ConsumerReading {
  const row = tgiReadingOf(input);
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

function tgiReadingOf(input: ConsumerInput): ConsumerReading {
  const read = legacyKeys(input, familyDefaultBase(input.view.modelType).value);
  return engineRow(
    { consumer: 'tgi', label: 'TGI', pkg: 'tgi', source: 'server/text_generation_server/layers/rotary.py::_get_rope_config; launcher/src/main.rs' },
    read,
    tgiDerivedMaxLen(servingOf(input)),
    input.view.ropeParameters ? ['rope_parameters is not read (config.rope_scaling only)'] : [],
  );
}

export function tgiPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const derivedMaxLen = tgiDerivedMaxLen(input);
  const notes: string[] = [];
  let rewrite: ServingPlan['rewrite'];
  const flags: string[] = [];
  let extended = facts.type !== 'none';
  switch (facts.type) {
    case 'linear':
    case 'dynamic':
      if (facts.factor !== undefined) flags.push(...optionArgs(tgiScalingOptions({ type: facts.type, factor: facts.factor })));
      break;
    case 'yarn': {
      notes.push("TGI reads YaRN from config.json (its CLI sets only linear or dynamic): the model's config.json must carry this rope_scaling.");
      const bf = facts.params['beta_fast'],
        bs = facts.params['beta_slow'];
      if ((typeof bf === 'number' && bf !== 32) || (typeof bs === 'number' && bs !== 1) || facts.params['attention_factor'] !== undefined) {
        notes.push("TGI's YaRN fixes beta_fast 32, beta_slow 1 and attn_factor 1: the config's other values are ignored.");
      }
      break;
    }
    case 'llama3':
    case 'longrope':
      notes.push(`${facts.type} scaling is read from config.json by TGI's rotary layer.`);
      break;
    case 'none': {
      const advice = recommendedRewrite(input, facts, context);
      if (advice) {
        // TGI's CLI sets only linear or dynamic (launcher/src/main.rs: --rope-scaling linear|dynamic).
        const o = advice.options.find((x) => !x.recipe && (x.kind === 'dynamic' || x.kind === 'linear'));
        const written = o === advice.preferred;
        rewrite = planRewrite(advice, written);
        if (o) {
          flags.push(...optionArgs(tgiScalingOptions({ type: o.kind as 'dynamic' | 'linear', factor: o.factor })));
          extended = true;
        }
        notes.push(
          written
            ? rewriteNote(input, advice, 'the flags write') + restoredBaseNote(input, false)
            : `${rewriteNote(input, advice, 'the preferred rewrite is')}${restoredBaseNote(input, false)} TGI's CLI cannot set ${kindName(advice.preferred.kind)} (add it to config.json instead)${o ? `: ${o.label} is the closest flag` : ''}.`,
        );
      }
      break;
    }
    default:
      notes.push(`TGI raises NotImplementedError for RoPE type '${facts.rawType}'.`);
  }
  notes.push(...reachNotes(input, facts, context, 'TGI', Math.max(derivedMaxLen, context)));
  if (context > derivedMaxLen) {
    notes.push(
      `${grouped(context)} is above the ${grouped(derivedMaxLen)} TGI's launcher reads from max_position_embeddings; the launcher does not check it${extended ? '' : ', and positions past it are extrapolated'}.`,
    );
  }
  const args = [
    'text-generation-launcher',
    '--model-id',
    modelRef(input),
    '--max-input-tokens',
    String(Math.max(1, context - 1)),
    '--max-total-tokens',
    String(context),
    ...flags,
  ];
  return { engine: 'tgi', derivedMaxLen, context, args, env: {}, overrides: null, notes, ...(rewrite ? { rewrite } : {}) };
}

// ==== Launch grammar (h-engines): how TGI's launcher reads its command line ===============
//
// Verified in huggingface/text-generation-inference (main, 2026-01) `launcher/src/main.rs`:
//  - `struct Args` (clap derive): `#[clap(long, env)]` on model_id, max_input_tokens,
//    max_input_length (legacy spelling of max_input_tokens), max_total_tokens, rope_scaling
//    (`linear` | `dynamic`), rope_factor — flags `--model-id`, `--max-input-tokens`, … and
//    environment variables MODEL_ID, MAX_INPUT_TOKENS, MAX_INPUT_LENGTH, MAX_TOTAL_TOKENS,
//    ROPE_SCALING, ROPE_FACTOR; the flag wins over the variable. clap accepts `--flag=value`,
//    never underscores, and stops on an unknown flag ("unexpected argument").
//  - `shard_manager`: `--rope-factor` without `--rope-scaling` means linear; `--rope-scaling`
//    without a factor means factor 1.
//  - `main`: "`max_input_tokens`(…) must be < `max_total_tokens`(…)" is the only length check;
//    nothing compares max_total_tokens with max_position_embeddings.
//  - `Dockerfile`: ENTRYPOINT ["/tgi-entrypoint.sh"], which runs `text-generation-launcher $@`.
import type { Invocation, Token } from '../launch/types';
import type { LaunchRequest, OptionUse } from '../launch/request';
import { OptionSpec, engineWrapper, imageIs, imageRepo, lastUse, programName, readArgv } from './argv';
import { wrappedLaunchProgram } from '../launch/sniff';
import { shownValue } from './argv';
import type { LaunchEffect } from './launchModel';
import { withScaling } from './launchModel';

const TGI_SPECS: OptionSpec[] = [
  { name: 'model-id', flags: ['--model-id'], takesValue: true },
  { name: 'max-input-tokens', flags: ['--max-input-tokens', '--max-input-length'], takesValue: true },
  { name: 'max-total-tokens', flags: ['--max-total-tokens'], takesValue: true },
  { name: 'rope-scaling', flags: ['--rope-scaling'], takesValue: true },
  { name: 'rope-factor', flags: ['--rope-factor'], takesValue: true },
];

const TGI_ENV: Record<string, string[]> = {
  'model-id': ['MODEL_ID'],
  'max-input-tokens': ['MAX_INPUT_TOKENS', 'MAX_INPUT_LENGTH'],
  'max-total-tokens': ['MAX_TOTAL_TOKENS'],
  'rope-scaling': ['ROPE_SCALING'],
  'rope-factor': ['ROPE_FACTOR'],
};

const TGI_FOREIGN: Record<string, string | undefined> = {
  '--max-model-len': '--max-total-tokens',
  '--context-length': '--max-total-tokens',
  '--hf-overrides': undefined,
  '--json-model-override-args': undefined,
  '--model': '--model-id',
  '--model-path': '--model-id',
  '--rope-scale': '--rope-factor',
  '--ctx-size': '--max-total-tokens',
  '--rope-theta': undefined,
};

export const TGI_IMAGES = ['huggingface/text-generation-inference'];

/**
 * TGI's image wherever it is pulled from: ghcr.io/huggingface/text-generation-inference, a mirror
 * that keeps the name, and Google Cloud's Deep Learning Containers
 * (`us-docker.pkg.dev/deeplearning-platform-release/gcr.io/huggingface-text-generation-inference-cu124.2-3.ubuntu2204.py311`),
 * whose entrypoint is TGI's own (the launcher, reading the same environment).
 */
export function isTgiImage(image: string): boolean {
  if (imageIs(image, TGI_IMAGES)) return true;
  const { repo } = imageRepo(image);
  return /^huggingface-text-generation-inference(?:-|$)/.test(repo.slice(repo.lastIndexOf('/') + 1));
}

export function readTgiLaunch(inv: Invocation): LaunchRequest | undefined {
  let start: number;
  let wrapper: { note: string } | undefined;
  if (inv.entrypoint === 'image') {
    if (!inv.image || !isTgiImage(inv.image.value)) return undefined;
    start = programName(inv.argv[0]) === 'text-generation-launcher' ? 1 : 0;
  } else if (programName(inv.argv[0]) === 'text-generation-launcher') start = 1;
  // `launch_tgi --model-id … --max-total-tokens …` (a wrapper defined elsewhere).
  else if ((wrapper = engineWrapper(inv.argv, 'text-generation-launcher', wrappedLaunchProgram, TGI_SPECS, { equals: true, underscores: false }, TGI_FOREIGN)))
    start = 1;
  else return undefined;
  const r = readArgv(inv.argv, start, TGI_SPECS, { equals: true, underscores: false });
  const req: LaunchRequest = { program: 'tgi', role: 'serving', invocation: inv, rope: {}, problems: [], notes: wrapper ? [wrapper.note] : [] };
  const get = (name: string): OptionUse | undefined => {
    const cli = lastUse(r, name);
    if (cli) return cli;
    for (const e of TGI_ENV[name] ?? []) {
      const tok: Token | undefined = inv.env[e];
      if (tok) return { name, flag: tok, value: tok };
    }
    return undefined;
  };
  const model = get('model-id');
  if (model?.value) req.model = model.value;
  else req.notes.push("No --model-id (or MODEL_ID): TGI's launcher defaults to bigscience/bloom-560m.");
  const total = get('max-total-tokens');
  if (total?.value) {
    const v = /^\s*\d+\s*$/.test(total.value.value) ? Number(total.value.value) : NaN;
    if (Number.isFinite(v)) req.length = { value: v, option: total };
    else
      req.problems.push({
        token: total.value,
        kind: 'bad-value',
        severity: 'error',
        message: `TGI reads --max-total-tokens as an unsigned integer: ${shownValue(total.value.value)} stops the launcher.`,
      });
  }
  const input = get('max-input-tokens');
  if (input) req.rope['max-input-tokens'] = input;
  if (input?.value && req.length && Number(input.value.value) >= req.length.value) {
    req.problems.push({
      token: input.value,
      kind: 'bad-value',
      severity: 'error',
      message: `TGI's launcher refuses this: "\`max_input_tokens\`(${input.value.value}) must be < \`max_total_tokens\`(${req.length.value})".`,
    });
  }
  for (const name of ['rope-scaling', 'rope-factor']) {
    const u = get(name);
    if (u) req.rope[name] = u;
  }
  const st = req.rope['rope-scaling']?.value;
  if (st && !['linear', 'dynamic'].includes(st.value)) {
    req.problems.push({
      token: st,
      kind: 'bad-value',
      severity: 'error',
      message: `TGI's --rope-scaling takes linear or dynamic only (clap stops on ${shownValue(st.value)}); YaRN is read from config.json's rope_scaling.`,
    });
  }
  for (const u of r.unknown) {
    const us = u.name.replace(/_/g, '-');
    const known = TGI_SPECS.some((s) => s.flags.includes(us));
    if (u.name in TGI_FOREIGN || (known && us !== u.name)) {
      const replacement = known ? us : TGI_FOREIGN[u.name];
      req.problems.push({
        token: u.flag,
        kind: known ? 'misspelled' : 'foreign',
        severity: 'error',
        message: `TGI's launcher does not know ${u.name}: clap stops with "error: unexpected argument '${u.name}' found".${replacement ? ` Its option is ${replacement}.` : ''}`,
        ...(replacement ? { replacement } : {}),
      });
    }
  }
  return req;
}
/**
 * What TGI runs for this command: `--rope-scaling`/`--rope-factor` (or ROPE_SCALING/ROPE_FACTOR)
 * reach the shards as ROPE_SCALING/ROPE_FACTOR, and `server/text_generation_server/layers/rotary.py::
 * _get_rope_config` then uses {"type", "factor"} from them instead of config.json's rope_scaling;
 * otherwise the rotary layer reads config.json's own. The launcher's length is
 * max_position_embeddings with no factor.
 */
export function tgiLaunchEffect(req: LaunchRequest, input: ServingInput): LaunchEffect {
  const own = scalingFacts(input.rope);
  const type = req.rope['rope-scaling']?.value?.value;
  const f = Number(req.rope['rope-factor']?.value?.value);
  const factor = Number.isFinite(f) && f > 0 ? f : undefined;
  let rope = input.rope;
  let facts = own;
  let fromCommand = false;
  if (type === 'linear' || type === 'dynamic' || factor !== undefined) {
    const w = withScaling(rope, { rope_type: type === 'dynamic' ? 'dynamic' : 'linear', factor: factor ?? 1 }, 'command line');
    rope = w.rope;
    facts = w.facts;
    fromCommand = true;
  }
  return {
    rope,
    facts,
    derived: tgiDerivedMaxLen(input),
    basis: 'max_position_embeddings (TGI applies no factor)',
    scalingFromCommand: fromCommand,
    replacesModelScaling: fromCommand && own.type !== 'none',
    notes: [],
    overLength: 'unchecked',
  };
}
// ==== end of launch grammar (h-engines) ====================================================

import type { Engine, EngineOption, FlagScaling } from './engine';
import { fmt } from '../core/format';

export const tgiEngine: Engine = {
  id: 'tgi',
  label: 'TGI',
  readArgv: readTgiLaunch,
  argumentsOnly: { image: 'ghcr.io/huggingface/text-generation-inference', options: ['--max-total-tokens', '--max-input-tokens', '--model-id'] },
  imageEntrypoint: (image) =>
    isTgiImage(image) ? { command: '/tgi-entrypoint.sh (text-generation-launcher "$@")', firstArgument: 'an argument the launcher refuses' } : undefined,
  effect: tgiLaunchEffect,
  plan: tgiPlan,
  env: /^(MODEL_ID|MAX_INPUT_TOKENS|MAX_INPUT_LENGTH|MAX_TOTAL_TOKENS|ROPE_SCALING|ROPE_FACTOR)$/,
  scalingFlags: {
    write: tgiScalingOptions,
    typeOption: 'rope-scaling',
    scales: [{ name: 'rope-factor' }],
    titleNote: { dynamic: "TGI's CLI has no YaRN; YaRN goes in config.json" },
  },
  replacesScaling: "the flags replace config.json's rope_scaling",
  honoursWindows: () => true,
  overLengthText: (w) =>
    `${w.label} ${fmt(w.length)} is above the ${fmt(w.derived)} TGI's launcher reads from the max_position_embeddings of ${w.model}; the launcher does not check it, and with ${w.scaled ? 'this scaling' : 'no RoPE scaling'} positions past ${fmt(w.derived)} are extrapolated.`,
};
