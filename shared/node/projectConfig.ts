/**
 * Node-only ProjectConfigSource: the nearest `.rope-lens.yaml` in the checked file's folder or a
 * folder above it, up to the file-system root or the folder holding `.git` (a repository's file
 * does not reach outside it). Lookups are cached per folder for a few seconds, so the language
 * server sees an edited project file without re-reading folders on every keystroke; `invalidate()`
 * drops the cache at once (the server calls it when the file changes).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PROJECT_FILE_NAME, parseProjectConfig, type ProjectConfig, type ProjectConfigSource } from '../service/projectConfig';

/** A project file is a few lines; a huge one is not ours. */
const MAX_BYTES = 256 * 1024;
const MAX_LEVELS = 40;

export interface NodeProjectConfigSource extends ProjectConfigSource {
  invalidate(): void;
}

export function nodeProjectConfig(ttlMs = 2000, now: () => number = Date.now): NodeProjectConfigSource {
  const cache = new Map<string, { at: number; config: ProjectConfig | undefined }>();
  const read = (file: string): ProjectConfig | undefined => {
    try {
      const st = statSync(file);
      if (!st.isFile()) return undefined;
      if (st.size > MAX_BYTES) return { ...parseProjectConfig('', file), problems: [`${file}: larger than ${MAX_BYTES / 1024} KB, not read`] };
      return parseProjectConfig(readFileSync(file, 'utf8'), file);
    } catch {
      return undefined;
    }
  };
  const lookup = (dir: string, depth: number): ProjectConfig | undefined => {
    const hit = cache.get(dir);
    if (hit && now() - hit.at < ttlMs) return hit.config;
    const config = read(join(dir, PROJECT_FILE_NAME));
    const up = dirname(dir);
    const stop = config !== undefined || depth >= MAX_LEVELS || up === dir || existsSync(join(dir, '.git'));
    const found = stop ? config : lookup(up, depth + 1);
    cache.set(dir, { at: now(), config: found });
    return found;
  };
  return {
    configFor(filePath) {
      return lookup(dirname(resolve(filePath)), 0);
    },
    invalidate() {
      cache.clear();
    },
  };
}
