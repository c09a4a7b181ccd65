/**
 * The project file, `.rope-lens.yaml`: what a repository says about its own checks, in the way
 * linters' project files do (ruff's `select`/`ignore`, hadolint's `.hadolint.yaml`). Found upward
 * from the checked file by the injected `ProjectConfigSource` (shared/node/projectConfig.ts reads
 * files on Node); parsed here, purely:
 *
 *   enable: [rope, launch/*]        # only these codes or groups are reported (default: all)
 *   disable: [rope/scaling-unknown-key]
 *   severity: { rope/base-below-bound: warning }   # error | warning | information | hint | off
 *   consumers: [transformers==4.41.0]              # as ropeLens.consumers / --consumer
 *   ignore: [third_party/**, "legacy/*.json"]     # paths (globs, relative to this file) not checked
 *
 * It is the only way to silence findings in JSON, which has no comments.
 */
import { parseDocumentText } from '../document/parse';
import { toPlain } from '../document/configNode';
import { selectorKnown } from '../core/codes';
import type { Severity } from '../core/findings';

export const PROJECT_FILE_NAME = '.rope-lens.yaml';

export interface ProjectConfig {
  /** The project file's path (messages, SARIF justifications). */
  path: string;
  /** Its folder: ignore globs are relative to it. */
  root: string;
  /** Only these selectors are reported, when set. */
  enable?: string[];
  disable: string[];
  severity: Record<string, Severity | 'off'>;
  consumers: string[];
  ignore: string[];
  /** What could not be read (unknown keys, codes, severities): printed by the CLI, logged by the server. */
  problems: string[];
}

/** Finds and reads the project file that applies to a file (injected: Node reads the file system). */
export interface ProjectConfigSource {
  configFor(filePath: string): ProjectConfig | undefined;
}

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint', 'off']);
const KEYS = new Set(['enable', 'disable', 'severity', 'consumers', 'ignore']);

/** Reads a project file's text; never throws (problems are listed instead). */
export function parseProjectConfig(text: string, path: string): ProjectConfig {
  const root = path.replace(/[\\/][^\\/]*$/, '') || '/';
  const out: ProjectConfig = { path, root, disable: [], severity: {}, consumers: [], ignore: [], problems: [] };
  let data: unknown;
  try {
    const doc = parseDocumentText(text, 'yaml');
    if (doc.problems.length) out.problems.push(`${path}: ${doc.problems[0].message}`);
    data = toPlain(doc.root);
  } catch (e) {
    out.problems.push(`${path}: not read: ${(e as Error).message}`);
    return out;
  }
  if (data === undefined || data === null) return out;
  if (typeof data !== 'object' || Array.isArray(data)) {
    out.problems.push(`${path}: expected a mapping with ${[...KEYS].join(', ')}`);
    return out;
  }
  const obj = data as Record<string, unknown>;
  for (const key of Object.keys(obj)) if (!KEYS.has(key)) out.problems.push(`${path}: unknown key '${key}' (known: ${[...KEYS].join(', ')})`);
  const list = (key: string): string[] | undefined => {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    const items = Array.isArray(v) ? v : [v];
    const strings = items.filter((x): x is string => typeof x === 'string');
    if (strings.length !== items.length) out.problems.push(`${path}: '${key}' takes a list of strings`);
    return strings;
  };
  const selectors = (key: string): string[] | undefined => {
    const l = list(key);
    for (const s of l ?? [])
      if (!selectorKnown(s)) out.problems.push(`${path}: '${key}' names '${s}', which is no finding code or group (see \`rope-lens rules\`)`);
    return l;
  };
  const enable = selectors('enable');
  if (enable) out.enable = enable;
  out.disable = selectors('disable') ?? [];
  out.consumers = list('consumers') ?? [];
  out.ignore = list('ignore') ?? [];
  const sev = obj.severity;
  if (sev !== undefined && sev !== null) {
    if (typeof sev !== 'object' || Array.isArray(sev)) out.problems.push(`${path}: 'severity' takes a mapping of code to severity`);
    else {
      for (const [code, level] of Object.entries(sev as Record<string, unknown>)) {
        if (!selectorKnown(code)) out.problems.push(`${path}: 'severity' names '${code}', which is no finding code or group`);
        if (typeof level !== 'string' || !SEVERITIES.has(level)) {
          out.problems.push(`${path}: severity of '${code}' must be one of ${[...SEVERITIES].join(', ')}`);
          continue;
        }
        out.severity[code] = level as Severity | 'off';
      }
    }
  }
  return out;
}

/** A path relative to the project root with forward slashes, or undefined when outside it. */
function relativeTo(root: string, filePath: string): string | undefined {
  const norm = (p: string) => p.replace(/\\/g, '/');
  const r = norm(root).replace(/\/$/, '');
  const f = norm(filePath);
  if (!f.startsWith(r + '/')) return undefined;
  return f.slice(r.length + 1);
}

/** A gitignore-like glob as a regular expression over a relative path (`*`, `?`, `**`). */
export function globToRegExp(glob: string): RegExp {
  let g = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  const anchored = g.startsWith('/') || g.replace(/\/$/, '').includes('/');
  g = g.replace(/^\//, '');
  if (g.endsWith('/')) g += '**';
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const ch = g[i];
    if (ch === '*' && g[i + 1] === '*') {
      // `**/` matches any number of folders (none included); a trailing `**` everything below.
      if (g[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A pattern without a folder part matches a name at any depth; a match of a folder covers its contents.
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${re}(?:/.*)?$`);
}

/** The ignore pattern of the project file that excludes this file, if any. */
export function ignoredBy(config: ProjectConfig, filePath: string): string | undefined {
  const rel = relativeTo(config.root, filePath);
  if (rel === undefined) return undefined;
  return config.ignore.find((g) => globToRegExp(g).test(rel));
}
