/**
 * The language server's workspace facts (consumer pins, the project file, sourced scripts), read
 * off the request path. A lookup answers at once from what has been scanned; a folder or file not
 * scanned yet is asked of an asynchronous file system (Node's fs.promises, shared/node/asyncFiles.ts)
 * and the lookup answers without it. Each lookup records the document it was made for, so when a
 * scan lands, or a rescan finds a change, exactly those documents are checked again, the way bound
 * answers arrive (server/boundOracle.ts). Entries are kept by version (mtime and size, or the
 * editor's version while the file is open there), checked again in the background once `ttlMs` old
 * and at once when the client reports a change. One scan per folder or file is in flight; a change
 * reported while it runs supersedes it; files are parsed one per event-loop turn.
 *
 * The lookups climb folders as the synchronous sources do (shared/node/consumerPins.ts,
 * projectConfig.ts, sourcedFiles.ts): nearest folder first, up to the folder holding `.git`. A
 * folder not scanned yet hides every folder above it (a pin found higher up may be overridden by
 * one below), but the folders above are scanned at the same time.
 */
import { MAX_NEIGHBOUR_BYTES } from '../core/limits';
import { dirName, joinPath } from '../config/resolve';
import type { SourcedFile } from '../launch/types';
import { type ConsumerPin, type WorkspaceFacts, pinsFromFile, pinsFromNeighbour } from '../serving/pins';
import { PROJECT_FILE_NAME, parseProjectConfig, type ProjectConfig, type ProjectConfigSource } from '../service/projectConfig';

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

export interface WorkspaceScanOptions {
  files: AsyncFiles;
  /** After this long an entry is checked again (in the background) when a lookup uses it. */
  ttlMs?: number;
  now?: () => number;
  /** Lets other work run between two files of a scan (default: the next event-loop turn). */
  yieldTurn?: () => Promise<void>;
  /** Scans running at once; the rest wait their turn. */
  maxConcurrent?: number;
  /**
   * Reads one neighbour's pins (pins.ts's pinsFromNeighbour). Default: on this thread, after a
   * turn; Node passes a worker thread's (shared/node/pinsParser.ts), since a 2 MB lock file takes
   * the parser hundreds of milliseconds.
   */
  parsePins?: (name: string, text: string, path: string) => Promise<{ pins: ConsumerPin[]; notes: string[] }>;
  log?: (line: string) => void;
}

/** As the synchronous sources: a config this deep is not a project layout; sourced files are searched 6 folders up. */
const MAX_LEVELS = 40;
const MAX_SOURCED_LEVELS = 6;
/** The synchronous sources' caps: a project file is a few lines; sourced scripts are not huge (pins: shared/core/limits.ts). */
const MAX_PROJECT_BYTES = 256 * 1024;
const MAX_SOURCED_BYTES = 1_000_000;
/** A batch of landings is told to the server when the scans go idle, or after this long at most. */
const SETTLE_MS = 50;

/** One file of a folder, as read at one version. */
interface FileFacts {
  version: string;
  pins: ConsumerPin[];
  notes: string[];
  project?: ProjectConfig;
}

interface FolderFacts {
  hasGit: boolean;
  /** The files in it that hold pins or are the project file, by name, in name order. */
  files: Map<string, FileFacts>;
}

interface Sourced {
  version: string;
  text?: string;
}

interface Slot<T> {
  value: T;
  /** What the dependents see of it: a rescan that keeps it tells nobody. */
  digest: string;
  checkedAt: number;
}

interface Job {
  cancelled: boolean;
}

const folderKey = (dir: string) => `folder:${dir}`;
const fileKey = (path: string) => `file:${path}`;
const baseName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);
const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
/** Names a folder scan reads: files that may pin consumers, and the project file. */
const relevant = (name: string) => name === PROJECT_FILE_NAME || pinsFromFile(name, '') !== undefined;
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
const defaultYield = (): Promise<void> => new Promise((r) => (typeof setImmediate === 'function' ? setImmediate(r) : setTimeout(r, 0)));

export class WorkspaceScans {
  private readonly folders = new Map<string, Slot<FolderFacts>>();
  private readonly sourced = new Map<string, Slot<Sourced>>();
  /** Scan key → the documents whose lookups read it; document → the keys it read. */
  private readonly readers = new Map<string, Set<string>>();
  private readonly reads = new Map<string, Set<string>>();
  private readonly notes = new Map<string, string[]>();
  private readonly jobs = new Map<string, Job>();
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  /** Keys whose running scan was superseded: scanned again once it stops. */
  private readonly again = new Set<string>();
  private readonly landed = new Set<string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private idleWaiters: (() => void)[] = [];
  private readonly files: AsyncFiles;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly yieldTurn: () => Promise<void>;
  private readonly maxConcurrent: number;
  private readonly parsePins: NonNullable<WorkspaceScanOptions['parsePins']>;
  /** Incremented whenever a scan lands with something new. */
  epoch = 0;
  /** Hears the documents (as passed to the lookups) whose facts landed or changed. */
  onSettled: (filePaths: string[]) => void = () => undefined;
  /** The editor's copy of a file, when it is open there (the server sets it). */
  openText: (path: string) => OpenText | undefined = () => undefined;
  /** Where a scan that failed is said (the server's output channel). */
  log: (line: string) => void;

  constructor(options: WorkspaceScanOptions) {
    this.files = options.files;
    this.ttlMs = options.ttlMs ?? 2000;
    this.now = options.now ?? Date.now;
    this.yieldTurn = options.yieldTurn ?? defaultYield;
    this.maxConcurrent = options.maxConcurrent ?? 4;
    this.log = options.log ?? (() => undefined);
    this.parsePins =
      options.parsePins ??
      (async (name, text, path) => {
        await this.yieldTurn();
        return pinsFromNeighbour(name, text, path);
      });
  }

  /** Consumer pins for the service: the nearest folder with any wins. */
  readonly workspace: WorkspaceFacts = {
    pinsFor: (filePath) => this.pinsFor(filePath),
    notesFor: (filePath) => this.notes.get(filePath) ?? [],
    pendingFor: (filePath) => this.pendingFor(filePath),
  };

  /** The project file for the service; `invalidate()` has every entry checked again on its next use. */
  readonly project: ProjectConfigSource & { invalidate(): void } = {
    configFor: (filePath) => this.configFor(filePath),
    invalidate: () => this.invalidate(),
  };

  /** Files a shell script sources, for the service. */
  readonly sourcedFiles = (scriptPath: string, name: string): SourcedFile | undefined => this.sourcedFile(scriptPath, name);

  /** Scans the lookups for `filePath` asked for and that have not landed yet. */
  pendingFor(filePath: string): string[] {
    return [...(this.reads.get(filePath) ?? [])].filter((key) => !this.known(key));
  }

  /** Scans running or waiting. */
  get pending(): number {
    return this.jobs.size + this.queue.length;
  }

  /** Resolves once no scan runs or waits and every landing has been told. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * A file or folder changed (the client's watcher, an edit in the editor): its entry, and its
   * folder's when the name is one a folder scan reads, are scanned again now, superseding a scan
   * of them in flight. Paths never looked up cost nothing.
   */
  touched(changed: string): void {
    // Entries are kept under forward-slash paths (dirName/joinPath), whatever the platform writes.
    const path = changed.replace(/\\/g, '/');
    if (this.sourced.has(path) || this.busy(fileKey(path))) this.scan(fileKey(path), true);
    if (this.folders.has(path) || this.busy(folderKey(path))) this.scan(folderKey(path), true);
    const name = baseName(path);
    const dir = dirName(path);
    if ((relevant(name) || name === '.git') && (this.folders.has(dir) || this.busy(folderKey(dir)))) this.scan(folderKey(dir), true);
  }

  /** Every entry is checked again on its next use (the project file changed and the client does not say which). */
  invalidate(): void {
    for (const slot of [...this.folders.values(), ...this.sourced.values()]) slot.checkedAt = Number.NEGATIVE_INFINITY;
  }

  /** The document closed: its lookups no longer make anything re-checked. */
  forget(filePath: string): void {
    for (const key of this.reads.get(filePath) ?? []) this.readers.get(key)?.delete(filePath);
    this.reads.delete(filePath);
    this.notes.delete(filePath);
  }

  private pinsFor(filePath: string): ConsumerPin[] {
    const said: string[] = [];
    this.notes.set(filePath, said);
    let found: ConsumerPin[] | undefined;
    let blocked = false;
    for (const folder of this.climb(filePath, MAX_LEVELS)) {
      if (!folder.facts) {
        blocked = true;
        continue;
      }
      const pins: ConsumerPin[] = [];
      for (const f of folder.facts.files.values()) {
        if (!blocked) said.push(...f.notes);
        pins.push(...f.pins);
      }
      if (pins.length) {
        found = pins;
        break;
      }
      if (folder.facts.hasGit) break;
    }
    return blocked ? [] : (found ?? []);
  }

  private configFor(filePath: string): ProjectConfig | undefined {
    let blocked = false;
    for (const folder of this.climb(filePath, MAX_LEVELS)) {
      if (!folder.facts) {
        blocked = true;
        continue;
      }
      const project = folder.facts.files.get(PROJECT_FILE_NAME)?.project;
      if (project) return blocked ? undefined : project;
      if (folder.facts.hasGit) break;
    }
    return undefined;
  }

  private sourcedFile(scriptPath: string, name: string): SourcedFile | undefined {
    if (!name || name.includes('\0')) return undefined;
    const one = (path: string): Sourced | undefined => this.sourcedSlot(path, scriptPath);
    if (isAbsolute(name)) {
      const f = one(name);
      return f?.text !== undefined ? { path: name, text: f.text } : undefined;
    }
    let blocked = false;
    for (const folder of this.climb(scriptPath, MAX_SOURCED_LEVELS)) {
      const path = joinPath(folder.dir, name);
      const f = one(path);
      if (!f) blocked = true;
      else if (f.text !== undefined) return blocked ? undefined : { path, text: f.text };
      if (!folder.facts) blocked = true;
      else if (folder.facts.hasGit) break;
    }
    return undefined;
  }

  /** The folders from `filePath`'s own upward, each with its facts when scanned (looking asks for a scan). */
  private *climb(filePath: string, levels: number): Generator<{ dir: string; facts?: FolderFacts }> {
    let dir = dirName(filePath);
    for (let i = 0; i < levels; i++) {
      yield { dir, facts: this.use(this.folders, folderKey(dir), filePath) };
      const up = dirName(dir);
      if (up === dir || up === '.' || up === '') return;
      dir = up;
    }
  }

  private sourcedSlot(path: string, reader: string): Sourced | undefined {
    return this.use(this.sourced, fileKey(path), reader);
  }

  /** An entry's value for `reader` (recorded as depending on it); a scan starts when it is missing or old. */
  private use<T>(map: Map<string, Slot<T>>, key: string, reader: string): T | undefined {
    let readers = this.readers.get(key);
    if (!readers) this.readers.set(key, (readers = new Set()));
    readers.add(reader);
    let reads = this.reads.get(reader);
    if (!reads) this.reads.set(reader, (reads = new Set()));
    reads.add(key);
    const slot = map.get(key.slice(key.indexOf(':') + 1));
    if (!slot || this.now() - slot.checkedAt >= this.ttlMs) this.scan(key);
    return slot?.value;
  }

  private known(key: string): boolean {
    const path = key.slice(key.indexOf(':') + 1);
    return key.startsWith('folder:') ? this.folders.has(path) : this.sourced.has(path);
  }

  private busy(key: string): boolean {
    return this.jobs.has(key) || this.queued.has(key);
  }

  private scan(key: string, supersede = false): void {
    const running = this.jobs.get(key);
    if (running) {
      if (supersede) {
        running.cancelled = true;
        this.again.add(key);
      }
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  private pump(): void {
    while (this.jobs.size < this.maxConcurrent && this.queue.length) {
      const key = this.queue.shift()!;
      this.queued.delete(key);
      const job: Job = { cancelled: false };
      this.jobs.set(key, job);
      this.run(key, job)
        .catch((e) => this.log(`scanning ${key.slice(key.indexOf(':') + 1)} failed: ${(e as Error)?.message ?? e}`))
        .finally(() => {
          this.jobs.delete(key);
          if (this.again.delete(key)) this.scan(key);
          this.pump();
          this.settleSoon();
        });
    }
  }

  private async run(key: string, job: Job): Promise<void> {
    const path = key.slice(key.indexOf(':') + 1);
    if (key.startsWith('folder:')) {
      const facts = await this.scanFolder(path, job);
      if (facts) this.store(this.folders, key, path, facts, folderDigest(facts));
    } else {
      const facts = await this.scanSourced(path, this.sourced.get(path)?.value, job);
      if (facts) this.store(this.sourced, key, path, facts, facts.text ?? '\0absent');
    }
  }

  private store<T>(map: Map<string, Slot<T>>, key: string, path: string, value: T, digest: string): void {
    const before = map.get(path);
    map.set(path, { value, digest, checkedAt: this.now() });
    if (before && before.digest === digest) return;
    // A first answer or a change: the documents that read it are checked again.
    this.epoch++;
    for (const r of this.readers.get(key) ?? []) this.landed.add(r);
  }

  /** The folder's listing and its pin and project files, one file per event-loop turn; undefined once superseded. */
  private async scanFolder(dir: string, job: Job): Promise<FolderFacts | undefined> {
    const names = await this.files.readDir(dir);
    if (job.cancelled) return undefined;
    const before = this.folders.get(dir)?.value;
    const facts: FolderFacts = { hasGit: names?.includes('.git') ?? false, files: new Map() };
    for (const name of (names ?? []).filter(relevant).sort()) {
      const f = await this.scanFile(dir, name, before?.files.get(name));
      if (job.cancelled) return undefined;
      if (f) facts.files.set(name, f);
      await this.yieldTurn();
      if (job.cancelled) return undefined;
    }
    return facts;
  }

  /** One file of a folder at its current version: kept when the version is the one read before. */
  private async scanFile(dir: string, name: string, before: FileFacts | undefined): Promise<FileFacts | undefined> {
    const path = joinPath(dir, name);
    const project = name === PROJECT_FILE_NAME;
    const cap = project ? MAX_PROJECT_BYTES : MAX_NEIGHBOUR_BYTES;
    const read = await this.versionOf(path, cap);
    if (!read) return undefined;
    if (before?.version === read.version) return before;
    const text = read.text ?? (read.tooLarge ? undefined : await this.files.readText(path, cap));
    if (project) {
      if (text === undefined)
        return read.tooLarge
          ? {
              version: read.version,
              pins: [],
              notes: [],
              project: { ...parseProjectConfig('', path), problems: [`${path}: larger than ${cap / 1024} KB, not read`] },
            }
          : undefined;
      return { version: read.version, pins: [], notes: [], project: parseProjectConfig(text, path) };
    }
    if (text === undefined) {
      return read.tooLarge
        ? { version: read.version, pins: [], notes: [`${path}: larger than ${cap / 1024 / 1024} MB, not read for consumer pins`] }
        : undefined;
    }
    try {
      const { pins, notes } = await this.parsePins(name, text, path);
      return { version: read.version, pins: pins.map((p) => ({ ...p, source: joinPath(dir, p.source) })), notes };
    } catch (e) {
      // Bad input never stops a scan: the file is left out (read again on a later scan), and the log says why.
      this.log(`reading ${path} for consumer pins failed: ${(e as Error)?.message ?? e}`);
      return undefined;
    }
  }

  private async scanSourced(path: string, before: Sourced | undefined, job: Job): Promise<Sourced | undefined> {
    const read = await this.versionOf(path, MAX_SOURCED_BYTES);
    if (job.cancelled) return undefined;
    if (!read || read.tooLarge) return { version: read?.version ?? 'absent' };
    if (before?.version === read.version) return before;
    const text = read.text ?? (await this.files.readText(path, MAX_SOURCED_BYTES));
    return job.cancelled ? undefined : { version: read.version, text };
  }

  /** The version a file is at: the editor's when it is open there (with its text), else its mtime and size. */
  private async versionOf(path: string, cap: number): Promise<{ version: string; text?: string; tooLarge?: boolean } | undefined> {
    const open = this.openText(path);
    if (open) return { version: `open:${open.version}`, text: open.text.length > cap ? undefined : open.text, tooLarge: open.text.length > cap };
    const st = await this.files.stat(path);
    if (!st?.isFile) return undefined;
    return { version: `${st.mtimeMs}:${st.size}`, tooLarge: st.size > cap };
  }

  private isIdle(): boolean {
    return this.jobs.size === 0 && this.queue.length === 0 && this.landed.size === 0;
  }

  /** Tells the server about landings once the scans go idle (or SETTLE_MS after the first), so a climb re-checks once. */
  private settleSoon(): void {
    if (this.landed.size === 0) {
      if (this.isIdle()) this.wakeIdle();
      return;
    }
    if (this.jobs.size === 0 && this.queue.length === 0) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      // Told once the scan's own callbacks are done (a microtask), not in the middle of them.
      void Promise.resolve().then(() => this.flush());
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, SETTLE_MS);
  }

  private flush(): void {
    if (this.landed.size === 0) return;
    const paths = [...this.landed];
    this.landed.clear();
    try {
      this.onSettled(paths);
    } finally {
      if (this.isIdle()) this.wakeIdle();
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }
}

/** What the dependents of a folder see: whether it ends the climb, and each file's pins, notes and project file. */
function folderDigest(f: FolderFacts): string {
  return JSON.stringify([f.hasGit, [...f.files].map(([name, x]) => [name, x.pins, x.notes, x.project ?? null])]);
}
