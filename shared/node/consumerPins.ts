/**
 * Node-only WorkspaceFacts: the consumer pins in dependency files beside the config and in each
 * folder above it (the nearest folder that has any wins, as a project's own lock file would),
 * up to the file-system root or a `.git` folder. Folder listings are kept a few seconds and each
 * file's pins until it changes, so a keystroke in the config does not re-read its neighbours.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAX_NEIGHBOUR_BYTES } from '../core/limits';
import { type ConsumerPin, type WorkspaceFacts, pinsFromFile, pinsFromNeighbour } from '../serving/pins';

/** A config 40 folders deep is not a project layout; stop climbing there. */
const MAX_LEVELS = 40;

interface FileScan {
  mtimeMs: number;
  size: number;
  pins: ConsumerPin[];
  notes: string[];
}

/**
 * The Node WorkspaceFacts. Folder listings are kept `ttlMs`; each neighbour's pins are kept until
 * its mtime or size changes, so a check re-reads only what was edited.
 */
export function nodeWorkspaceFacts(ttlMs = 5000, now: () => number = Date.now): WorkspaceFacts {
  const listings = new Map<string, { at: number; names: string[] }>();
  const files = new Map<string, FileScan>();
  const notes = new Map<string, string[]>();

  const namesIn = (dir: string): string[] => {
    const hit = listings.get(dir);
    if (hit && now() - hit.at < ttlMs) return hit.names;
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => pinsFromFile(n, '') !== undefined)
        .sort();
    } catch {
      names = [];
    }
    listings.set(dir, { at: now(), names });
    return names;
  };

  const scanFile = (path: string, name: string): FileScan | undefined => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      files.delete(path);
      return undefined;
    }
    if (!st.isFile()) return undefined;
    const hit = files.get(path);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    let scan: FileScan;
    if (st.size > MAX_NEIGHBOUR_BYTES) {
      scan = {
        mtimeMs: st.mtimeMs,
        size: st.size,
        pins: [],
        notes: [`${path}: larger than ${MAX_NEIGHBOUR_BYTES / 1024 / 1024} MB, not read for consumer pins`],
      };
    } else {
      try {
        const { pins, notes } = pinsFromNeighbour(name, readFileSync(path, 'utf8'), path);
        scan = { mtimeMs: st.mtimeMs, size: st.size, pins, notes };
      } catch {
        return undefined;
      }
    }
    files.set(path, scan);
    return scan;
  };

  const pinsInFolder = (dir: string, said: string[]): ConsumerPin[] => {
    const out: ConsumerPin[] = [];
    for (const name of namesIn(dir)) {
      const scan = scanFile(join(dir, name), name);
      if (!scan) continue;
      said.push(...scan.notes);
      out.push(...scan.pins.map((p) => ({ ...p, source: join(dir, p.source) })));
    }
    return out;
  };

  return {
    pinsFor(filePath) {
      const said: string[] = [];
      notes.set(filePath, said);
      let dir = dirname(filePath);
      for (let i = 0; i < MAX_LEVELS; i++) {
        const pins = pinsInFolder(dir, said);
        if (pins.length) return pins;
        if (existsSync(join(dir, '.git'))) return [];
        const up = dirname(dir);
        if (up === dir) return [];
        dir = up;
      }
      return [];
    },
    notesFor(filePath) {
      return notes.get(filePath) ?? [];
    },
  };
}
