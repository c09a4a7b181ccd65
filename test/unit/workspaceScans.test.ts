/**
 * The language server's workspace scans (shared/files/workspaceScans.ts) over an in-memory file
 * system whose answers the test releases (deterministic: no timers, no real disk): lookups answer
 * at once with what has landed, say what is pending, and the documents that read a scan are told
 * when it lands or when a rescan finds a change; an unchanged rescan tells nobody; a change while
 * a scan runs supersedes it; a stuck file system never holds a lookup.
 */
import { strict as assert } from 'node:assert';
import { type AsyncFiles, type FileStat, WorkspaceScans } from '../../shared/files/workspaceScans';
import { dirName } from '../../shared/config/resolve';

/** Files by path; every answer waits in a queue until `release()` (or forever when `stuck`). */
class GatedFiles implements AsyncFiles {
  readonly texts = new Map<string, { text: string; mtimeMs: number }>();
  readonly dirs = new Set<string>();
  private waiting: (() => void)[] = [];
  /** Listings asked and not answered yet, per folder (one scan per folder in flight). */
  readonly listingsInFlight = new Map<string, number>();
  maxListingsInFlight = 0;
  /** Listings asked, per folder. */
  readonly listed = new Map<string, number>();
  calls = 0;
  stuck = false;

  write(path: string, text: string, mtimeMs = 1): void {
    this.texts.set(path, { text, mtimeMs });
    for (let d = dirName(path); !this.dirs.has(d); d = dirName(d)) {
      this.dirs.add(d);
      if (d === '/') break;
    }
  }

  private gate<T>(f: () => T): Promise<T> {
    this.calls++;
    if (this.stuck) return new Promise<T>(() => undefined);
    return new Promise<T>((resolve) => this.waiting.push(() => resolve(f())));
  }
  stat(path: string): Promise<FileStat | undefined> {
    return this.gate(() => {
      const f = this.texts.get(path);
      return f ? { isFile: true, mtimeMs: f.mtimeMs, size: f.text.length } : undefined;
    });
  }
  readDir(path: string): Promise<string[] | undefined> {
    this.listed.set(path, (this.listed.get(path) ?? 0) + 1);
    const n = (this.listingsInFlight.get(path) ?? 0) + 1;
    this.listingsInFlight.set(path, n);
    this.maxListingsInFlight = Math.max(this.maxListingsInFlight, n);
    return this.gate(() => {
      this.listingsInFlight.set(path, (this.listingsInFlight.get(path) ?? 1) - 1);
      if (!this.dirs.has(path)) return undefined;
      const names = new Set<string>();
      for (const p of [...this.texts.keys(), ...this.dirs]) if (p !== path && dirName(p) === path) names.add(p.slice(path.length + (path === '/' ? 0 : 1)));
      return [...names];
    });
  }
  readText(path: string, maxBytes: number): Promise<string | undefined> {
    return this.gate(() => {
      const f = this.texts.get(path);
      return f && f.text.length <= maxBytes ? f.text : undefined;
    });
  }
  get queued(): number {
    return this.waiting.length;
  }
  release(): number {
    const w = this.waiting;
    this.waiting = [];
    w.forEach((f) => f());
    return w.length;
  }
}

const tick = () => new Promise((r) => setImmediate(r));

interface Rig {
  fs: GatedFiles;
  scans: WorkspaceScans;
  told: string[][];
  clock: { now: number };
  /** Releases answers until every scan has landed and been told. */
  drain(): Promise<void>;
}

function rig(ttlMs = 1000): Rig {
  const fs = new GatedFiles();
  const clock = { now: 0 };
  const scans = new WorkspaceScans({ files: fs, ttlMs, now: () => clock.now, yieldTurn: () => Promise.resolve() });
  const told: string[][] = [];
  scans.onSettled = (paths) => told.push([...paths].sort());
  return {
    fs,
    scans,
    told,
    clock,
    async drain() {
      for (let round = 0; round < 200 && (scans.pending > 0 || fs.queued > 0); round++) {
        fs.release();
        await tick();
      }
      assert.equal(scans.pending, 0, 'the scans ended');
      await scans.idle();
    },
  };
}

/** The documents told so far, each once (a batch of landings may be told in one call or several). */
const told = (r: Rig) => [...new Set(r.told.flat())].sort();
const show = (pins: { pkg: string; version: string | null; source: string }[]) => pins.map((p) => `${p.pkg}@${p.version} ${p.source}`);
const CONFIG = '/w/app/config.json';

describe('workspace scans (the server reads neighbours off the request path)', () => {
  it('pending → filled: the first lookup answers without the pin and says what it waits for; the reader is told when it lands', async () => {
    const r = rig();
    r.fs.write('/w/.git/HEAD', 'ref');
    r.fs.write('/w/app/requirements.txt', 'vllm==0.6.3\n');
    assert.deepEqual(r.scans.workspace.pinsFor(CONFIG), []);
    // The folders above are asked for too (until a listing shows where the repository ends).
    assert.deepEqual(r.scans.workspace.pendingFor!(CONFIG).sort(), ['folder:/', 'folder:/w', 'folder:/w/app']);
    assert.deepEqual(r.told, []);
    await r.drain();
    assert.deepEqual(told(r), [CONFIG]);
    assert.deepEqual(r.scans.workspace.pendingFor!(CONFIG), []);
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['vllm@0.6.3 /w/app/requirements.txt:1']);
    // Landed: the next lookups cost no file-system call at all.
    const calls = r.fs.calls;
    r.scans.workspace.pinsFor(CONFIG);
    assert.equal(r.fs.calls, calls);
  });

  it('a folder not scanned hides the folders above it, which are scanned at the same time; climbing stops at .git', async () => {
    const r = rig();
    r.fs.write('/requirements.txt', 'transformers==4.30.0\n'); // outside the repository
    r.fs.write('/w/.git/HEAD', 'ref');
    r.fs.write('/w/uv.lock', '[[package]]\nname = "transformers"\nversion = "4.46.3"\n');
    r.fs.write('/w/app/notes.txt', 'hello');
    assert.deepEqual(r.scans.workspace.pinsFor(CONFIG), []);
    assert.deepEqual(r.scans.workspace.pendingFor!(CONFIG).sort(), ['folder:/', 'folder:/w', 'folder:/w/app']);
    await r.drain();
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['transformers@4.46.3 /w/uv.lock:3']);
  });

  it('a changed file is scanned again when touched and its readers told; an unchanged rescan tells nobody', async () => {
    const r = rig();
    r.fs.write('/w/app/requirements.txt', 'vllm==0.6.3\n');
    r.scans.workspace.pinsFor(CONFIG);
    r.scans.workspace.pinsFor('/w/app/other.json');
    await r.drain();
    r.told.length = 0;
    r.fs.write('/w/app/requirements.txt', 'vllm==0.10.2\n', 2);
    // As a Windows client's path may arrive: back-slashes name the same entry.
    r.scans.touched('\\w\\app\\requirements.txt');
    await r.drain();
    assert.deepEqual(told(r), [CONFIG, '/w/app/other.json'].sort());
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['vllm@0.10.2 /w/app/requirements.txt:1']);
    // Saved again with the same pins (a new mtime): read again, nobody re-checked.
    r.told.length = 0;
    r.fs.write('/w/app/requirements.txt', 'vllm==0.10.2\n', 3);
    r.scans.touched('/w/app/requirements.txt');
    await r.drain();
    assert.deepEqual(r.told, []);
    // A file no scan reads costs nothing.
    const calls = r.fs.calls;
    r.scans.touched('/w/app/config.json');
    assert.equal(r.scans.pending, 0);
    assert.equal(r.fs.calls, calls);
  });

  it('without a watcher an entry is checked by version once it is ttl old: the stale answer is given at once, the change follows', async () => {
    const r = rig(1000);
    r.fs.write('/w/app/requirements.txt', 'vllm==0.6.3\n');
    r.scans.workspace.pinsFor(CONFIG);
    await r.drain();
    r.told.length = 0;
    r.fs.write('/w/app/requirements.txt', 'transformers==4.44.2\n', 2);
    r.clock.now = 999;
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['vllm@0.6.3 /w/app/requirements.txt:1']);
    assert.equal(r.scans.pending, 0, 'younger than the ttl: no check');
    r.clock.now = 1000;
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['vllm@0.6.3 /w/app/requirements.txt:1']);
    assert.deepEqual(r.scans.workspace.pendingFor!(CONFIG), [], 'a known entry being checked is not pending');
    await r.drain();
    assert.deepEqual(told(r), [CONFIG]);
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['transformers@4.44.2 /w/app/requirements.txt:1']);
  });

  it("the editor's copy of an open neighbour wins over the disk's, by its version", async () => {
    const r = rig();
    r.fs.write('/w/app/requirements.txt', 'vllm==0.6.3\n');
    let open = { version: 1, text: 'sglang==0.4.6\n' };
    r.scans.openText = (path) => (path === '/w/app/requirements.txt' ? open : undefined);
    r.scans.workspace.pinsFor(CONFIG);
    await r.drain();
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['sglang@0.4.6 /w/app/requirements.txt:1']);
    r.told.length = 0;
    open = { version: 2, text: 'sglang==0.5.0\n' };
    r.scans.touched('/w/app/requirements.txt');
    await r.drain();
    assert.deepEqual(told(r), [CONFIG]);
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['sglang@0.5.0 /w/app/requirements.txt:1']);
  });

  it('a change reported while the folder is being scanned supersedes that scan: one listing in flight, the new pin wins', async () => {
    const r = rig();
    r.fs.write('/w/.git/HEAD', 'ref');
    r.fs.write('/w/app/requirements.txt', 'vllm==0.6.3\n');
    r.scans.workspace.pinsFor(CONFIG);
    r.fs.release(); // the listing of /w/app is answered; its file's stat is asked
    await tick();
    r.fs.write('/w/app/requirements.txt', 'vllm==0.10.2\n', 2);
    r.scans.touched('/w/app/requirements.txt');
    r.scans.touched('/w/app/requirements.txt');
    await r.drain();
    assert.equal(r.fs.maxListingsInFlight, 1);
    assert.equal(r.fs.listed.get('/w/app'), 2, 'the superseded scan stopped and a fresh one listed the folder again');
    assert.deepEqual(show(r.scans.workspace.pinsFor(CONFIG)), ['vllm@0.10.2 /w/app/requirements.txt:1']);
    assert.deepEqual(told(r), [CONFIG]);
  });

  it('the project file and sourced scripts: pending, then found as the synchronous sources find them', async () => {
    const r = rig();
    r.fs.write('/w/.git/HEAD', 'ref');
    r.fs.write('/w/.rope-lens.yaml', 'disable: [training/context-exceeded]\n');
    r.fs.write('/w/setup.sh', 'serve_model() { vllm serve "$1"; }\n');
    const script = '/w/qwen/run.sh';
    assert.equal(r.scans.project.configFor(script), undefined);
    assert.equal(r.scans.sourcedFiles(script, '../setup.sh'), undefined);
    assert.ok(r.scans.workspace.pendingFor!(script).includes('file:/w/setup.sh'));
    await r.drain();
    assert.deepEqual(told(r), [script]);
    assert.deepEqual(r.scans.project.configFor(script)?.disable, ['training/context-exceeded']);
    assert.equal(r.scans.sourcedFiles(script, '../setup.sh')?.path, '/w/setup.sh');
    // Found by climbing from the script's folder (as a script run from the repository's root would), once /w/qwen/setup.sh is known absent.
    assert.equal(r.scans.sourcedFiles(script, 'setup.sh'), undefined);
    await r.drain();
    assert.match(r.scans.sourcedFiles(script, 'setup.sh')?.text ?? '', /serve_model/);
    assert.equal(r.scans.sourcedFiles(script, 'missing.sh'), undefined);
    await r.drain();
    assert.equal(r.scans.sourcedFiles(script, 'missing.sh'), undefined);
  });

  it('a stuck file system never holds a lookup: answers at once, the scans stay pending', () => {
    const r = rig();
    r.fs.stuck = true;
    r.fs.write('/w/app/requirements.txt', 'vllm==0.6.3\n');
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(r.scans.workspace.pinsFor(CONFIG), []);
      assert.equal(r.scans.project.configFor(CONFIG), undefined);
      assert.equal(r.scans.sourcedFiles('/w/app/run.sh', 'env.sh'), undefined);
    }
    assert.ok(r.scans.workspace.pendingFor!(CONFIG).includes('folder:/w/app'));
    assert.ok(r.scans.pending > 0);
  });

  it('a neighbour over the byte cap is not read, and the note says so', async () => {
    const r = rig();
    r.fs.write('/w/app/requirements.txt', `vllm==0.6.3\n${'#'.repeat(3 * 1024 * 1024)}\n`);
    r.scans.workspace.pinsFor(CONFIG);
    await r.drain();
    assert.deepEqual(r.scans.workspace.pinsFor(CONFIG), []);
    assert.match(r.scans.workspace.notesFor!(CONFIG)[0], /requirements\.txt: larger than 2 MB, not read for consumer pins/);
  });
});
