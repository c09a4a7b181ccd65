/**
 * Node-only WorkspaceFacts: the consumer pins in dependency files beside the config and in each
 * folder above it (the nearest folder that has any wins, as a project's own lock file would),
 * up to the file-system root or a `.git` folder. Results are cached per folder for a few seconds,
 * so the language server sees an edited requirements file without re-reading folders on every keystroke.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type ConsumerPin, type WorkspaceFacts, pinsFromFile } from '../serving/pins';

const MAX_BYTES = 2 * 1024 * 1024;
/** A config 40 folders deep is not a project layout; stop climbing there. */
const MAX_LEVELS = 40;

function pinsInFolder(dir: string): ConsumerPin[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: ConsumerPin[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    let text: string;
    try {
      const st = statSync(path);
      if (!st.isFile() || st.size > MAX_BYTES) continue;
      if (pinsFromFile(name, '') === undefined) continue;
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    out.push(...(pinsFromFile(name, text) ?? []).map((p) => ({ ...p, source: join(dir, p.source) })));
  }
  return out;
}

export function nodeWorkspaceFacts(ttlMs = 5000, now: () => number = Date.now): WorkspaceFacts {
  const cache = new Map<string, { at: number; pins: ConsumerPin[] }>();
  const folder = (dir: string) => {
    const hit = cache.get(dir);
    if (hit && now() - hit.at < ttlMs) return hit.pins;
    const pins = pinsInFolder(dir);
    cache.set(dir, { at: now(), pins });
    return pins;
  };
  return {
    pinsFor(filePath) {
      let dir = dirname(filePath);
      for (let i = 0; i < MAX_LEVELS; i++) {
        const pins = folder(dir);
        if (pins.length) return pins;
        if (existsSync(join(dir, '.git'))) return [];
        const up = dirname(dir);
        if (up === dir) return [];
        dir = up;
      }
      return [];
    },
  };
}
