/**
 * What one workspace scan reads (workspaceScans.ts schedules them): a folder's listing with its pin
 * and project files, or one sourced script, each file at a version (mtime and size, or the editor's
 * version while it is open there) and kept when the version is the one read before. Everything is
 * asked of an asynchronous file system; a folder's files are read one per event-loop turn, and a
 * superseded scan stops at its next await.
 */
import { MAX_NEIGHBOUR_BYTES } from '../core/limits';
import { joinPath } from '../config/resolve';
import { type ConsumerPin, pinsFromFile } from '../serving/pins';
import { PROJECT_FILE_NAME, parseProjectConfig, type ProjectConfig } from '../service/projectConfig';
import type { ScanJob } from './scanQueue';

/** What a scan needs to know of a file before reading it. */
export interface FileStat {
  isFile: boolean;
  mtimeMs: number;
  size: number;
}

/** A file system read asynchronously; every method answers undefined for what is not there or not readable. */
export interface AsyncFiles {
  stat(path: string): Promise<FileStat | undefined>;
  readDir(path: string): Promise<string[] | undefined>;
  /** The text, or undefined when it is larger than `maxBytes` (the file may have grown since its stat). */
  readText(path: string, maxBytes: number): Promise<string | undefined>;
}

/** A file open in the editor: its text there wins over the disk's. */
export interface OpenText {
  version: number;
  text: string;
}

/** Reads one neighbour's pins (pins.ts's pinsFromNeighbour), on this thread or a worker's. */
export type PinsParse = (name: string, text: string, path: string) => Promise<{ pins: ConsumerPin[]; notes: string[] }>;

/** What the readers below use. */
export interface ScanIO {
  files: AsyncFiles;
  openText(path: string): OpenText | undefined;
  parsePins: PinsParse;
  yieldTurn(): Promise<void>;
  log(line: string): void;
}

/** One file of a folder, as read at one version. */
export interface FileFacts {
  version: string;
  pins: ConsumerPin[];
  notes: string[];
  project?: ProjectConfig;
}

export interface FolderFacts {
  hasGit: boolean;
  /** The files in it that hold pins or are the project file, by name, in name order. */
  files: Map<string, FileFacts>;
}

export interface Sourced {
  version: string;
  text?: string;
}

/** The synchronous sources' caps: a project file is a few lines; sourced scripts are not huge (pins: shared/core/limits.ts). */
const MAX_PROJECT_BYTES = 256 * 1024;
const MAX_SOURCED_BYTES = 1_000_000;

/** Names a folder scan reads: files that may pin consumers, and the project file. */
export const relevant = (name: string) => name === PROJECT_FILE_NAME || pinsFromFile(name, '') !== undefined;

/**
 * The client watches what a folder scan reads (the names `relevant` accepts: pins.ts's pinsFromFile
 * and the project file), so an edit outside the editor is scanned again at once.
 */
export const WATCHED_GLOBS = [
  `**/${PROJECT_FILE_NAME}`,
  '**/{requirements,constraints}*.txt',
  '**/{pyproject.toml,uv.lock,poetry.lock,Pipfile.lock}',
  '**/{Dockerfile*,*.Dockerfile}',
  '**/{compose,docker-compose}*.{yml,yaml}',
  '**/*.sh',
];

/** The folder's listing and its pin and project files, one file per event-loop turn; undefined once superseded. */
export async function scanFolder(io: ScanIO, dir: string, before: FolderFacts | undefined, job: ScanJob): Promise<FolderFacts | undefined> {
  const names = await io.files.readDir(dir);
  if (job.cancelled) return undefined;
  const facts: FolderFacts = { hasGit: names?.includes('.git') ?? false, files: new Map() };
  for (const name of (names ?? []).filter(relevant).sort()) {
    const f = await scanFile(io, dir, name, before?.files.get(name));
    if (job.cancelled) return undefined;
    if (f) facts.files.set(name, f);
    await io.yieldTurn();
    if (job.cancelled) return undefined;
  }
  return facts;
}

/** What the dependents of a folder see: whether it ends the climb, and each file's pins, notes and project file. */
export function folderDigest(f: FolderFacts): string {
  return JSON.stringify([f.hasGit, [...f.files].map(([name, x]) => [name, x.pins, x.notes, x.project ?? null])]);
}

/** One file of a folder at its current version: kept when the version is the one read before. */
async function scanFile(io: ScanIO, dir: string, name: string, before: FileFacts | undefined): Promise<FileFacts | undefined> {
  const path = joinPath(dir, name);
  const project = name === PROJECT_FILE_NAME;
  const cap = project ? MAX_PROJECT_BYTES : MAX_NEIGHBOUR_BYTES;
  const read = await versionOf(io, path, cap);
  if (!read) return undefined;
  if (before?.version === read.version) return before;
  const text = read.text ?? (read.tooLarge ? undefined : await io.files.readText(path, cap));
  if (project) {
    if (text !== undefined) return { version: read.version, pins: [], notes: [], project: parseProjectConfig(text, path) };
    if (!read.tooLarge) return undefined;
    const problems = [`${path}: larger than ${cap / 1024} KB, not read`];
    return { version: read.version, pins: [], notes: [], project: { ...parseProjectConfig('', path), problems } };
  }
  if (text === undefined) {
    if (!read.tooLarge) return undefined;
    return { version: read.version, pins: [], notes: [`${path}: larger than ${cap / 1024 / 1024} MB, not read for consumer pins`] };
  }
  try {
    const { pins, notes } = await io.parsePins(name, text, path);
    return { version: read.version, pins: pins.map((p) => ({ ...p, source: joinPath(dir, p.source) })), notes };
  } catch (e) {
    // Bad input never stops a scan: the file is left out (read again on a later scan), and the log says why.
    io.log(`reading ${path} for consumer pins failed: ${(e as Error)?.message ?? e}`);
    return undefined;
  }
}

/** A sourced script at its current version (absent or over the cap: no text). */
export async function scanSourced(io: ScanIO, path: string, before: Sourced | undefined, job: ScanJob): Promise<Sourced | undefined> {
  const read = await versionOf(io, path, MAX_SOURCED_BYTES);
  if (job.cancelled) return undefined;
  if (!read || read.tooLarge) return { version: read?.version ?? 'absent' };
  if (before?.version === read.version) return before;
  const text = read.text ?? (await io.files.readText(path, MAX_SOURCED_BYTES));
  return job.cancelled ? undefined : { version: read.version, text };
}

/** The version a file is at: the editor's when it is open there (with its text), else its mtime and size. */
async function versionOf(io: ScanIO, path: string, cap: number): Promise<{ version: string; text?: string; tooLarge?: boolean } | undefined> {
  const open = io.openText(path);
  if (open) return { version: `open:${open.version}`, text: open.text.length > cap ? undefined : open.text, tooLarge: open.text.length > cap };
  const st = await io.files.stat(path);
  if (!st?.isFile) return undefined;
  return { version: `${st.mtimeMs}:${st.size}`, tooLarge: st.size > cap };
}
