/**
 * Which consumers a workspace says it uses: pinned packages in requirements/pyproject/lock files,
 * engine image tags, and the `ropeLens.consumers` setting. The parsers are pure (text in, pins
 * out); reading the files is the injected `WorkspaceFacts` (shared/node/consumerPins.ts on Node).
 */
import type { ConsumerPackage } from './consumer';
import { editDistance } from './argv';
import { MAX_NEIGHBOUR_BYTES, MAX_NEIGHBOUR_LINE_CHARS } from '../core/limits';

export interface ConsumerPin {
  pkg: ConsumerPackage;
  /** The exact or lower-bound version pinned; null when the package is named without one. */
  version: string | null;
  /** Where it was read: `requirements.txt:3`, `uv.lock`, `setting ropeLens.consumers`. */
  source: string;
}

/** What the workspace says about a file's consumers (injected: the Node implementation reads files). */
export interface WorkspaceFacts {
  pinsFor(filePath: string): ConsumerPin[];
  /** What the last scan for `filePath` left out (a neighbour over a size cap), one line each. */
  notesFor?(filePath: string): string[];
  /**
   * Scans the lookups for `filePath` (pins, project file, sourced scripts) started and that have not
   * landed: the answers left them out (the language server's scans, shared/files/workspaceScans.ts).
   */
  pendingFor?(filePath: string): string[];
}

/** Python distribution names (normalized) → consumer. */
const PACKAGES: Record<string, ConsumerPackage> = {
  transformers: 'transformers',
  vllm: 'vllm',
  sglang: 'sglang',
  'llama-cpp-python': 'llama.cpp',
  'text-generation-server': 'tgi',
  'text-generation': 'tgi',
  ollama: 'ollama',
};

function normalize(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, '-');
}

function pkgOf(name: string): ConsumerPackage | undefined {
  const n = normalize(name);
  return PACKAGES[n] ?? (n === 'llama-cpp' || n === 'llama.cpp' ? 'llama.cpp' : n === 'tgi' ? 'tgi' : undefined);
}

/**
 * One requirement specifier (`transformers==4.42.4`, `vllm>=0.6,<0.7`, `sglang[all]~=0.4.6`,
 * `llama.cpp@b4500`): the package and the version it pins (the `==`/`~=`/`>=` version), if any.
 */
export function parseRequirement(spec: string, source: string): ConsumerPin | undefined {
  // A comment starts at ' #' (a search for '\s+#.*$' would rescan a long blank run from each blank).
  const comment = spec.search(/\s#/);
  const line = (comment < 0 ? spec : spec.slice(0, comment)).trim();
  const m = line.match(/^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:(===|==|~=|>=|@|:)\s*v?([0-9][0-9A-Za-z.+-]*))?/);
  if (!m) return undefined;
  const pkg = pkgOf(m[1]);
  if (!pkg) return undefined;
  return { pkg, version: m[3] ?? null, source };
}

/** requirements*.txt, constraints files: one specifier per line (`-r`, options and comments skipped). */
export function pinsFromRequirements(text: string, file: string): ConsumerPin[] {
  const out: ConsumerPin[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('-')) return;
    const pin = parseRequirement(line, `${file}:${i + 1}`);
    if (pin) out.push(pin);
  });
  return out;
}

/** pyproject.toml: quoted specifiers in dependency arrays (PEP 621) and `name = "…"` tables (Poetry). */
export function pinsFromPyproject(text: string, file: string): ConsumerPin[] {
  const out: ConsumerPin[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    for (const q of raw.matchAll(/"([^"]+)"|'([^']+)'/g)) {
      const pin = parseRequirement(q[1] ?? q[2], `${file}:${i + 1}`);
      if (pin) out.push(pin);
    }
    const poetry = raw.match(/^\s*([A-Za-z0-9._-]+)\s*=\s*(?:"[\^~=<>]*\s*([0-9][^"]*)"|\{[^}]*version\s*=\s*"[\^~=<>]*\s*([0-9][^"]*)")/);
    if (poetry) {
      const pkg = pkgOf(poetry[1]);
      if (pkg) out.push({ pkg, version: (poetry[2] ?? poetry[3]).split(/[ ,]/)[0], source: `${file}:${i + 1}` });
    }
  });
  return out;
}

/** uv.lock and poetry.lock: `[[package]]` entries with `name = "…"` then `version = "…"`. */
export function pinsFromTomlLock(text: string, file: string): ConsumerPin[] {
  const out: ConsumerPin[] = [];
  let name: string | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (/^\s*\[\[package\]\]/.test(raw)) name = undefined;
    const n = raw.match(/^\s*name\s*=\s*"([^"]+)"/);
    if (n) name = n[1];
    const v = raw.match(/^\s*version\s*=\s*"([^"]+)"/);
    if (v && name) {
      const pkg = pkgOf(name);
      if (pkg) out.push({ pkg, version: v[1], source: `${file}:${i + 1}` });
      name = undefined;
    }
  });
  return out;
}

/** Pipfile.lock: `{"default": {"transformers": {"version": "==4.42.4"}}}`. */
export function pinsFromPipfileLock(text: string, file: string): ConsumerPin[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const out: ConsumerPin[] = [];
  for (const section of ['default', 'develop']) {
    const deps = (data as Record<string, Record<string, { version?: string }>>)?.[section];
    if (!deps || typeof deps !== 'object') continue;
    for (const [name, d] of Object.entries(deps)) {
      const pkg = pkgOf(name);
      if (pkg) out.push({ pkg, version: d?.version?.replace(/^[=~<>]+/, '') ?? null, source: file });
    }
  }
  return out;
}

/** The `ropeLens.consumers` setting: specifiers such as `transformers==4.42.4` or `vllm`. */
/** The forms a consumer may be named in (`--consumer`, `ropeLens.consumers`), for messages. */
export const CONSUMER_SPEC_FORMS =
  'PACKAGE or PACKAGE==VERSION (also ~=, >=, ===, @, and a range such as >=0.6,<0.7), where PACKAGE is transformers, vllm, sglang, llama.cpp (or llama-cpp-python), tgi (or text-generation, text-generation-server) or ollama; e.g. transformers==4.41.0';

const SPEC_NAMES = [...Object.keys(PACKAGES), 'llama.cpp', 'tgi'];

/**
 * Why `spec` is not a consumer RoPE Lens knows, or undefined when it is one. Stricter than
 * parseRequirement (which reads requirement files, where other packages and trailing text are
 * normal): the whole text must be one consumer, so `transformers=4.41.0` (one '=') or a misspelt
 * package is refused instead of silently read as something else or ignored.
 */
export function consumerSpecProblem(spec: string): string | undefined {
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*([\s\S]*)$/.exec(spec.trim());
  if (!m) return `'${spec}' does not name a package`;
  const [, name, rest] = m;
  if (!pkgOf(name)) {
    const n = normalize(name);
    const near = SPEC_NAMES.find((k) => editDistance(n, normalize(k)) <= 2);
    return `unknown consumer '${name}'${near ? ` (did you mean '${near}'?)` : ''}`;
  }
  // The version parseRequirement reads, then optional upper bounds (`>=0.6,<0.7`: the lower one is what counts).
  if (rest && !/^(===|==|~=|>=|@|:)\s*v?[0-9][0-9A-Za-z.+-]*(\s*,\s*(<|<=|!=)\s*[0-9][0-9A-Za-z.*+-]*)*$/.test(rest)) {
    const single = /^=\s*v?[0-9]/.test(rest) ? ` (did you mean '${name}==${rest.slice(1).trim()}'?)` : '';
    return `'${spec}' is not a version specifier${single}`;
  }
  return undefined;
}

export function pinsFromSetting(specs: readonly string[] | undefined): ConsumerPin[] {
  return (specs ?? []).map((s) => parseRequirement(s, 'setting ropeLens.consumers')).filter((p): p is ConsumerPin => p !== undefined);
}

/** Engine images (Docker Hub / GHCR names) → consumer. */
const IMAGES: [RegExp, ConsumerPackage][] = [
  [/(^|\/)vllm\/vllm-openai$/, 'vllm'],
  [/(^|\/)lmsysorg\/sglang$/, 'sglang'],
  [/(^|\/)huggingface\/text-generation-inference$/, 'tgi'],
  [/(^|\/)ollama\/ollama$/, 'ollama'],
  [/(^|\/)(ggml-org|ggerganov)\/llama\.cpp$/, 'llama.cpp'],
  [/(^|\/)huggingface\/transformers-[a-z-]+$/, 'transformers'],
];

/**
 * Engine image references in a Dockerfile, compose file or any launch text (`FROM vllm/vllm-openai:v0.6.3`,
 * `image: lmsysorg/sglang:v0.4.6.post1-cu124`): the image's tag as the version when it is a dotted
 * release (`latest`, `server-b4500` and digests pin no comparable version).
 */
export function pinsFromImageRefs(text: string, file: string): ConsumerPin[] {
  const out: ConsumerPin[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    // Token first, then one anchored match per token: an unanchored search for `a/b` restarts at
    // every character of a long word without '/' (a base64 blob, a hex RUN line) and goes quadratic.
    for (const token of raw.split(IMAGE_TOKEN_DELIMITERS)) {
      if (token.length > MAX_IMAGE_REF_CHARS || !token.includes('/')) continue;
      const m = IMAGE_REF.exec(token);
      if (!m) continue;
      const name = (m[1] ?? '') + m[2];
      const hit = IMAGES.find(([re]) => re.test(name));
      if (!hit) continue;
      const tag = m[3]?.match(/^v?(\d+\.\d+(?:\.\d+)?)/)?.[1] ?? null;
      out.push({ pkg: hit[1], version: tag, source: `${file}:${i + 1}` });
    }
  });
  return out;
}

/** What separates an image reference from its neighbours on a line: blanks, quotes, `=`, list and shell punctuation, a digest's `@`. */
const IMAGE_TOKEN_DELIMITERS = /[\s"'`=,;()[\]{}<>|&@]+/;
/** `[registry[:port]/]namespace/name[:tag]` at the start of a token. */
const IMAGE_REF = /^([a-z0-9.-]+(?::\d+)?\/)?([a-z0-9._-]+\/[a-z0-9._-]+)(?::([A-Za-z0-9._-]+))?/;
/** Docker caps a repository name at 255 characters; a longer token is not an image reference. */
const MAX_IMAGE_REF_CHARS = 512;

/**
 * `pip install …` (also `python -m pip`, `uv pip`, `pip3`) in a Dockerfile RUN or a script: each
 * consumer package it names, with the version it pins if any (`vllm==0.6.1`, `"transformers>=4.44"`).
 */
export function pinsFromPipInstall(text: string, file: string): ConsumerPin[] {
  const out: ConsumerPin[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    for (const m of raw.matchAll(/\bpip3?\s+install\b([^;&|]*)/g)) {
      for (const word of m[1].trim().split(/\s+/)) {
        const spec = word.replace(/^["']|["']$/g, '');
        if (!spec || spec.startsWith('-')) continue;
        const pin = parseRequirement(spec, `${file}:${i + 1}`);
        if (pin) out.push(pin);
      }
    }
  });
  return out;
}

/**
 * The engine programs a launch text starts (`vllm serve`, `python -m sglang.launch_server`,
 * `text-generation-launcher`, `llama-server`): a pin without a version, i.e. the current release,
 * unless a pin elsewhere names one. TGI counts only where this finds it launched.
 */
const LAUNCHERS: [RegExp, ConsumerPackage][] = [
  [/(^|[\s"'[,;&|(])vllm\s+serve\b|vllm\.entrypoints\./, 'vllm'],
  [/sglang\.launch_server\b|(^|[\s"'[,;&|(])sglang\s+serve\b/, 'sglang'],
  [/(^|[\s"'[,;&|(/])text-generation-launcher\b/, 'tgi'],
  [/(^|[\s"'[,;&|(/])llama-server\b/, 'llama.cpp'],
  [/(^|[\s"'[,;&|(/])ollama\s+(serve|create|run)\b/, 'ollama'],
];

export function pinsFromLaunches(text: string, file: string): ConsumerPin[] {
  const out: ConsumerPin[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (/^\s*#/.test(raw)) return;
    for (const [re, pkg] of LAUNCHERS) if (re.test(raw) && !out.some((p) => p.pkg === pkg)) out.push({ pkg, version: null, source: `${file}:${i + 1}` });
  });
  return out;
}

/** What a Dockerfile, compose file or script shows: image tags, pip installs, then the engines it starts (a versioned pin of the same package first). */
function pinsFromLaunchText(text: string, name: string): ConsumerPin[] {
  const pinned = [...pinsFromImageRefs(text, name), ...pinsFromPipInstall(text, name)];
  return [...pinned, ...pinsFromLaunches(text, name).filter((l) => !pinned.some((p) => p.pkg === l.pkg))];
}

/** Pins from one file, chosen by its name (undefined for a name that holds none). */
export function pinsFromFile(name: string, text: string): ConsumerPin[] | undefined {
  if (/^requirements.*\.txt$|^constraints.*\.txt$/i.test(name)) return pinsFromRequirements(text, name);
  if (name === 'pyproject.toml') return pinsFromPyproject(text, name);
  if (name === 'uv.lock' || name === 'poetry.lock') return pinsFromTomlLock(text, name);
  if (name === 'Pipfile.lock') return pinsFromPipfileLock(text, name);
  if (/^Dockerfile|\.Dockerfile$|^(docker-)?compose.*\.ya?ml$|\.sh$/i.test(name)) return pinsFromLaunchText(text, name);
  return undefined;
}

/**
 * Pins from a neighbour file's text within the caps (shared/core/limits.ts): a line over the line
 * cap is left out (line numbers kept), a text over the byte cap is not read; each says so in `notes`.
 */
export function pinsFromNeighbour(name: string, text: string, path: string): { pins: ConsumerPin[]; notes: string[] } {
  if (text.length > MAX_NEIGHBOUR_BYTES)
    return { pins: [], notes: [`${path}: larger than ${MAX_NEIGHBOUR_BYTES / 1024 / 1024} MB, not read for consumer pins`] };
  const long: number[] = [];
  const lines = text.split('\n').map((line, i) => {
    if (line.length <= MAX_NEIGHBOUR_LINE_CHARS) return line;
    long.push(i + 1);
    return '';
  });
  const notes = long.length
    ? [
        `${path}: ${long.length === 1 ? `line ${long[0]} is` : `${long.length} lines (from line ${long[0]}) are`} longer than ${MAX_NEIGHBOUR_LINE_CHARS / 1024} K characters, skipped for consumer pins`,
      ]
    : [];
  return { pins: pinsFromFile(name, long.length ? lines.join('\n') : text) ?? [], notes };
}
