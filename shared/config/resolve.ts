/**
 * Offline resolution of a training config's base model to its RoPE description:
 *   1. a local path (relative to the YAML) → its config.json;
 *   2. the Hugging Face cache: $HF_HUB_CACHE or $HF_HOME/hub or ~/.cache/huggingface/hub,
 *      models--ORG--NAME/snapshots/<rev>/config.json (`org/name@revision`: that branch, tag or commit);
 *   3. the built-in catalog of popular models (real values, each with its source).
 * Pure: file access goes through an injected FileReader (shared/node/resolveNode.ts provides the Node one).
 */
import { parseJsonDocument } from '../document/parseJson';
import { noRopeModelOf } from './noRopeModel';
import type { ModelRope } from './modelRope';
import { readModelConfig } from './modelConfig';
import { catalogConfigText, findCatalogEntry } from './catalog';

export interface FileReader {
  /** File contents, or undefined when missing or unreadable. */
  readText(path: string): string | undefined;
  /** Entry names of a directory, or undefined when it is not one. */
  listDir(path: string): string[] | undefined;
}

export interface ResolvedBaseModel {
  /** The reference that resolved (hub id or path as written). */
  ref: string;
  rope: ModelRope;
  /** A config path, `hf-cache:<path>` or `catalog:<id>`. */
  from: string;
  /** The catalog entry's source URL, for catalog hits. */
  source?: string;
}

export interface BaseModelResolver {
  /** Tries each reference in order; `fromFile` is the training config's own path. */
  resolve(refs: readonly string[], fromFile: string): ResolvedBaseModel | undefined;
  /** Forgets remembered answers (after a Hub fetch has added files to the cache). */
  reset?(): void;
}

export interface ResolverOptions {
  reader?: FileReader;
  /** The hub cache folder (…/huggingface/hub), when known. */
  hubCache?: string;
}

/** A resolver over a file reader (if any) and the built-in catalog. */
export function createResolver(opts: ResolverOptions = {}): BaseModelResolver {
  const cache = new Map<string, ResolvedBaseModel | undefined>();
  return {
    resolve(refs, fromFile) {
      for (const ref of refs) {
        const key = `${fromFile}\u0000${ref}`;
        if (!cache.has(key)) cache.set(key, resolveOne(ref, fromFile, opts));
        const hit = cache.get(key);
        if (hit) return hit;
      }
      return undefined;
    },
    reset() {
      cache.clear();
    },
  };
}

/**
 * A resolver that remembers, per requesting file, the Hub references it could not resolve: what a
 * front-end fetches from the Hub (asynchronously) before analysing again.
 */
export interface RecordingResolver extends BaseModelResolver {
  /** Every Hub reference missed so far. */
  readonly misses: ReadonlySet<string>;
  /** Every reference resolved so far, with where it came from. */
  readonly hits: ReadonlyMap<string, ResolvedBaseModel>;
  /** The references missed for one file since the last call (and forgets them). */
  takeMisses(fromFile: string): string[];
}

export function recordingResolver(inner: BaseModelResolver): RecordingResolver {
  const misses = new Set<string>();
  const hits = new Map<string, ResolvedBaseModel>();
  const byFile = new Map<string, Set<string>>();
  return {
    misses,
    hits,
    resolve(refs, fromFile) {
      const hit = inner.resolve(refs, fromFile);
      if (hit) hits.set(hit.ref, hit);
      else {
        for (const raw of refs) {
          const r = raw.trim();
          // A model the catalog knows to have no RoPE is no miss: its config from the Hub would add nothing to judge.
          if (!parseHubRef(r) || noRopeModelOf([r])) continue;
          misses.add(r);
          if (!byFile.has(fromFile)) byFile.set(fromFile, new Set());
          byFile.get(fromFile)!.add(r);
        }
      }
      return hit;
    },
    takeMisses(fromFile) {
      const found = [...(byFile.get(fromFile) ?? [])];
      byFile.delete(fromFile);
      return found;
    },
    reset() {
      inner.reset?.();
    },
  };
}

/** The catalog alone: what the pure analysis uses when no resolver is injected. */
export const catalogResolver: BaseModelResolver = createResolver();

function resolveOne(ref: string, fromFile: string, opts: ResolverOptions): ResolvedBaseModel | undefined {
  const r = ref.trim();
  if (!r) return undefined;
  const reader = opts.reader;
  if (reader) {
    const local = fromLocalPath(r, fromFile, reader);
    if (local) return local;
    const hub = parseHubRef(r);
    if (opts.hubCache && hub) {
      const cached = fromHubCache(hub, opts.hubCache, reader);
      if (cached) return { ...cached, ref: r };
    }
  }
  // The catalog describes each model's main branch: an explicit other revision is not in it.
  const hub = parseHubRef(r);
  if (hub?.revision !== undefined && hub.revision !== 'main') return undefined;
  const entry = findCatalogEntry(hub ? hub.id : r);
  if (!entry) return undefined;
  const rope = ropeOfConfigText(catalogConfigText(entry), undefined, entry.id);
  return rope ? { ref: r, rope, from: `catalog:${entry.id}`, source: entry.source } : undefined;
}

function ropeOfConfigText(text: string, filePath?: string, baseModel?: string): ModelRope | undefined {
  try {
    return readModelConfig(parseJsonDocument(text), { filePath, baseModel })?.rope;
  } catch {
    return undefined;
  }
}

export function looksLikeHubId(ref: string): boolean {
  return parseHubRef(ref) !== undefined;
}

/** A Hub model reference: `org/name`, optionally `@revision` (a branch, tag or commit). */
export interface HubRef {
  id: string;
  revision?: string;
}

/** `org/name` or `org/name@revision` → its parts; undefined for anything else (paths, files, bare names). */
export function parseHubRef(ref: string): HubRef | undefined {
  const at = ref.indexOf('@');
  const id = at < 0 ? ref : ref.slice(0, at);
  const revision = at < 0 ? undefined : ref.slice(at + 1);
  // A file (a GGUF, weights, a config) is a path, never a repository name.
  if (!/^[A-Za-z0-9][\w.\-]*\/[\w.\-]+$/.test(id) || /\.(json|gguf|safetensors|bin|pt|pth)$/i.test(id) || id.includes('..')) return undefined;
  // A revision names a file under refs/: no empty, `.` or `..` segments (nothing outside that folder).
  if (revision !== undefined && (!/^[\w.\-\/]+$/.test(revision) || revision.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')))
    return undefined;
  return revision === undefined ? { id } : { id, revision };
}

/** A 40-hex commit id (what snapshots/ folders are named). */
export const COMMIT_ID = /^[0-9a-f]{40}$/;

function fromLocalPath(ref: string, fromFile: string, reader: FileReader): ResolvedBaseModel | undefined {
  // Absolute and home-relative (`~/`, expanded by the reader) paths as written; others from the YAML's folder.
  const base = ref.startsWith('/') || ref.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(ref) ? ref : joinPath(dirName(fromFile), ref);
  const candidates = base.endsWith('.json') ? [base] : [joinPath(base, 'config.json')];
  for (const p of candidates) {
    const text = reader.readText(p);
    if (text === undefined) continue;
    const rope = ropeOfConfigText(text, p, ref);
    if (rope) return { ref, rope, from: p };
  }
  return undefined;
}

/** The folder of a model repository in the hub cache (huggingface_hub's layout). */
export function hubCacheRepoDir(hubCache: string, id: string): string {
  return joinPath(hubCache, `models--${id.replace(/\//g, '--')}`);
}

function fromHubCache(hub: HubRef, hubCache: string, reader: FileReader): ResolvedBaseModel | undefined {
  for (const p of hubCacheConfigPaths(hub, hubCache, reader)) {
    const text = reader.readText(p);
    if (text === undefined) continue;
    const rope = ropeOfConfigText(text, p, hub.id);
    if (rope) return { ref: hub.id, rope, from: `hf-cache:${p}` };
  }
  return undefined;
}

/**
 * The config.json paths of a model's Hugging Face cache snapshots, the revision asked for first, whatever the model
 * (one without RoPE included: `serve` says so instead of "not found").
 */
export function hubCacheConfigPaths(hub: HubRef, hubCache: string, reader: FileReader): string[] {
  const { id, revision } = hub;
  const dir = hubCacheRepoDir(hubCache, id);
  const snapshots = joinPath(dir, 'snapshots');
  const revs = reader.listDir(snapshots) ?? [];
  let ordered: string[];
  if (revision !== undefined && revision !== 'main') {
    // An explicit revision: that commit, or the commit its refs/<branch or tag> file names; nothing else.
    const commit = COMMIT_ID.test(revision) ? revision : reader.readText(joinPath(dir, 'refs', revision))?.trim();
    ordered = commit && revs.includes(commit) ? [commit] : [];
  } else {
    // The revision `refs/main` points at; else any snapshot that has a config.json, except those
    // another branch or tag names (`org/name` means main, not a branch fetched as `org/name@v2`).
    const main = reader.readText(joinPath(dir, 'refs/main'))?.trim();
    const otherRefs = new Set(
      (reader.listDir(joinPath(dir, 'refs')) ?? [])
        .filter((n) => n !== 'main')
        .map((n) => reader.readText(joinPath(dir, 'refs', n))?.trim())
        .filter((c): c is string => !!c),
    );
    const rest = revs.filter((r) => r !== main && !otherRefs.has(r)).sort();
    ordered = main && revs.includes(main) ? [main, ...rest] : rest;
  }
  return ordered.map((rev) => joinPath(snapshots, rev, 'config.json'));
}

/** POSIX-style path helpers (pure; Windows back-slashes are normalized). */
export function joinPath(...parts: string[]): string {
  const joined = parts
    .filter((p) => p !== '')
    .join('/')
    .replace(/\\/g, '/');
  const abs = joined.startsWith('/');
  const out: string[] = [];
  for (const seg of joined.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else out.push(seg);
  }
  const s = out.join('/');
  return abs ? '/' + s : s || '.';
}

export function dirName(p: string): string {
  const n = p.replace(/\\/g, '/');
  const i = n.lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : n.slice(0, i);
}
