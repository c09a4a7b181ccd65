/**
 * Node-only reader for the files shell scripts source (`source ../setup_llama_server.sh`,
 * `. "$(dirname "$0")/env.sh"`): the name as written, resolved against the script's folder, then
 * against each folder above it up to the repository root (the first holding `.git`), the way a
 * script is run from its own folder or from the root. Files are read fresh after `ttlMs`, so an
 * edit to the sourced file is seen on the next check.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { SourcedFile } from '../launch/types';

/** Folders above the script that are searched (a monorepo's root is rarely deeper). */
const MAX_LEVELS = 6;
const MAX_BYTES = 1_000_000;

export function nodeSourcedFiles(ttlMs = 2000, now: () => number = Date.now): (scriptPath: string, name: string) => SourcedFile | undefined {
  const cache = new Map<string, { at: number; file?: SourcedFile }>();
  const readOne = (path: string): SourcedFile | undefined => {
    const hit = cache.get(path);
    if (hit && now() - hit.at < ttlMs) return hit.file;
    let file: SourcedFile | undefined;
    try {
      const st = statSync(path);
      if (st.isFile() && st.size <= MAX_BYTES) file = { path, text: readFileSync(path, 'utf8') };
    } catch {
      file = undefined;
    }
    cache.set(path, { at: now(), file });
    return file;
  };
  return (scriptPath, name) => {
    if (!name || name.includes('\0')) return undefined;
    if (isAbsolute(name)) return readOne(name);
    let dir = dirname(resolve(scriptPath));
    for (let i = 0; i < MAX_LEVELS; i++) {
      const f = readOne(join(dir, name));
      if (f) return f;
      if (existsSync(join(dir, '.git'))) return undefined;
      const up = dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
    return undefined;
  };
}
