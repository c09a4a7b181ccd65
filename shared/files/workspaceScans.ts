/**
 * The language server's workspace facts (consumer pins, the project file, sourced scripts), read
 * off the request path. A lookup answers at once from what has been scanned; a folder or file not
 * scanned yet is asked of an asynchronous file system (Node's fs.promises, shared/node/asyncFiles.ts)
 * and the lookup answers without it. Each lookup records the document it was made for, so when a
 * scan lands, or a rescan finds a change, exactly those documents are checked again, the way bound
 * answers arrive (server/boundOracle.ts). Entries are kept by version (mtime and size, or the
 * editor's version while the file is open there), checked again in the background once `ttlMs` old
 * and at once when the client reports a change. One scan per folder or file is in flight; a change
 * reported while it runs supersedes it (scanQueue.ts); files are read one per event-loop turn
 * (folderScan.ts).
 *
 * The lookups climb folders as the synchronous sources do (shared/node/consumerPins.ts,
 * projectConfig.ts, sourcedFiles.ts): nearest folder first, up to the folder holding `.git`. A
 * folder not scanned yet hides every folder above it (a pin found higher up may be overridden by
 * one below), but the folders above are scanned at the same time.
 */
import { dirName, joinPath } from '../config/resolve';
import type { SourcedFile } from '../launch/types';
import { type ConsumerPin, type WorkspaceFacts, pinsFromNeighbour } from '../serving/pins';
import { PROJECT_FILE_NAME, type ProjectConfig, type ProjectConfigSource } from '../service/projectConfig';
import {
  type AsyncFiles,
  type FolderFacts,
  type OpenText,
  type PinsParse,
  type ScanIO,
  type Sourced,
  folderDigest,
  relevant,
  scanFolder,
  scanSourced,
} from './folderScan';
import { type ScanJob, ScanQueue } from './scanQueue';

export type { AsyncFiles, FileStat, OpenText } from './folderScan';
export { WATCHED_GLOBS } from './folderScan';

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
  parsePins?: PinsParse;
  log?: (line: string) => void;
}

/** As the synchronous sources: a config this deep is not a project layout; sourced files are searched 6 folders up. */
const MAX_LEVELS = 40;
const MAX_SOURCED_LEVELS = 6;

interface Slot<T> {
  value: T;
  /** What the dependents see of it: a rescan that keeps it tells nobody. */
  digest: string;
  checkedAt: number;
}

const folderKey = (dir: string) => `folder:${dir}`;
const fileKey = (path: string) => `file:${path}`;
const baseName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);
const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
const defaultYield = (): Promise<void> => new Promise((r) => (typeof setImmediate === 'function' ? setImmediate(r) : setTimeout(r, 0)));

export class WorkspaceScans {
  private readonly folders = new Map<string, Slot<FolderFacts>>();
  private readonly sourced = new Map<string, Slot<Sourced>>();
  /** Scan key → the documents whose lookups read it; document → the keys it read. */
  private readonly readers = new Map<string, Set<string>>();
  private readonly reads = new Map<string, Set<string>>();
  private readonly notes = new Map<string, string[]>();
  private readonly queue: ScanQueue;
  private readonly io: ScanIO;
  private readonly ttlMs: number;
  private readonly now: () => number;
  /** Hears the documents (as passed to the lookups) whose facts landed or changed. */
  set onSettled(f: (filePaths: string[]) => void) {
    this.queue.onSettled = f;
  }
  /** The editor's copy of a file, when it is open there (the server sets it). */
  openText: (path: string) => OpenText | undefined = () => undefined;
  /** Where a scan that failed is said (the server's output channel). */
  log: (line: string) => void;

  constructor(options: WorkspaceScanOptions) {
    this.ttlMs = options.ttlMs ?? 2000;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
    const yieldTurn = options.yieldTurn ?? defaultYield;
    this.io = {
      files: options.files,
      openText: (path) => this.openText(path),
      parsePins:
        options.parsePins ??
        (async (name, text, path) => {
          await yieldTurn();
          return pinsFromNeighbour(name, text, path);
        }),
      yieldTurn,
      log: (line) => this.log(line),
    };
    this.queue = new ScanQueue(
      (key, job) => this.run(key, job),
      options.maxConcurrent ?? 4,
      () => this.log,
    );
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
    return this.queue.pending;
  }

  /** Resolves once no scan runs or waits and every landing has been told. */
  idle(): Promise<void> {
    return this.queue.idle();
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
    return this.queue.busy(key);
  }

  private scan(key: string, supersede = false): void {
    this.queue.want(key, supersede);
  }

  private async run(key: string, job: ScanJob): Promise<void> {
    const path = key.slice(key.indexOf(':') + 1);
    if (key.startsWith('folder:')) {
      const facts = await scanFolder(this.io, path, this.folders.get(path)?.value, job);
      if (facts) this.store(this.folders, key, path, facts, folderDigest(facts));
    } else {
      const facts = await scanSourced(this.io, path, this.sourced.get(path)?.value, job);
      if (facts) this.store(this.sourced, key, path, facts, facts.text ?? '\0absent');
    }
  }

  private store<T>(map: Map<string, Slot<T>>, key: string, path: string, value: T, digest: string): void {
    const before = map.get(path);
    map.set(path, { value, digest, checkedAt: this.now() });
    if (before && before.digest === digest) return;
    // A first answer or a change: the documents that read it are checked again.
    this.queue.tell(this.readers.get(key) ?? []);
  }
}
