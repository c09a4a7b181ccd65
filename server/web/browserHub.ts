/**
 * The Hugging Face Hub from the browser server (opt-in, per `ropeLens.hub.allowNetwork`, as on the
 * desktop: server/hub.ts decides, this only fetches). There is no disk: a model's config.json comes
 * through `fetch` from the Hub's resolve URL (`<endpoint>/<id>/resolve/<revision>/config.json`, which
 * the Hub serves with CORS) into an in-memory copy of the HF cache layout
 *   <HUB_MEMORY_CACHE>/models--org--name/snapshots/<commit>/config.json, …/refs/<revision>
 * that the resolver reads through `hubOverlay` exactly as it reads the desktop's cache. It lasts as
 * long as the server's worker. No token: the browser build sends none, so a gated or private model
 * says so. Every failure is a HubFailure with a sentence for the user, never a throw.
 */
import { COMMIT_ID, type FileReader, dirName, hubCacheRepoDir, joinPath, parseHubRef } from '../../shared/config/resolve';
import type { SyncFiles } from '../../shared/files/syncFiles';
import type { HubFailure, HubFailureKind, HubResult, HubSettings } from '../../shared/node/hubFetch';
import type { HubBackend } from '../platform';

/** Where fetched models live (in memory only; no workspace file has this path). */
export const HUB_MEMORY_CACHE = '/.rope-lens-hub-in-memory';
/** The Hub's own address (what @huggingface/hub calls HUB_URL; that package is Node's side). */
export const HUB_ENDPOINT = 'https://huggingface.co';

/** The fetched files, in the HF cache's layout. */
export class MemoryHubCache implements FileReader {
  private readonly files = new Map<string, string>();

  put(path: string, text: string): void {
    this.files.set(path, text);
  }

  readText(path: string): string | undefined {
    return this.files.get(path);
  }

  listDir(path: string): string[] | undefined {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    const names = new Set<string>();
    for (const p of this.files.keys()) if (p.startsWith(prefix)) names.add(p.slice(prefix.length).split('/')[0]);
    return names.size ? [...names] : undefined;
  }
}

/** The workspace's files, with HUB_MEMORY_CACHE answered from memory (never asked of the editor). */
export function hubOverlay(files: SyncFiles, cache: MemoryHubCache): SyncFiles {
  const inCache = (p: string) => p === HUB_MEMORY_CACHE || p.startsWith(`${HUB_MEMORY_CACHE}/`);
  return {
    readText: (p) => (inCache(p) ? cache.readText(p) : files.readText(p)),
    listDir: (p) => (inCache(p) ? cache.listDir(p) : files.listDir(p)),
    hasEntry: (dir, name) => (inCache(dir) ? (cache.listDir(dir)?.includes(name) ?? false) : files.hasEntry(dir, name)),
  };
}

export interface BrowserHubOptions {
  /** The Hub or a mirror (tests: a local stand-in). */
  endpoint?: string;
  timeoutMs?: number;
  attempts?: number;
}

class Timeout extends Error {}
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** GET with a timeout per attempt, retried (backing off) on timeouts, connection errors, 429 and 5xx. */
async function getWithRetry(url: string, s: HubSettings, log: (line: string) => void): Promise<Response> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= s.attempts; attempt++) {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), s.timeoutMs);
    try {
      const resp = await fetch(url, { signal: ctrl.signal });
      if ((resp.status === 429 || resp.status >= 500) && attempt < s.attempts) {
        await resp.body?.cancel();
        log(`${resp.status} from ${url}; retrying (${attempt}/${s.attempts})`);
      } else {
        // The body too must arrive within the timeout: read it before the timer goes.
        const body = await resp.text();
        return new Response(resp.status === 204 ? null : body, { status: resp.status, headers: resp.headers });
      }
    } catch (e) {
      lastError = ctrl.signal.aborted ? new Timeout(`no answer within ${s.timeoutMs / 1000} s`) : e;
      if (attempt < s.attempts) log(`${(lastError as Error).message} (${url}); retrying (${attempt}/${s.attempts})`);
    } finally {
      clearTimeout(timer);
    }
    if (attempt < s.attempts) await sleep(250 * 2 ** (attempt - 1));
  }
  throw lastError;
}

function failure(ref: string, kind: HubFailureKind, message: string): HubFailure {
  return { ok: false, ref, kind, message };
}

async function fetchOne(ref: string, s: HubSettings, cache: MemoryHubCache, log: (line: string) => void): Promise<HubResult> {
  const hub = parseHubRef(ref);
  if (!hub) return failure(ref, 'error', `'${ref}' is not a Hub model id (org/name or org/name@revision)`);
  const revision = hub.revision ?? 'main';
  const dir = hubCacheRepoDir(s.cacheDir, hub.id);
  const known = COMMIT_ID.test(revision) ? revision : cache.readText(joinPath(dir, 'refs', revision));
  if (known && cache.readText(joinPath(dir, 'snapshots', known, 'config.json')) !== undefined) {
    return { ok: true, ref, id: hub.id, revision, commit: known, configPath: joinPath(dir, 'snapshots', known, 'config.json'), via: 'cache' };
  }
  const url = (file: string) => `${s.endpoint}/${hub.id}/resolve/${encodeURIComponent(revision)}/${file}`;
  let resp: Response;
  try {
    resp = await getWithRetry(url('config.json'), s, log);
  } catch (e) {
    if (e instanceof Timeout) return failure(ref, 'timeout', `${hub.id}: ${s.endpoint} gave ${e.message} after ${s.attempts} attempts`);
    // fetch says no more than "Failed to fetch" for a refused connection and for a CORS refusal alike.
    return failure(ref, 'network', `${hub.id}: cannot reach ${s.endpoint} from the browser (${(e as Error)?.message ?? e}) after ${s.attempts} attempts`);
  }
  const code = resp.headers.get('X-Error-Code') ?? '';
  if (resp.status === 401) {
    return failure(
      ref,
      'unauthorized',
      `${hub.id} needs authentication (401): it is private or gated, and the browser build sends no token; open it on the desktop with HF_TOKEN set`,
    );
  }
  if (resp.status === 403)
    return failure(ref, 'gated', `${hub.id} is gated (403): accept its conditions at ${s.endpoint}/${hub.id}, then open it on the desktop with HF_TOKEN set`);
  if (resp.status === 404) {
    return code === 'EntryNotFound'
      ? failure(ref, 'no-config', `${hub.id}@${revision} has no config.json`)
      : failure(ref, 'not-found', `${hub.id}${hub.revision ? `@${hub.revision}` : ''} was not found on ${s.endpoint} (404): check the id and revision`);
  }
  if (!resp.ok) return failure(ref, 'error', `${hub.id}: the Hub answered ${resp.status} for config.json`);
  const text = await resp.text();
  try {
    JSON.parse(text);
  } catch {
    return failure(ref, 'error', `${hub.id}@${revision}: the config.json the Hub sent is not JSON`);
  }
  // The commit the revision resolved to; where CORS hides the header, the revision names the snapshot.
  const header = resp.headers.get('X-Repo-Commit')?.trim() ?? '';
  const commit = COMMIT_ID.test(header) ? header : revision;
  const snapshot = joinPath(dir, 'snapshots', commit);
  cache.put(joinPath(snapshot, 'config.json'), text);
  if (commit !== revision || !COMMIT_ID.test(revision)) cache.put(joinPath(dir, 'refs', revision), commit);
  // generation_config.json where the repository has one (its sampling defaults); optional.
  const gen = await getWithRetry(url('generation_config.json'), { ...s, attempts: 1 }, log).catch(() => undefined);
  if (gen?.ok) cache.put(joinPath(snapshot, 'generation_config.json'), await gen.text());
  return { ok: true, ref, id: hub.id, revision, commit, configPath: joinPath(snapshot, 'config.json'), via: 'hub' };
}

export function browserHub(cache: MemoryHubCache, opts: BrowserHubOptions = {}): HubBackend {
  return {
    settings: () => ({
      endpoint: (opts.endpoint ?? HUB_ENDPOINT).replace(/\/+$/, ''),
      offline: false,
      cacheDir: HUB_MEMORY_CACHE,
      timeoutMs: opts.timeoutMs ?? 10_000,
      attempts: opts.attempts ?? 3,
    }),
    async fetchModels(refs, s, log) {
      const distinct = [...new Set(refs.map((r) => r.trim()))].filter((r) => parseHubRef(r));
      return Promise.all(distinct.map((r) => fetchOne(r, s, cache, log)));
    },
    describe(r) {
      if (!r.ok) return r.message;
      const from = r.via === 'hub' ? 'Hub' : 'fetched earlier this session,';
      return `${r.ref}: ${from} revision ${r.revision} (commit ${r.commit.slice(0, 12)}), kept in memory (${dirName(r.configPath)})`;
    },
  };
}
