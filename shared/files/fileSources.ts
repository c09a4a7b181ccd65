/**
 * The project file, consumer pins and sourced scripts over SyncFiles: the same lookups as
 * shared/node/projectConfig.ts, consumerPins.ts and sourcedFiles.ts (nearest folder first, up to
 * the folder holding `.git`), for platforms without `fs` (the browser worker).
 */
import { dirName, joinPath } from '../config/resolve';
import type { SourcedFile } from '../launch/types';
import { type ConsumerPin, type WorkspaceFacts, pinsFromFile, pinsFromNeighbour } from '../serving/pins';
import { PROJECT_FILE_NAME, parseProjectConfig, type ProjectConfig } from '../service/projectConfig';
import type { SyncFiles } from './syncFiles';

/** As in shared/node: a config this deep is not a project layout; sourced files are searched 6 folders up. */
const MAX_LEVELS = 40;
const MAX_SOURCED_LEVELS = 6;
/** The same caps as the Node readers: a project file is a few lines; sourced scripts are not huge (pins: shared/core/limits.ts). */
const MAX_PROJECT_CHARS = 256 * 1024;
const MAX_SOURCED_CHARS = 1_000_000;

/** Each folder from `dir` upward, stopping after the one holding `.git` or at the root. */
function* foldersUp(files: SyncFiles, dir: string, levels: number): Generator<string> {
  for (let i = 0; i < levels; i++) {
    yield dir;
    const up = dirName(dir);
    if (files.hasEntry(dir, '.git') || up === dir || up === '' || up === '.') return;
    dir = up;
  }
}

export function projectConfigFrom(files: SyncFiles): (filePath: string) => ProjectConfig | undefined {
  return (filePath) => {
    for (const dir of foldersUp(files, dirName(filePath), MAX_LEVELS)) {
      const path = joinPath(dir, PROJECT_FILE_NAME);
      const text = files.readText(path);
      if (text === undefined) continue;
      if (text.length > MAX_PROJECT_CHARS)
        return { ...parseProjectConfig('', path), problems: [`${path}: larger than ${MAX_PROJECT_CHARS / 1024} KB, not read`] };
      return parseProjectConfig(text, path);
    }
    return undefined;
  };
}

export function workspaceFactsFrom(files: SyncFiles): WorkspaceFacts {
  const notes = new Map<string, string[]>();
  const inFolder = (dir: string, said: string[]): ConsumerPin[] => {
    const out: ConsumerPin[] = [];
    for (const name of [...(files.listDir(dir) ?? [])].sort()) {
      if (pinsFromFile(name, '') === undefined) continue;
      const path = joinPath(dir, name);
      const text = files.readText(path);
      if (text === undefined) continue;
      const scan = pinsFromNeighbour(name, text, path);
      said.push(...scan.notes);
      out.push(...scan.pins.map((p) => ({ ...p, source: joinPath(dir, p.source) })));
    }
    return out;
  };
  return {
    pinsFor(filePath) {
      const said: string[] = [];
      notes.set(filePath, said);
      for (const dir of foldersUp(files, dirName(filePath), MAX_LEVELS)) {
        const pins = inFolder(dir, said);
        if (pins.length) return pins;
      }
      return [];
    },
    notesFor(filePath) {
      return notes.get(filePath) ?? [];
    },
  };
}

export function sourcedFilesFrom(files: SyncFiles): (scriptPath: string, name: string) => SourcedFile | undefined {
  const readOne = (path: string): SourcedFile | undefined => {
    const text = files.readText(path);
    return text !== undefined && text.length <= MAX_SOURCED_CHARS ? { path, text } : undefined;
  };
  return (scriptPath, name) => {
    if (!name || name.includes('\0')) return undefined;
    if (name.startsWith('/')) return readOne(name);
    for (const dir of foldersUp(files, dirName(scriptPath), MAX_SOURCED_LEVELS)) {
      const f = readOne(joinPath(dir, name));
      if (f) return f;
    }
    return undefined;
  };
}
