/**
 * Reading an engine's argv with the engine's own option grammar: which spellings it accepts
 * (`--flag value`, `--flag=value`, underscores for dashes), which options take a value. Each
 * engine module supplies its table and its parser's habits; this file knows no engine.
 * Not a shell parser: it receives tokens an adapter already split (shared/launch/types).
 */
import { isPythonProgram, pythonTarget } from '../launch/python';
import type { Token } from '../launch/types';
import type { OptionUse } from '../launch/request';
import { loadsPython } from '../document/strictJson';

export interface OptionSpec {
  /** Canonical name in the engine's grammar (no dashes): `max-model-len`, `ctx-size`. */
  name: string;
  /** Every spelling the parser accepts, dashes included: `--ctx-size`, `-c`. */
  flags: string[];
  /** Whether the option consumes a value (the next token, or after `=`). */
  takesValue: boolean;
}

export interface GrammarHabits {
  /** `--flag=value` is one token (argparse, clap); llama.cpp's parser does not split on `=`. */
  equals: boolean;
  /** Underscores in `--long_names` read as dashes (vLLM's FlexibleArgumentParser, llama.cpp). */
  underscores: boolean;
}

export interface ReadArgv {
  /** Known options in argv order (a repeated option appears twice; the last one wins in every engine read here). */
  uses: OptionUse[];
  /** Tokens that are neither an option nor an option's value, in order. */
  positionals: Token[];
  /** Dash tokens no spec names, with the flag as the parser would see it (after its normalisation). */
  unknown: { flag: Token; name: string; value?: Token }[];
}

/** The flag part of a token (`--x=1` → `--x` when the parser splits on `=`), normalised as the parser does. */
export function flagOf(raw: string, habits: GrammarHabits): string {
  let f = habits.equals && raw.startsWith('--') && raw.includes('=') ? raw.slice(0, raw.indexOf('=')) : raw;
  if (habits.underscores && f.startsWith('--')) {
    // vLLM normalises only up to the first '.', so `--hf_overrides.rope_scaling` keeps its keys.
    const dot = f.indexOf('.');
    f = dot < 0 ? f.replace(/_/g, '-') : f.slice(0, dot).replace(/_/g, '-') + f.slice(dot);
  }
  return f;
}

/**
 * The value an `=`-joined token carries, as a token of its own span (so findings and fixes land on
 * the value, not the flag). Quotes around the whole token (`'--x=a b'`) are kept out of the span.
 */
export function valueAfterEquals(tok: Token): Token {
  const eqRaw = tok.raw.indexOf('=');
  const eqVal = tok.value.indexOf('=');
  const value = tok.value.slice(eqVal + 1);
  // Where the value starts in the source: after '=' in the raw text.
  const offset = tok.offset + eqRaw + 1;
  const raw = tok.raw.slice(eqRaw + 1);
  const lenDelta = raw.length;
  const range = {
    start: { line: tok.range.start.line, character: tok.range.start.character + eqRaw + 1 },
    end: tok.range.end,
  };
  // A token spanning lines (rare) keeps its own range; offsets stay exact either way.
  if (tok.range.start.line !== tok.range.end.line) range.start = tok.range.start;
  // `"--max-model-len=65536"` (an exec-form or YAML list item, a quoted shell word): the value is
  // the text between '=' and the closing quote, written bare in the enclosing quotes by a fix.
  const enclosing = tok.raw[0];
  if ((enclosing === '"' || enclosing === "'") && tok.raw.length > eqRaw + 1 && tok.raw.endsWith(enclosing) && raw.slice(0, -1) === value) {
    const inner = raw.slice(0, -1);
    const innerRange = { start: range.start, end: { line: tok.range.end.line, character: Math.max(range.start.character, tok.range.end.character - 1) } };
    return { ...tok, value, raw: inner, offset, length: inner.length, range: innerRange, quote: 'none', enclosed: enclosing === '"' ? 'double' : 'single' };
  }
  const quote = /^'.*'$/s.test(raw) ? 'single' : /^".*"$/s.test(raw) ? 'double' : raw.includes("'") || raw.includes('"') ? 'mixed' : 'none';
  return { ...tok, value, raw, offset, length: lenDelta, range, quote };
}

export function readArgv(argv: readonly Token[], from: number, specs: readonly OptionSpec[], habits: GrammarHabits): ReadArgv {
  const byFlag = new Map<string, OptionSpec>();
  for (const s of specs) for (const f of s.flags) byFlag.set(f, s);
  const out: ReadArgv = { uses: [], positionals: [], unknown: [] };
  for (let i = from; i < argv.length; i++) {
    const tok = argv[i];
    const raw = tok.value;
    if (!raw.startsWith('-') || raw === '-' || /^-\d/.test(raw)) {
      out.positionals.push(tok);
      continue;
    }
    if (raw === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    const flag = flagOf(raw, habits);
    const joined = habits.equals && raw.startsWith('--') && raw.includes('=');
    const spec = byFlag.get(flag);
    if (!spec) {
      const next = argv[i + 1];
      const value = joined ? valueAfterEquals(tok) : next && !next.value.startsWith('-') ? next : undefined;
      out.unknown.push({ flag: tok, name: flag, value });
      // An unknown option's value is not a positional (the model): skip what looks like one.
      if (!joined && value) i++;
      continue;
    }
    if (!spec.takesValue) {
      out.uses.push({ name: spec.name, flag: tok });
      continue;
    }
    if (joined) {
      out.uses.push({ name: spec.name, flag: tok, value: valueAfterEquals(tok) });
      continue;
    }
    const next = argv[i + 1];
    if (next) {
      out.uses.push({ name: spec.name, flag: tok, value: next });
      i++;
    } else {
      out.uses.push({ name: spec.name, flag: tok });
    }
  }
  return out;
}

/** The last use of an option (every engine here lets a later occurrence win). */
export function lastUse(r: ReadArgv, name: string): OptionUse | undefined {
  for (let i = r.uses.length - 1; i >= 0; i--) if (r.uses[i].name === name) return r.uses[i];
  return undefined;
}

/** The program's file name without directories: `./build/bin/llama-server` → `llama-server`. */
export function programName(tok: Token | undefined): string {
  if (!tok) return '';
  return tok.value.replace(/\\/g, '/').split('/').pop() ?? '';
}

/** `python`, `python3`, `python3.11`, `/usr/bin/python3` (and `uv run python`, already peeled by adapters). */
export function isPython(tok: Token | undefined): boolean {
  return isPythonProgram(tok?.value);
}

/** Index after `python -m MODULE` when argv runs that module (flags like `-u` before `-m` allowed), else -1. */
export function afterPythonModule(argv: readonly Token[], modules: readonly string[]): number {
  const t = pythonTarget(argv.map((a) => a.value));
  return t?.kind === 'module' && modules.includes(t.name) ? t.rest : -1;
}

/**
 * Whether an image is one of these repositories, wherever it is pulled from: the repository itself
 * (`vllm/vllm-openai`) or a copy under another registry or namespace that keeps its name
 * (`registry.example.com/mirror/vllm-openai`, `us-docker.pkg.dev/…/vllm-openai`).
 */
export function imageIs(image: string, repos: readonly string[]): boolean {
  const { repo } = imageRepo(image);
  if (repos.includes(repo)) return true;
  const last = repo.slice(repo.lastIndexOf('/') + 1);
  return repos.some((r) => r.includes('/') && r.slice(r.lastIndexOf('/') + 1) === last && last.length > 4);
}

/**
 * A command named for this engine (`start_vllm`, `run_llama_server`; shared/launch/sniff.ts says
 * which) whose arguments are this engine's flags: read as the engine, from argv[1]. At least one
 * flag must be one the engine module reads and none another engine's, so a wrapper taking its own
 * options is not misread.
 */
export function engineWrapper(
  argv: readonly Token[],
  program: string,
  named: (name: string) => string | undefined,
  specs: readonly OptionSpec[],
  habits: GrammarHabits,
  foreign: Record<string, unknown> = {},
): { note: string } | undefined {
  const name = programName(argv[0]);
  if (!name || named(name) !== program) return undefined;
  const r = readArgv(argv, 1, specs, habits);
  // Options outside the table may be the engine's own (the table lists what RoPE Lens reads), but
  // another engine's flag means the wrapper is something else.
  if (!r.uses.length || r.unknown.some((u) => u.name in foreign)) return undefined;
  return { note: `${name} is read as ${program}: it is not defined in the files read, its name says ${program} and its arguments are ${program}'s options.` };
}

/** The image name without registry, tag or digest: `docker.io/vllm/vllm-openai:v0.10.1` → `vllm/vllm-openai`. */
export function imageRepo(image: string): { repo: string; tag?: string } {
  let s = image.trim();
  const at = s.indexOf('@');
  if (at >= 0) s = s.slice(0, at);
  let tag: string | undefined;
  const colon = s.lastIndexOf(':');
  if (colon > s.lastIndexOf('/')) {
    tag = s.slice(colon + 1);
    s = s.slice(0, colon);
  }
  const parts = s.split('/');
  // A first part with a dot or a port is a registry host (ghcr.io, docker.io, localhost:5000).
  if (parts.length > 1 && (/[.:]/.test(parts[0]) || parts[0] === 'localhost')) parts.shift();
  const repo = parts
    .join('/')
    .toLowerCase()
    .replace(/^library\//, '');
  return tag === undefined ? { repo } : { repo, tag };
}

/** A JSON object option (`--hf-overrides`, `--json-model-override-args`) as the engine parses it: Python's json.loads, then a dict. */
export function readJsonObject(use: OptionUse): { value?: Record<string, unknown>; error?: string } {
  const text = use.value?.value;
  if (text === undefined) return { error: 'no value follows the flag' };
  const r = loadsPython(text);
  if ('error' in r) return { error: `json.loads fails on the value (${r.error})` };
  const v = r.value;
  if (v && typeof v === 'object' && !Array.isArray(v)) return { value: v as Record<string, unknown> };
  const kind = Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'string' ? 'a string' : typeof v === 'number' ? 'a number' : 'a boolean';
  return { error: `the value is JSON but ${kind}, not the object of keys the engine expects` };
}

/** Config keys whose misspelling silently loses RoPE settings (the engine sets any attribute it is given). */
export const ROPE_CONFIG_KEYS = [
  'rope_scaling',
  'rope_parameters',
  'rope_theta',
  'max_position_embeddings',
  'original_max_position_embeddings',
  'partial_rotary_factor',
  'sliding_window',
  'use_sliding_window',
  'text_config',
  'model_max_length',
  'head_dim',
];

/** Levenshtein distance (near misses of a key or a name). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

/**
 * Top-level override keys the engine will set on the config but no code reads: a hyphenated
 * spelling (`rope-scaling`: PretrainedConfig.update sets the attribute `rope-scaling`) or a near
 * miss of a RoPE key (`rope_scalling`). Each with the key it was meant to be.
 */
export function ignoredOverrideKeys(obj: Record<string, unknown>): { key: string; meant: string }[] {
  const out: { key: string; meant: string }[] = [];
  for (const key of Object.keys(obj)) {
    if (ROPE_CONFIG_KEYS.includes(key)) continue;
    const snake = key.replace(/-/g, '_');
    if (snake !== key && ROPE_CONFIG_KEYS.includes(snake)) {
      out.push({ key, meant: snake });
      continue;
    }
    const near = ROPE_CONFIG_KEYS.find((k) => editDistance(snake.toLowerCase(), k) <= (k.length > 10 ? 2 : 1));
    if (near && !(near in obj)) out.push({ key, meant: near });
  }
  return out;
}

/** The object with `from` renamed to `to`, key order kept. */
export function renameKey(obj: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k === from ? to : k] = v;
  return out;
}

/** A written value for a message: quoted, cut to 40 characters; words that would read as a computation bug are described. */
export function shownValue(v: string): string {
  if (/NaN|undefined|Infinity|\[object/.test(v)) return 'the value written there';
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v);
}
