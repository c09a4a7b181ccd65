/**
 * Node-only: the file reader and hub-cache location for the offline base-model resolver.
 * Kept apart from resolve.ts so the pure core (and the webview bundle) never imports `fs`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BaseModelResolver, FileReader, createResolver } from '../config/resolve';

/** Config files larger than this are not model configs; do not read them whole. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export const nodeFileReader: FileReader = {
  readText(path) {
    try {
      const st = statSync(expandHome(path));
      if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return undefined;
      return readFileSync(expandHome(path), 'utf8');
    } catch {
      return undefined;
    }
  },
  listDir(path) {
    try {
      return readdirSync(expandHome(path));
    } catch {
      return undefined;
    }
  },
};

function expandHome(p: string): string {
  return p.startsWith('~/') ? join(homedir(), p.slice(2)) : p;
}

/** The hub cache folder as huggingface_hub computes it from the environment. */
export function hubCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HF_HUB_CACHE) return env.HF_HUB_CACHE;
  if (env.HUGGINGFACE_HUB_CACHE) return env.HUGGINGFACE_HUB_CACHE;
  const hfHome = env.HF_HOME ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'huggingface');
  return join(hfHome, 'hub');
}

/** Local paths, the Hugging Face cache, then the catalog. */
export function createNodeResolver(env: NodeJS.ProcessEnv = process.env): BaseModelResolver {
  return createResolver({ reader: nodeFileReader, hubCache: hubCacheDir(env) });
}
