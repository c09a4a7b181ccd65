/**
 * Ollama: it serves GGUF files and has no RoPE scaling options; `num_ctx` (Modelfile
 * `PARAMETER num_ctx`, API `options.num_ctx`, or `OLLAMA_CONTEXT_LENGTH` for the server's default)
 * only sizes the context.
 *
 * Rule read from ollama/ollama `llm/server.go`: a num_ctx above the GGUF's `<arch>.context_length`
 * is clamped to it ("requested context size too large for model", num_ctx, n_ctx_train). Scaling is
 * whatever rope.scaling.* the GGUF carries from conversion (see llamacpp.ts).
 */
import type { ServingInput, ServingPlan } from './types';
import { grouped, planRewrite, reachNotes, recommendedRewrite, restoredBaseNote, rewriteNote, scalingFacts, targetContext } from './common';
import { llamaCppHonoursWindows, llamaCppReading, llamaCppTrainContext } from './llamacpp';
import type { ConsumerInput, ConsumerReading } from './consumer';

export const OLLAMA_CONTEXT_ENV = 'OLLAMA_CONTEXT_LENGTH';

/**
 * How Ollama reads a config (the consumer table): it runs the GGUF that llama.cpp's conversion
 * writes, so base and scaling are llama.cpp's; num_ctx above the GGUF context_length is clamped
 * (`llm/server.go`).
 */
export function ollamaReading(input: ConsumerInput): ConsumerReading {
  const cpp = llamaCppReading(input);
  return {
    ...cpp,
    consumer: 'ollama',
    label: 'Ollama (GGUF from llama.cpp)',
    pkg: 'ollama',
    source: 'llm/server.go (num_ctx clamp); GGUF from convert_hf_to_gguf.py',
  };
}

export function ollamaPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const derivedMaxLen = llamaCppTrainContext(input);
  const served = Math.min(context, derivedMaxLen);
  const notes: string[] = [`Per model instead of server-wide: a Modelfile line \`PARAMETER num_ctx ${served}\`, or options.num_ctx in the API request.`];
  let rewrite: ServingPlan['rewrite'];
  switch (facts.type) {
    case 'yarn':
    case 'linear':
      notes.push(
        `Ollama has no RoPE scaling option: the ${facts.type} scaling applies only if the GGUF carries rope.scaling.type ${facts.type} from conversion (convert this config, with its rope_scaling, to GGUF).`,
      );
      break;
    case 'dynamic':
      notes.push('Ollama has no dynamic NTK scaling and GGUF conversion drops it: the model runs unscaled.');
      break;
    case 'llama3':
    case 'longrope':
      notes.push(`${facts.type} scaling comes from tensors the GGUF conversion writes; Ollama has nothing to set.`);
      break;
    case 'none': {
      const advice = recommendedRewrite(input, facts, context, llamaCppHonoursWindows(input.rope.modelType));
      if (advice) {
        rewrite = planRewrite(advice, false);
        notes.push(
          `${rewriteNote(input, advice, 'the preferred rewrite is')}${restoredBaseNote(input, false)} Ollama gives no scaling at all, so convert the GGUF from a config that carries it, or serve with llama.cpp's flags.`,
        );
      }
      break;
    }
    default:
      notes.push(`RoPE type '${facts.rawType}' is not one GGUF conversion writes.`);
  }
  notes.push(...reachNotes(input, facts, context, 'Ollama', derivedMaxLen, llamaCppHonoursWindows(input.rope.modelType)));
  if (context > derivedMaxLen) {
    notes.push(
      `Ollama clamps num_ctx to the GGUF's context_length (${grouped(derivedMaxLen)}) with "requested context size too large for model": ${grouped(context)} needs a GGUF converted from a config whose max_position_embeddings is ${context}. The command asks for ${grouped(served)}.`,
    );
  }
  return {
    engine: 'ollama',
    derivedMaxLen,
    context,
    args: ['ollama', 'serve'],
    env: { [OLLAMA_CONTEXT_ENV]: String(served) },
    overrides: null,
    notes,
    ...(rewrite ? { rewrite } : {}),
  };
}

// ==== Launch grammar (h-engines): what Ollama reads ========================================
//
// Verified in ollama/ollama (main, 2026-08): `envconfig/config.go` ContextLength =
// Uint("OLLAMA_CONTEXT_LENGTH", 0) ("Context length to use unless otherwise specified"), read by
// `ollama serve`; `llm/server.go` clamps num_ctx above the GGUF's context_length with the warning
// "requested context size too large for model". A Modelfile's `PARAMETER num_ctx N` sets the
// model's default; `FROM` names a model, a GGUF file or a folder. `ollama run MODEL` is a client:
// the server it talks to has its own environment.
import type { Invocation, ModelfileLaunch, Token } from '../launch/types';
import type { GrammarProblem, LaunchRequest } from '../launch/request';
import { imageIs, programName } from './argv';
import { shownValue } from './argv';
import type { LaunchEffect } from './launchModel';

/**
 * The variables Ollama reads (ollama/ollama `envconfig/config.go` at fb30760, and the OLLAMA_* names
 * its Go sources read elsewhere), and ones older releases read (the same file at 000ce02): a name
 * outside both is ignored by the server, silently.
 */
const OLLAMA_ENV_NAMES = new Set([
  'OLLAMA_AUTH',
  'OLLAMA_CONTEXT_LENGTH',
  'OLLAMA_DEBUG',
  'OLLAMA_DEBUG_LOG_REQUESTS',
  'OLLAMA_EDITOR',
  'OLLAMA_FLASH_ATTENTION',
  'OLLAMA_GO_TEMPLATE',
  'OLLAMA_GPU_OVERHEAD',
  'OLLAMA_HOST',
  'OLLAMA_IGPU_ENABLE',
  'OLLAMA_KEEP_ALIVE',
  'OLLAMA_KV_CACHE_TYPE',
  'OLLAMA_LLM_LIBRARY',
  'OLLAMA_LOAD_TIMEOUT',
  'OLLAMA_MAX_LOADED_MODELS',
  'OLLAMA_MAX_QUEUE',
  'OLLAMA_MAX_TRANSFER_STREAMS',
  'OLLAMA_MODELS',
  'OLLAMA_NOHISTORY',
  'OLLAMA_NOPRUNE',
  'OLLAMA_NO_CLOUD',
  'OLLAMA_NUM_PARALLEL',
  'OLLAMA_ORIGINS',
  'OLLAMA_REMOTES',
  'OLLAMA_SCHED_SPREAD',
  'OLLAMA_VULKAN',
  'OLLAMA_API_KEY',
  'OLLAMA_CORS',
  'OLLAMA_EXPERIMENT',
  'OLLAMA_LIBRARY_PATH',
  'OLLAMA_LLAMA_CPP_COMPAT',
  'OLLAMA_CLOUD_BASE_URL',
  'OLLAMA_DOT_COM_URL',
  'OLLAMA_APP_DB_PATH',
  'OLLAMA_SKILLS',
  'OLLAMA_AGENT_DISABLE_SHELL',
  'OLLAMA_AGENT_DISABLE_WEBSEARCH',
  'OLLAMA_LAUNCH_DSH_API_KEY',
  // Read by earlier releases.
  'OLLAMA_TMPDIR',
  'OLLAMA_HOME',
  'OLLAMA_RUNNERS_DIR',
  'OLLAMA_MAX_VRAM',
  'OLLAMA_INTEL_GPU',
  'OLLAMA_NEW_ENGINE',
  'OLLAMA_MULTIUSER_CACHE',
]);

/** Levenshtein distance, small strings only. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length];
}

/** The variable Ollama reads that an unknown one most likely meant, when one is close. */
function meantOllamaEnv(name: string): string | undefined {
  // Every spelling of a context size means Ollama's one context variable.
  if (/CTX|CONTEXT|SEQ_LEN|MAX_LEN|NUM_CTX/.test(name)) return OLLAMA_CONTEXT_ENV;
  let best: string | undefined,
    bestD = Infinity;
  for (const k of OLLAMA_ENV_NAMES) {
    const dd = distance(name, k);
    if (dd < bestD) {
      best = k;
      bestD = dd;
    }
  }
  return bestD <= 3 ? best : undefined;
}

/**
 * OLLAMA_* variables `ollama serve` does not read: silently ignored, so a context set through one
 * never takes effect. The finding sits on the variable's name where the file writes it.
 */
function unknownOllamaEnv(inv: Invocation): GrammarProblem[] {
  const out: GrammarProblem[] = [];
  for (const [name, tok] of Object.entries(inv.env)) {
    if (!name.startsWith('OLLAMA_') || OLLAMA_ENV_NAMES.has(name)) continue;
    const meant = meantOllamaEnv(name);
    const at = tok.nameAt;
    const token: Token = at ? { ...tok, value: name, raw: name, offset: at.offset, length: at.length, range: at.range, quote: 'none', known: true } : tok;
    const context = meant === OLLAMA_CONTEXT_ENV;
    out.push({
      token,
      kind: 'unknown-env',
      severity: context ? 'warning' : 'information',
      message: `Ollama does not read ${name} (envconfig/config.go): the server ignores it${context ? ', so the context stays at its default' : ''}.${meant ? ` Its variable is ${meant}.` : ''}`,
      ...(meant && at ? { replacement: meant } : {}),
    });
  }
  return out;
}

export function readOllamaLaunch(inv: Invocation): LaunchRequest | undefined {
  const argv = inv.argv;
  let sub: string | undefined;
  let at = 1;
  if (inv.entrypoint === 'image') {
    if (!inv.image || !imageIs(inv.image.value, ['ollama/ollama'])) return undefined;
    // The image's ENTRYPOINT is /bin/ollama with CMD ["serve"].
    sub = argv[0]?.value ?? 'serve';
    at = 0;
  } else if (programName(argv[0]) === 'ollama') sub = argv[1]?.value;
  else return undefined;
  if (sub !== 'serve' && sub !== 'run' && sub !== 'create') return undefined;
  const req: LaunchRequest = { program: 'ollama', role: 'serving', invocation: inv, rope: {}, problems: [], notes: [] };
  const env = inv.env[OLLAMA_CONTEXT_ENV];
  if (sub === 'serve') req.problems.push(...unknownOllamaEnv(inv));
  if (sub === 'serve') {
    if (env) {
      const v = /^\s*\d+\s*$/.test(env.value) ? Number(env.value) : NaN;
      if (Number.isFinite(v) && v > 0) req.length = { value: v, option: { name: 'OLLAMA_CONTEXT_LENGTH', flag: env, value: env } };
    }
    req.notes.push('ollama serve names no model: each model is judged where it is created (its Modelfile) or run.');
  } else {
    const model = argv[at + 1];
    if (model && !model.value.startsWith('-')) req.model = model;
    if (env) req.notes.push(`${OLLAMA_CONTEXT_ENV} on \`ollama ${sub}\` does not reach the server: set it where \`ollama serve\` runs.`);
  }
  return req;
}

/** `ollama serve` (a program, or the image's default command), as opposed to a client command. */
function isOllamaServe(req: LaunchRequest): boolean {
  const inv = req.invocation;
  if (!inv || req.program !== 'ollama') return false;
  if (inv.entrypoint === 'image') return (inv.argv[0]?.value ?? 'serve') === 'serve';
  return inv.argv[1]?.value === 'serve';
}

/**
 * A script that starts `ollama serve` with OLLAMA_CONTEXT_LENGTH and then runs models against it
 * (`ollama run qwen2.5:7b`): each run is served at that length (envconfig ContextLength, the
 * default num_ctx of every request the server gets), so it is judged at it, on the token that
 * sets it. A run that sets its own length (a Modelfile, num_ctx) is left alone.
 */
export function relateOllamaRuns(requests: LaunchRequest[]): void {
  let serve: LaunchRequest | undefined;
  for (const req of requests) {
    if (req.program !== 'ollama' || !req.invocation) continue;
    if (isOllamaServe(req)) {
      serve = req;
      continue;
    }
    if (!serve?.length || req.length || !req.model || req.invocation.source !== serve.invocation!.source) continue;
    const line = serve.invocation!.range.start.line + 1;
    req.length = serve.length;
    req.notes = req.notes.filter((n) => !n.startsWith(`${OLLAMA_CONTEXT_ENV} on`));
    req.notes.push(`Served by the ollama serve on line ${line}, whose ${OLLAMA_CONTEXT_ENV}=${serve.length.value} is the context of every request it gets.`);
  }
}

/**
 * Ollama library names (`qwen2.5:7b`, `llama3.1`, `registry.ollama.ai/library/llama3.2:1b`) and the
 * hub model each library GGUF was converted from, so a Modelfile `FROM qwen2.5:7b` or `ollama run
 * llama3.1:8b` is judged against that model's config (its max_position_embeddings is the GGUF's
 * context_length). From the library's own tag names, which public setups use interchangeably:
 * the qwen2.5 and qwen2.5-coder tags are the Instruct models (`qwen2.5:7b` is
 * `qwen2.5:7b-instruct-q4_K_M`, context_length 32768 as in Qwen2.5-7B-Instruct's config), the
 * llama3.x tags are the Instruct models (`llama3.1:8b` is `llama3.1:8b-instruct-q4_K_M`); a bare
 * name is its default tag. Only the families listed here are read; a tag that names another
 * variant (`8b-text-…`, a base model) is not guessed.
 */
const OLLAMA_LIBRARY: Record<string, { sizes: Record<string, string>; default: string }> = {
  'qwen2.5': {
    default: '7b',
    sizes: {
      '0.5b': 'Qwen/Qwen2.5-0.5B-Instruct',
      '1.5b': 'Qwen/Qwen2.5-1.5B-Instruct',
      '3b': 'Qwen/Qwen2.5-3B-Instruct',
      '7b': 'Qwen/Qwen2.5-7B-Instruct',
      '14b': 'Qwen/Qwen2.5-14B-Instruct',
      '32b': 'Qwen/Qwen2.5-32B-Instruct',
      '72b': 'Qwen/Qwen2.5-72B-Instruct',
    },
  },
  'qwen2.5-coder': {
    default: '7b',
    sizes: {
      '0.5b': 'Qwen/Qwen2.5-Coder-0.5B-Instruct',
      '1.5b': 'Qwen/Qwen2.5-Coder-1.5B-Instruct',
      '3b': 'Qwen/Qwen2.5-Coder-3B-Instruct',
      '7b': 'Qwen/Qwen2.5-Coder-7B-Instruct',
      '14b': 'Qwen/Qwen2.5-Coder-14B-Instruct',
      '32b': 'Qwen/Qwen2.5-Coder-32B-Instruct',
    },
  },
  llama3: { default: '8b', sizes: { '8b': 'meta-llama/Meta-Llama-3-8B-Instruct', '70b': 'meta-llama/Meta-Llama-3-70B-Instruct' } },
  'llama3.1': {
    default: '8b',
    sizes: { '8b': 'meta-llama/Llama-3.1-8B-Instruct', '70b': 'meta-llama/Llama-3.1-70B-Instruct', '405b': 'meta-llama/Llama-3.1-405B-Instruct' },
  },
  'llama3.2': { default: '3b', sizes: { '1b': 'meta-llama/Llama-3.2-1B-Instruct', '3b': 'meta-llama/Llama-3.2-3B-Instruct' } },
  'llama3.3': { default: '70b', sizes: { '70b': 'meta-llama/Llama-3.3-70B-Instruct' } },
  // The gemma2 and gemma3 tags are the instruction-tuned models (`gemma3:27b` is `gemma3:27b-it-q4_K_M`;
  // `-it-qat` repacks quantisation-aware weights, same positions); `gemma3` alone is 4b, `gemma2` 9b.
  gemma2: { default: '9b', sizes: { '2b': 'google/gemma-2-2b-it', '9b': 'google/gemma-2-9b-it', '27b': 'google/gemma-2-27b-it' } },
  gemma3: {
    default: '4b',
    sizes: {
      '270m': 'google/gemma-3-270m-it',
      '1b': 'google/gemma-3-1b-it',
      '4b': 'google/gemma-3-4b-it',
      '12b': 'google/gemma-3-12b-it',
      '27b': 'google/gemma-3-27b-it',
    },
  },
};

/** Tag words that keep the default (instruction-tuned) variant: `instruct`, Gemma's `it`, `qat` weights. */
const OLLAMA_SAME_VARIANT = new Set(['instruct', 'it', 'qat']);

/** Quantisation suffixes Ollama tags end with (`q4_K_M`, `q8_0`, `fp16`, `iq3_xxs`). */
const OLLAMA_QUANT = /^(i?q\d(_[a-z0-9]+)*|fp16|f16|bf16|f32)$/i;

/**
 * The hub model an Ollama library name stands for, or undefined when the name is not a library
 * tag this module knows (a GGUF path, a user's own model `me/model`, an unlisted family or variant).
 */
export function ollamaLibraryModel(ref: string): { id: string; tag: string } | undefined {
  const m = /^(?:(?:registry\.ollama\.ai|ollama\.com)\/)?(?:library\/)?([a-z0-9][a-z0-9._-]*)(?::([A-Za-z0-9._-]+))?$/.exec(ref.trim());
  if (!m) return undefined;
  const family = OLLAMA_LIBRARY[m[1].toLowerCase()];
  if (!family) return undefined;
  const tag = !m[2] || m[2] === 'latest' ? family.default : m[2];
  // `7b`, `7b-instruct`, `7b-instruct-q4_K_M`, `27b-it-qat`: a size, then only the default variant's words and a quantisation.
  const [size, ...rest] = tag.split('-');
  if (rest.some((p) => !OLLAMA_SAME_VARIANT.has(p.toLowerCase()) && !OLLAMA_QUANT.test(p))) return undefined;
  const id = family.sizes[size.toLowerCase()];
  return id ? { id, tag: `${m[1]}:${tag}` } : undefined;
}

/** A Modelfile: the model is FROM, the length is PARAMETER num_ctx (clamped like any num_ctx). */
export function readOllamaModelfile(mf: ModelfileLaunch): LaunchRequest {
  const req: LaunchRequest = { program: 'ollama', role: 'serving', modelfile: mf, rope: {}, problems: [], notes: [] };
  if (mf.from) req.model = mf.from;
  const p = mf.parameters['num_ctx'];
  if (p) {
    const v = /^\s*\d+\s*$/.test(p.value.value) ? Number(p.value.value) : NaN;
    if (Number.isFinite(v)) req.length = { value: v, option: { name: 'num_ctx', flag: p.name, value: p.value } };
    else
      req.problems.push({
        token: p.value,
        kind: 'bad-value',
        severity: 'error',
        message: `PARAMETER num_ctx takes a whole number of tokens: ${shownValue(p.value.value)} makes \`ollama create\` fail.`,
      });
  }
  for (const name of ['rope_frequency_base', 'rope_frequency_scale']) {
    const q = mf.parameters[name];
    if (q) {
      req.rope[name] = { name, flag: q.name, value: q.value };
      req.problems.push({
        token: q.name,
        kind: 'removed',
        severity: 'warning',
        message: `Current Ollama has no ${name} option (no reader in its source, main 2026-08): RoPE comes from the GGUF's rope.* keys, so this line does not change it.`,
      });
    }
  }
  return req;
}
/** What Ollama runs: the GGUF as converted (no RoPE option of its own); num_ctx clamped to its context_length. */
export function ollamaLaunchEffect(_req: LaunchRequest, input: ServingInput): LaunchEffect {
  const own = scalingFacts(input.rope);
  const facts = own.type === 'dynamic' ? { ...own, type: 'none' as const } : own;
  return {
    rope: input.rope,
    facts,
    derived: llamaCppTrainContext(input),
    basis: "the GGUF's context_length",
    scalingFromCommand: false,
    replacesModelScaling: false,
    notes: [],
    overLength: 'clamps',
  };
}
// ==== end of launch grammar (h-engines) ====================================================

import type { Engine } from './engine';
import { fmt } from '../core/format';

export const ollamaEngine: Engine = {
  id: 'ollama',
  label: 'Ollama',
  readArgv: readOllamaLaunch,
  imageEntrypoint: (image) => (imageIs(image, ['ollama/ollama']) ? { command: '/bin/ollama', firstArgument: 'an unknown ollama command' } : undefined),
  readModelfile: readOllamaModelfile,
  effect: ollamaLaunchEffect,
  plan: ollamaPlan,
  env: /^OLLAMA_CONTEXT_LENGTH$/,
  relate: relateOllamaRuns,
  honoursWindows: llamaCppHonoursWindows,
  noScalingOption: "Ollama has no RoPE option: convert the GGUF from a config with rope_scaling yarn, or serve it with llama.cpp's --rope-scaling yarn flags.",
  overLengthText: (w) =>
    `${w.label} ${fmt(w.length)} is above the GGUF's context_length ${fmt(w.derived)} for ${w.model}: Ollama clamps it to ${fmt(w.derived)} ("requested context size too large for model"); serving ${fmt(w.length)} needs a GGUF converted with that context (and YaRN scaling, which Ollama has no option for).`,
  gguf: true,
  modelIdentity(ref) {
    const hit = ollamaLibraryModel(ref);
    return hit ? { id: hit.id, how: `the Ollama library tag ${hit.tag}` } : undefined;
  },
};
