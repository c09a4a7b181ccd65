/**
 * The files `rope-lens check` reads under the paths it is given. Folders are walked recursively and
 * symbolic links are followed, but by real path (fs.realpath): a link back to a folder above it (a
 * cycle, `self -> .`) or to a folder already walked is not entered again, and a file reached by two
 * names is checked once. Each link not followed becomes a note, so nothing is skipped unsaid.
 */
import { type Dirent, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export interface WalkResult {
  /** Files to check, in walk order, each real file once. */
  files: string[];
  /** One line per link or path not followed, saying why ("a -> b: a symlink cycle"). */
  notFollowed: string[];
}

export interface WalkOptions {
  /** Whether a file met in a folder is one to check (a path named directly is always checked). */
  wanted(name: string): boolean;
  /** Folders never entered (node_modules, .git…). */
  skipFolder(name: string): boolean;
}

/** Shared by every path of one run, so that `check a a/config.json` reads config.json once. */
export class Walker {
  /** Real path of each folder walked → the path it was walked as. */
  private readonly walkedFolders = new Map<string, string>();
  private readonly seenFiles = new Set<string>();
  readonly result: WalkResult = { files: [], notFollowed: [] };

  constructor(private readonly options: WalkOptions) {}

  /** A file named on the command line: always checked, once. */
  addFile(path: string): void {
    if (this.firstTime(path)) this.result.files.push(path);
  }

  /** A folder named on the command line, walked recursively. */
  addFolder(path: string): void {
    const real = realOrUndefined(path);
    if (real === undefined) return;
    const walkedAs = this.walkedFolders.get(real);
    if (walkedAs !== undefined) {
      this.result.notFollowed.push(`${path}: a folder already walked as ${walkedAs}`);
      return;
    }
    this.walk(path, real, [real]);
  }

  private firstTime(path: string, real = realOrUndefined(path) ?? path): boolean {
    if (this.seenFiles.has(real)) return false;
    this.seenFiles.add(real);
    return true;
  }

  /** `ancestors`: the real paths of the folders from the walk's start down to `dir` (a cycle returns to one). */
  private walk(dir: string, realDir: string, ancestors: string[]): void {
    this.walkedFolders.set(realDir, dir);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      this.result.notFollowed.push(`${dir}: a folder that cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      return;
    }
    for (const e of entries) {
      const name = e.name;
      const full = join(dir, name);
      if (!e.isSymbolicLink()) {
        // Inside a real folder a plain entry's real path is the folder's plus its name: no syscall.
        const real = join(realDir, name);
        if (e.isDirectory()) {
          if (!this.options.skipFolder(name)) this.enter(full, real, ancestors);
        } else if (this.options.wanted(name) && this.firstTime(full, real)) this.result.files.push(full);
        continue;
      }
      // A dangling link, or one the user may not read: nothing to check behind it (said where it looks like a file to check).
      const real = linkTarget(full, realDir);
      if (real === undefined) {
        if (this.options.wanted(name)) this.result.notFollowed.push(`${full}: a symbolic link to nothing (dangling)`);
        continue;
      }
      let isDir: boolean;
      try {
        isDir = statSync(real).isDirectory();
      } catch {
        continue;
      }
      if (!isDir) {
        if (this.options.wanted(name) && this.firstTime(full, real)) this.result.files.push(full);
        continue;
      }
      if (this.options.skipFolder(name)) continue;
      if (ancestors.includes(real)) this.result.notFollowed.push(`${full} -> ${shown(real)}: a symlink cycle (a folder above it)`);
      else this.enter(full, real, ancestors);
    }
  }

  /** Walks a folder met in the walk unless its real path was walked already (through a link or not). */
  private enter(path: string, real: string, ancestors: string[]): void {
    const walkedAs = this.walkedFolders.get(real);
    if (walkedAs === undefined) this.walk(path, real, [...ancestors, real]);
    else this.result.notFollowed.push(`${path}: a folder already walked as ${walkedAs}`);
  }
}

/**
 * The real path of the link `full`, in the real folder `realDir`. A target made only of `.` and `..`
 * (`self -> .`, `up -> ..`, the usual cycles) is resolved by name from the folder's real path,
 * which holds no link: realpath would look up every folder above it, once per link, so a chain of
 * D folders with such a link in each would cost D² lookups per level.
 */
function linkTarget(full: string, realDir: string): string | undefined {
  let target: string;
  try {
    target = readlinkSync(full);
  } catch {
    return undefined;
  }
  if (!/^\.{1,2}(?:[/\\]\.{1,2})*[/\\]?$/.test(target)) return realOrUndefined(full);
  const resolved = resolve(realDir, target);
  try {
    statSync(resolved);
  } catch {
    return undefined;
  }
  return resolved;
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The working folder's real path, looked up once per run (each note not followed shows a path relative to it). */
let cwdReal: { cwd: string; real: string } | undefined;

/** A real path as the user typed paths: relative to the working folder when it is inside it. */
function shown(real: string): string {
  const cwd = process.cwd();
  if (cwdReal?.cwd !== cwd) cwdReal = { cwd, real: realOrUndefined(cwd) ?? cwd };
  const rel = relative(cwdReal.real, real);
  return rel && !rel.startsWith('..') ? rel : rel === '' ? '.' : real;
}
