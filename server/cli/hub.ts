/**
 * The Hub in the CLI: network only with `--hub` or ROPE_LENS_HUB=1, and a line on stderr for each
 * model saying where it came from (catalog, Hugging Face cache, Hub revision) or why it could not.
 *
 * The analysis reads models synchronously through the resolver (local path, HF cache, catalog). A
 * command first runs with a recording resolver; the Hub references it could not resolve are fetched
 * into the HF cache (asynchronously, all at once), then the command runs again with a fresh
 * resolver, which now finds them in the cache.
 */
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { CliIO } from './io';
import { UsageError } from './io';
import { BaseModelResolver, ResolvedBaseModel, hubCacheConfigPaths, parseHubRef, recordingResolver } from '../../shared/config/resolve';
import { createNodeResolver, hubCacheDir, nodeFileReader } from '../../shared/node/resolveNode';
import { catalogConfigText, familyAssumptionOf, findCatalogEntry } from '../../shared/config/catalog';
import { assumptionText } from '../../shared/config/modelFamilies';
import { noRopeModelOf } from '../../shared/config/noRopeModel';
import { HubSettings, describeResult, fetchModels, hubSettings } from '../../shared/node/hubFetch';

export const HUB_OPTION = { hub: { type: 'boolean' as const } };

export interface HubContext {
  enabled: boolean;
  settings: HubSettings;
  io: CliIO;
  /** References already reported, so each provenance line is printed once. */
  said: Set<string>;
}

export function hubContext(flag: boolean | undefined, io: CliIO, env: NodeJS.ProcessEnv = process.env): HubContext {
  const envOn = ['1', 'true', 'yes', 'on'].includes((env.ROPE_LENS_HUB ?? '').trim().toLowerCase());
  return { enabled: flag === true || envOn, settings: hubSettings(env), io, said: new Set() };
}

/**
 * Fetches the references into the HF cache when the Hub is enabled, printing where each came from;
 * without the opt-in, says once how to enable it. True when at least one landed in the cache.
 */
export async function fetchMissing(refs: Iterable<string>, ctx: HubContext): Promise<boolean> {
  const todo = [...new Set(refs)].filter((r) => !ctx.said.has(r));
  if (!todo.length) return false;
  todo.forEach((r) => ctx.said.add(r));
  if (!ctx.enabled) {
    ctx.io.err(
      `rope-lens: not found offline (local path, Hugging Face cache, built-in catalog): ${todo.join(', ')}; --hub (or ROPE_LENS_HUB=1) fetches ${todo.length === 1 ? 'its' : 'their'} config.json from the Hub`,
    );
    return false;
  }
  const results = await fetchModels(todo, ctx.settings, (line) => ctx.io.err(`rope-lens: hub: ${line}`));
  for (const r of results) ctx.io.err(`rope-lens: ${r.ok ? '' : 'hub: '}${describeResult(r)}`);
  return results.some((r) => r.ok);
}

/**
 * Runs `work` with a recording resolver; when it missed Hub references (or threw with misses) and
 * fetching brought some into the cache, runs it again with a fresh resolver.
 */
export async function withHub<T>(ctx: HubContext, work: (resolver: BaseModelResolver) => T | Promise<T>): Promise<T> {
  const first = recordingResolver(createNodeResolver());
  let result: T | undefined;
  let error: unknown;
  try {
    result = await work(first);
  } catch (e) {
    error = e;
  }
  if (first.misses.size && !ctx.enabled && error instanceof Error) {
    // Keep the failure one line: the hint joins the error instead of a line of its own.
    error.message += ' (--hub or ROPE_LENS_HUB=1 fetches it from the Hub)';
    first.misses.forEach((r) => ctx.said.add(r));
  }
  if (first.misses.size && (await fetchMissing(first.misses, ctx))) return work(createNodeResolver());
  if (error !== undefined) throw error;
  return result as T;
}

/** Provenance of a resolver hit, as one short phrase. */
export function fromPhrase(hit: ResolvedBaseModel): string {
  const family = familyAssumptionOf(hit.from);
  if (family) return `built-in catalog, ${assumptionText(family)}${hit.source ? `; values read from ${hit.source}` : ''}`;
  if (hit.from.startsWith('catalog:')) return `built-in catalog (${hit.from.slice('catalog:'.length)}${hit.source ? `, ${hit.source}` : ''})`;
  if (hit.from.startsWith('hf-cache:')) {
    const path = hit.from.slice('hf-cache:'.length);
    const commit = /\/snapshots\/([^/]+)\//.exec(path.replace(/\\/g, '/'))?.[1];
    return `Hugging Face cache${commit ? `, commit ${commit.slice(0, 12)}` : ''} (${path})`;
  }
  return hit.from;
}

/** A model id resolved to a config: a file in the HF cache, or the catalog's text. */
export interface ResolvedModelArg {
  kind: 'model';
  ref: string;
  path?: string;
  text: string;
  from: string;
}
export type ModelArg = { kind: 'path'; path: string } | ResolvedModelArg;

/**
 * A command's model argument: an existing path as it is; otherwise a Hub id (`org/name[@rev]`)
 * resolved from the HF cache, then the catalog, then (with --hub) the Hub. Says where it came from.
 */
export async function modelArg(arg: string, ctx: HubContext, readText: (path: string) => string | undefined): Promise<ModelArg> {
  if (existsSync(arg) || !parseHubRef(arg.trim())) return { kind: 'path', path: arg };
  const ref = arg.trim();
  const here = resolvePath('.', '.rope-lens');
  const lookup = (): ResolvedModelArg | undefined => {
    const hit = createNodeResolver().resolve([ref], here);
    if (!hit) return undefined;
    const path = hit.from.startsWith('hf-cache:') ? hit.from.slice('hf-cache:'.length) : undefined;
    if (path) {
      const text = readText(path);
      return text === undefined ? undefined : { kind: 'model', ref, path, text, from: fromPhrase(hit) };
    }
    const entry = findCatalogEntry(hit.from.slice('catalog:'.length));
    return entry ? { kind: 'model', ref, text: catalogConfigText(entry), from: fromPhrase(hit) } : undefined;
  };
  // A model without RoPE (a BERT-style reranker) is no base-model hit, but its cached config is there to say so.
  const cachedConfig = (): ResolvedModelArg | undefined => {
    const hub = parseHubRef(ref);
    for (const path of hub ? hubCacheConfigPaths(hub, hubCacheDir(), nodeFileReader) : []) {
      const text = readText(path);
      if (text !== undefined) return { kind: 'model', ref, path, text, from: `Hugging Face cache (${path})` };
    }
    return undefined;
  };
  // A model the catalog knows to have no RoPE (Nemotron-H, Kimi-K3) is no base-model hit either; its description says so.
  const noRopeEntry = (): ResolvedModelArg | undefined => {
    const hit = noRopeModelOf([ref]);
    if (!hit) return undefined;
    const entry = hit.entry;
    const where = entry.assumedFrom
      ? `built-in catalog, ${assumptionText(entry.assumedFrom)}; values read from ${entry.source}`
      : `built-in catalog (${entry.id}, ${entry.source})`;
    return { kind: 'model', ref, text: hit.text, from: where };
  };
  let found = lookup() ?? cachedConfig() ?? noRopeEntry();
  if (!found && ctx.enabled && (await fetchMissing([ref], ctx))) found = lookup();
  if (!found) {
    throw new UsageError(
      ctx.enabled
        ? `'${ref}' could not be resolved (see the line above)`
        : `'${ref}' is neither a file nor a model found offline (Hugging Face cache, built-in catalog); add --hub to fetch it from the Hub`,
    );
  }
  if (!ctx.said.has(ref)) ctx.io.err(`rope-lens: ${ref}: ${found.from}`);
  ctx.said.add(ref);
  return found;
}
