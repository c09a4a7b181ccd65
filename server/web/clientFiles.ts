/**
 * The browser server's view of workspace files: SyncFiles answered from what the client has sent.
 * The analysis is synchronous, the client's file system is not, so a read that is not here yet
 * answers "not there", asks the client, and once every question in flight is answered the open
 * documents are checked again, the way bound answers arrive (boundOracle.ts). Each path is asked
 * for once until `invalidate()`, so the rounds end: a re-check only asks for files the previous
 * answers led to (the next folder up, the file a pin names).
 */
import type { Connection } from 'vscode-languageserver';
import type { SyncFiles } from '../../shared/files/syncFiles';
import { ReadDirectoryRequest, ReadFileRequest } from '../../shared/protocol/files';
import { dirName } from '../../shared/config/resolve';

const baseName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);

type Entry<T> = { state: 'asked' } | { state: 'known'; value: T | undefined };

export class ClientFiles implements SyncFiles {
  private readonly texts = new Map<string, Entry<string>>();
  private readonly dirs = new Map<string, Entry<string[]>>();
  private connection: Pick<Connection, 'sendRequest'> | undefined;
  private changed: () => void = () => undefined;
  private inFlight = 0;
  private learned = false;
  private settledWaiters: (() => void)[] = [];

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  /** From here on misses are asked of the client; `changed` runs when answers brought something new. */
  attach(connection: Pick<Connection, 'sendRequest'>, changed: () => void): void {
    this.connection = connection;
    this.changed = changed;
  }

  readText(path: string): string | undefined {
    // A folder listing that lacks the name answers at once: lookups climbing folders for a file
    // that is not there (the project file, requirements) cost no round trip per folder.
    const parent = dirName(path);
    const listing = this.listDir(parent);
    const known = this.dirs.get(parent)?.state === 'known';
    if (known && !listing?.includes(baseName(path))) return undefined;
    return this.lookup(this.texts, path, async () => (await this.connection!.sendRequest(ReadFileRequest, { path })).text);
  }

  listDir(path: string): string[] | undefined {
    const hit = this.dirs.get(path);
    if (hit) return hit.state === 'known' ? hit.value : undefined;
    // Lookups climb from here to the root, one folder per answer: ask for all of them in one batch.
    for (let at = path, up = dirName(at); up !== at && !this.dirs.has(up); at = up, up = dirName(up)) this.askDir(up);
    return this.askDir(path);
  }

  private askDir(path: string): string[] | undefined {
    return this.lookup(this.dirs, path, async () => (await this.connection!.sendRequest(ReadDirectoryRequest, { path })).entries);
  }

  hasEntry(dir: string, name: string): boolean {
    return this.listDir(dir)?.includes(name) ?? false;
  }

  /** Files may have changed (a save, the project file): ask again on the next read. */
  invalidate(): void {
    for (const m of [this.texts, this.dirs] as Map<string, Entry<unknown>>[]) {
      for (const [k, v] of m) if (v.state === 'known') m.delete(k);
    }
  }

  /** Resolves once no question is in flight (tests, and the quick fixes' settle loop). */
  settled(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((r) => this.settledWaiters.push(r));
  }

  get pending(): number {
    return this.inFlight;
  }

  private lookup<T>(map: Map<string, Entry<T>>, path: string, ask: () => Promise<T | undefined>): T | undefined {
    const hit = map.get(path);
    if (hit) return hit.state === 'known' ? hit.value : undefined;
    if (!this.connection) return undefined;
    map.set(path, { state: 'asked' });
    this.inFlight++;
    ask().then(
      (value) => {
        map.set(path, { state: 'known', value });
        if (value !== undefined) this.learned = true;
        this.done();
      },
      (e) => {
        this.log(`reading ${path} through the editor failed: ${(e as Error)?.message ?? e}`);
        map.set(path, { state: 'known', value: undefined });
        this.done();
      },
    );
    return undefined;
  }

  private done(): void {
    if (--this.inFlight > 0) return;
    // One re-check per batch of answers, and only when a file or folder turned up: "missing"
    // answers cannot change a result that already assumed them missing.
    const learned = this.learned;
    this.learned = false;
    if (learned) this.changed();
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    waiters.forEach((w) => w());
  }
}
