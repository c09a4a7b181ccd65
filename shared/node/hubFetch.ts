/**
 * Node-only: the Hugging Face Hub as a model source, through the maintained client (@huggingface/hub).
 *
 * The analysis is synchronous and reads models from the hub cache (shared/config/resolve.ts). This
 * module is the asynchronous step before it: `fetchModel` puts a model's config.json (and
 * generation_config.json when the repository has one) into the standard cache layout
 *   <cache>/models--org--name/blobs/<etag>
 *   <cache>/models--org--name/snapshots/<commit>/config.json   (link to the blob)
 *   <cache>/models--org--name/refs/<branch or tag>             (the commit)
 * so the resolver, later runs and other tools (transformers, vLLM) find it offline.
 *
 * Environment, as huggingface_hub reads it: HF_TOKEN (else the token file $HF_HOME/token),
 * HF_ENDPOINT (a mirror), HF_HUB_OFFLINE=1 (never touch the network: answer from the cache only),
 * HF_HUB_CACHE / HF_HOME / ~/.cache/huggingface/hub. Every request has a timeout and a bounded retry;
 * every failure comes back as a HubFailure with a sentence for the user, never as a throw.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { COMMIT_ID, HubRef, hubCacheRepoDir, parseHubRef } from '../config/resolve';
import { hubCacheDir, nodeFileReader } from './resolveNode';
import type { GgufMetadata } from '../gguf/metadata';
import { trimTrailing } from '../core/text';

/** The Hub's address when HF_ENDPOINT is unset (the library's HUB_URL). */
const HUB_URL = 'https://huggingface.co';

/**
 * The Hub library, loaded on first use: at load it allocates about 5 MB of buffers and its task
 * tables, which a language server that never fetches a model should not keep.
 */
let hubApiError: (new (...args: never[]) => Error) | undefined;
async function hubLibrary() {
  const lib = await import('@huggingface/hub');
  hubApiError = lib.HubApiError;
  return lib;
}

export interface HubSettings {
  endpoint: string;
  /** The access token, and where it came from (for error messages; the token itself is never printed). */
  token?: string;
  tokenSource?: 'HF_TOKEN' | 'token file';
  offline: boolean;
  cacheDir: string;
  /** Per request (ms). */
  timeoutMs: number;
  /** Attempts per request on timeouts, connection errors and 5xx/429 answers. */
  attempts: number;
}

const truthy = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());

export function hubSettings(env: NodeJS.ProcessEnv = process.env): HubSettings {
  let token = env.HF_TOKEN?.trim() || env.HUGGING_FACE_HUB_TOKEN?.trim() || undefined;
  let tokenSource: HubSettings['tokenSource'] = token ? 'HF_TOKEN' : undefined;
  if (!token) {
    const hfHome = env.HF_HOME ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'huggingface');
    const file = env.HF_TOKEN_PATH ?? join(hfHome, 'token');
    try {
      token = readFileSync(file, 'utf8').trim() || undefined;
      if (token) tokenSource = 'token file';
    } catch {
      // no token file: anonymous
    }
  }
  const timeout = Number(env.ROPE_LENS_HUB_TIMEOUT_MS);
  return {
    // HF_ENDPOINT (a mirror), else the client library's own address of the Hub.
    endpoint: trimTrailing(env.HF_ENDPOINT?.trim() || HUB_URL, '/'),
    token,
    tokenSource,
    offline: truthy(env.HF_HUB_OFFLINE) || truthy(env.TRANSFORMERS_OFFLINE),
    cacheDir: hubCacheDir(env),
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
    attempts: 3,
  };
}

export interface HubSuccess {
  ok: true;
  ref: string;
  id: string;
  /** The revision asked for (`main` when none was). */
  revision: string;
  /** The commit the revision pointed at. */
  commit: string;
  /** The snapshot's config.json. */
  configPath: string;
  /** `hub`: downloaded now; `cache`: the snapshot was already there (no request made). */
  via: 'hub' | 'cache';
}

export type HubFailureKind = 'unauthorized' | 'gated' | 'not-found' | 'no-config' | 'offline' | 'timeout' | 'network' | 'bad-token' | 'error';

export interface HubFailure {
  ok: false;
  ref: string;
  kind: HubFailureKind;
  /** One sentence for the user: what failed and what to do. */
  message: string;
}

export type HubResult = HubSuccess | HubFailure;

class TimeoutError extends Error {}

/**
 * `fetch` with a per-request timeout and a bounded retry (timeouts, connection errors, 429 and 5xx),
 * backing off 250 ms, 500 ms, …; redirects are followed by fetch itself. `log` hears each retry.
 */
export function boundedFetch(s: Pick<HubSettings, 'timeoutMs' | 'attempts'>, log?: (line: string) => void): typeof fetch {
  return async (input, init) => {
    let lastError: unknown;
    for (let attempt = 1; attempt <= s.attempts; attempt++) {
      const signal = AbortSignal.timeout(s.timeoutMs);
      try {
        const resp = await fetch(input, { ...init, signal });
        if ((resp.status === 429 || resp.status >= 500) && attempt < s.attempts) {
          await resp.body?.cancel();
          log?.(`${resp.status} from ${shortUrl(input)}; retrying (${attempt}/${s.attempts})`);
          await sleep(250 * 2 ** (attempt - 1));
          continue;
        }
        return resp;
      } catch (e) {
        lastError = signal.aborted ? new TimeoutError(`no answer within ${s.timeoutMs / 1000} s`) : e;
        if (attempt < s.attempts) {
          log?.(`${(lastError as Error).message} (${shortUrl(input)}); retrying (${attempt}/${s.attempts})`);
          await sleep(250 * 2 ** (attempt - 1));
        }
      }
    }
    throw lastError;
  };
}

/** A request URL without its query, for log lines. */
const shortUrl = (input: Parameters<typeof fetch>[0]) => String(input instanceof Request ? input.url : input).split('?')[0];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The snapshot config.json already in the cache for a reference, without any request. */
function cachedSnapshot(hub: HubRef, cacheDir: string): { commit: string; configPath: string } | undefined {
  const dir = hubCacheRepoDir(cacheDir, hub.id);
  const revision = hub.revision ?? 'main';
  const commit = COMMIT_ID.test(revision) ? revision : nodeFileReader.readText(join(dir, 'refs', revision))?.trim();
  if (!commit) return undefined;
  const configPath = join(dir, 'snapshots', commit, 'config.json');
  return nodeFileReader.readText(configPath) !== undefined ? { commit, configPath } : undefined;
}

/**
 * The model's config.json in the hub cache: from the cache when the revision is there, else
 * downloaded (unless offline). Never throws.
 */
export async function fetchModel(ref: string, s: HubSettings = hubSettings(), log?: (line: string) => void): Promise<HubResult> {
  // Each request is bounded, but a download the library cannot finish (a failed answer to its final
  // GET leaves its stream open) would wait forever: the whole fetch has a deadline too.
  const deadlineMs = s.timeoutMs * (s.attempts + 1) * 3;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<HubResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          ref,
          kind: 'timeout',
          message: `${ref}: the download from ${s.endpoint} did not finish within ${Math.round(deadlineMs / 1000)} s`,
        }),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([fetchModelOnce(ref, s, log), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function fetchModelOnce(ref: string, s: HubSettings, log?: (line: string) => void): Promise<HubResult> {
  const hub = parseHubRef(ref.trim());
  if (!hub) return { ok: false, ref, kind: 'error', message: `'${ref}' is not a Hub model id (org/name or org/name@revision)` };
  const revision = hub.revision ?? 'main';
  const cached = cachedSnapshot(hub, s.cacheDir);
  if (cached) return { ok: true, ref, id: hub.id, revision, ...cached, via: 'cache' };
  if (s.offline) {
    return {
      ok: false,
      ref,
      kind: 'offline',
      message: `${ref} is not in the Hugging Face cache (${s.cacheDir}) and HF_HUB_OFFLINE is set, so the Hub was not asked`,
    };
  }
  if (s.token && !s.token.startsWith('hf_')) {
    return { ok: false, ref, kind: 'bad-token', message: `the token in ${s.tokenSource} does not look like a Hugging Face access token (they start with hf_)` };
  }
  const fetch = boundedFetch(s, log);
  const common = { hubUrl: s.endpoint, fetch, ...(s.token ? { accessToken: s.token } : {}) };
  try {
    const { modelInfo, downloadFileToCacheDir } = await hubLibrary();
    // The commit the revision points at names the snapshot folder (as huggingface_hub does).
    const info = await modelInfo({ ...common, name: hub.id, revision, additionalFields: ['sha'] });
    const commit = info.sha;
    if (!commit || !COMMIT_ID.test(commit)) {
      return { ok: false, ref, kind: 'error', message: `the Hub's answer for ${ref} names no commit; cannot place it in the cache` };
    }
    const configPath = await quietly(() =>
      downloadFileToCacheDir({ ...common, repo: { type: 'model', name: hub.id }, path: 'config.json', revision: commit, cacheDir: s.cacheDir }),
    );
    // generation_config.json when the repository has one (engines read its defaults); its absence is normal.
    await quietly(() =>
      downloadFileToCacheDir({ ...common, repo: { type: 'model', name: hub.id }, path: 'generation_config.json', revision: commit, cacheDir: s.cacheDir }),
    ).catch(() => undefined);
    if (!COMMIT_ID.test(revision)) {
      const refs = join(hubCacheRepoDir(s.cacheDir, hub.id), 'refs');
      await mkdir(join(refs, ...revision.split('/').slice(0, -1)), { recursive: true });
      await writeFile(join(refs, revision), commit);
    }
    return { ok: true, ref, id: hub.id, revision, commit, configPath, via: 'hub' };
  } catch (e) {
    return { ok: false, ref, ...explain(e, hub, s) };
  }
}

/** The library announces each download with console.debug (stdout): keep stdout for our own output. */
async function quietly<T>(f: () => Promise<T>): Promise<T> {
  const debug = console.debug;
  console.debug = () => undefined;
  try {
    return await f();
  } finally {
    console.debug = debug;
  }
}

function explain(e: unknown, hub: HubRef, s: HubSettings): { kind: HubFailureKind; message: string } {
  const page = `${s.endpoint}/${hub.id}`;
  const tokenSaid = s.token ? `the token from ${s.tokenSource}` : 'no token (set HF_TOKEN)';
  if (hubApiError && e instanceof hubApiError) {
    const status = (e as import('@huggingface/hub').HubApiError).statusCode;
    if (status === 401) {
      return s.token
        ? {
            kind: 'unauthorized',
            message: `${hub.id}: the Hub refused ${tokenSaid} (401): it is invalid or expired, or the repository is private and the token cannot read it`,
          }
        : {
            kind: 'unauthorized',
            message: `${hub.id} needs authentication (401): it is private or gated and no token was sent; set HF_TOKEN to a token that can read it`,
          };
    }
    if (status === 403) {
      return {
        kind: 'gated',
        message: `${hub.id} is gated (403) and ${tokenSaid} has no access: accept its conditions at ${page} with the account of that token`,
      };
    }
    if (status === 404) {
      return /cannot get path info|EntryNotFound/i.test(e.message)
        ? { kind: 'no-config', message: `${hub.id}@${hub.revision ?? 'main'} has no config.json` }
        : {
            kind: 'not-found',
            message: `${hub.id}${hub.revision ? `@${hub.revision}` : ''} was not found on ${s.endpoint} (404): check the id and revision${s.token ? '' : ', or set HF_TOKEN if it is private'}`,
          };
    }
    return { kind: 'error', message: `${hub.id}: the Hub answered ${status} (${e.message.split('\n')[0].slice(0, 160)})` };
  }
  if (e instanceof TimeoutError) {
    return { kind: 'timeout', message: `${hub.id}: ${s.endpoint} gave ${e.message} after ${s.attempts} attempts` };
  }
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (/cannot get path info/.test(err?.message ?? '')) {
    return { kind: 'no-config', message: `${hub.id}@${hub.revision ?? 'main'} has no config.json` };
  }
  const cause = err?.cause?.code ?? err?.cause?.message;
  if (cause || err instanceof TypeError) {
    return {
      kind: 'network',
      message: `${hub.id}: cannot reach ${s.endpoint} (${cause ?? err.message}) after ${s.attempts} attempts; set HF_HUB_OFFLINE=1 to work from the cache`,
    };
  }
  return { kind: 'error', message: `${hub.id}: ${err?.message ?? String(e)}` };
}

/** Fetches several references, a few at a time; one result per distinct reference, in order. */
export async function fetchModels(refs: readonly string[], s: HubSettings = hubSettings(), log?: (line: string) => void): Promise<HubResult[]> {
  const distinct = [...new Set(refs.map((r) => r.trim()))].filter((r) => parseHubRef(r));
  const out: HubResult[] = new Array(distinct.length);
  let next = 0;
  const worker = async () => {
    while (next < distinct.length) {
      const i = next++;
      out[i] = await fetchModel(distinct[i], s, log);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, distinct.length) }, worker));
  return out;
}

/** Where a model came from, for the CLI's provenance line. */
export function describeResult(r: HubResult): string {
  if (!r.ok) return r.message;
  const short = r.commit.slice(0, 12);
  return r.via === 'hub'
    ? `${r.ref}: Hub revision ${r.revision} (commit ${short}), saved to ${r.configPath}`
    : `${r.ref}: Hugging Face cache, revision ${r.revision} (commit ${short}), ${r.configPath}`;
}

export interface GgufHubSuccess {
  ok: true;
  ref: string;
  id: string;
  revision: string;
  commit: string;
  /** The repository file whose header was read. */
  file: string;
  metadata: GgufMetadata;
}

/**
 * A GGUF repository (no config.json): the header metadata of one of its .gguf files, read with
 * range requests (a few MB at most, never the weights). Not cached (the cache layout holds whole
 * files), so it needs the network. Prefers a Q4_K_M quantization, then the first file by name;
 * every quantization of a model carries the same RoPE metadata.
 */
export async function fetchGgufHeader(ref: string, s: HubSettings = hubSettings(), log?: (line: string) => void): Promise<GgufHubSuccess | HubFailure> {
  const hub = parseHubRef(ref.trim());
  if (!hub) return { ok: false, ref, kind: 'error', message: `'${ref}' is not a Hub model id (org/name or org/name@revision)` };
  if (s.offline) return { ok: false, ref, kind: 'offline', message: `${ref}: a GGUF header is read from the Hub (it is not cached) and HF_HUB_OFFLINE is set` };
  const revision = hub.revision ?? 'main';
  const fetch = boundedFetch(s, log);
  const auth = s.token ? { Authorization: `Bearer ${s.token}` } : undefined;
  try {
    const { modelInfo } = await hubLibrary();
    const { gguf } = await import('@huggingface/gguf');
    const info = await modelInfo({
      hubUrl: s.endpoint,
      fetch,
      ...(s.token ? { accessToken: s.token } : {}),
      name: hub.id,
      revision,
      additionalFields: ['sha', 'filePaths'],
    });
    const files = (info.filePaths ?? []).filter((f) => /\.gguf$/i.test(f)).sort();
    // A split model's header is in its first shard.
    const firsts = files.filter((f) => !/-\d{5}-of-\d{5}\.gguf$/i.test(f) || /-00001-of-\d{5}\.gguf$/i.test(f));
    const file = firsts.find((f) => /q4_k_m/i.test(f)) ?? firsts[0];
    if (!file || !info.sha) return { ok: false, ref, kind: 'no-config', message: `${hub.id}@${revision} has neither a config.json nor a .gguf file` };
    const url = `${s.endpoint}/${hub.id}/resolve/${info.sha}/${file.split('/').map(encodeURIComponent).join('/')}`;
    const { metadata } = await gguf(url, { fetch, ...(auth ? { additionalFetchHeaders: auth } : {}) });
    return { ok: true, ref, id: hub.id, revision, commit: info.sha, file, metadata: metadata as unknown as GgufMetadata };
  } catch (e) {
    return { ok: false, ref, ...explain(e, hub, s) };
  }
}
