/**
 * Issue 43 in the language server, in process: the server never waits on a neighbour. With a file
 * system that never answers, diagnostics and hovers still come, without what the scan would add;
 * with one whose answers the test releases, the first diagnostics come before the scan lands and
 * the pin-dependent finding follows it (a re-published diagnostic), and a watched change of the
 * neighbour is followed the same way. The config is a real v5-layout Mistral-7B file
 * (test/fixtures/consumers/SOURCES.md): current readers read it as meant (a hint), a vLLM 0.6.3 pin
 * (which runs transformers 4.x) misreads it (a warning).
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { nodePlatform } from '../../server/nodePlatform';
import { nodeAsyncFiles } from '../../shared/node/asyncFiles';
import type { AsyncFiles } from '../../shared/files/workspaceScans';
import { startInProcess, type InProcess } from './server/inProcess';

const CONFIG = readFileSync(join(__dirname, '..', 'fixtures', 'consumers', 'mistral-7b-v5-rope-parameters.json'), 'utf8');
const MISREAD = 'consumer/silent-misread';
const WARNING = 2;
const HINT = 4;

/** Node's file system, each answer held until `release()`; with `stuck`, never answered. */
class HeldFiles implements AsyncFiles {
  private held: (() => void)[] = [];
  asked = 0;
  constructor(private readonly stuck = false) {}
  private hold<T>(f: () => Promise<T>): Promise<T> {
    this.asked++;
    if (this.stuck) return new Promise<T>(() => undefined);
    return new Promise<T>((resolve, reject) => this.held.push(() => f().then(resolve, reject)));
  }
  stat(path: string) {
    return this.hold(() => nodeAsyncFiles.stat(path));
  }
  readDir(path: string) {
    return this.hold(() => nodeAsyncFiles.readDir(path));
  }
  readText(path: string, maxBytes: number) {
    return this.hold(() => nodeAsyncFiles.readText(path, maxBytes));
  }
  get waiting(): number {
    return this.held.length;
  }
  release(): void {
    const h = this.held;
    this.held = [];
    h.forEach((f) => f());
  }
}

/** The misread finding's severity in a publication (undefined: not there). */
const misread = (p: PublishDiagnosticsParams) => p.diagnostics.find((d) => d.code === MISREAD)?.severity;

/** Waits for a publication for `uri` after the first `from` that `ok` accepts, releasing held answers meanwhile. */
async function publication(h: InProcess, uri: string, from: number, ok: (p: PublishDiagnosticsParams) => boolean, files?: HeldFiles) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const p = h.published.slice(from).find((x) => x.uri === uri && ok(x));
    if (p) return { p, index: h.published.indexOf(p) };
    assert.ok(
      Date.now() < deadline,
      `no such publication for ${uri}: ${JSON.stringify(h.published.map((x) => [x.uri, x.diagnostics.map((d) => [d.code, d.severity])]))}`,
    );
    files?.release();
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('language server: workspace scans never hold an answer (issue 43)', function () {
  this.timeout(30_000);
  let dir: string;
  let h: InProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-scans-'));
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'config.json'), CONFIG);
    writeFileSync(join(dir, 'requirements.txt'), 'vllm==0.6.3\n');
  });
  afterEach(() => {
    h?.dispose();
    h = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a scan that never resolves: diagnostics and a hover still answer, with the findings that need no neighbour', async () => {
    const files = new HeldFiles(true);
    h = await startInProcess({}, nodePlatform({ scanFiles: files }));
    const uri = pathToFileURL(join(dir, 'config.json')).toString();
    await h.open(uri, CONFIG);
    const { p } = await publication(h, uri, 0, (x) => misread(x) !== undefined);
    assert.equal(misread(p), HINT, 'without the pin, current readers read it as meant');
    const line = CONFIG.split('\n').findIndex((l) => l.includes('"rope_parameters"'));
    const hover = await h.client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: 5 } });
    assert.ok(hover, 'the hover answers');
    assert.ok(files.asked > 0, 'the scan was asked for, and is still pending');
  });

  it('pending → filled: the first diagnostics come before the scan lands, the pin-dependent warning follows; a watched change is followed too', async () => {
    const files = new HeldFiles();
    h = await startInProcess({}, nodePlatform({ scanFiles: files }));
    const uri = pathToFileURL(join(dir, 'config.json')).toString();
    await h.open(uri, CONFIG);
    // Nothing released yet: the first answer cannot have read requirements.txt.
    const first = await publication(h, uri, 0, (x) => misread(x) !== undefined);
    assert.equal(misread(first.p), HINT);
    assert.ok(files.waiting > 0, 'the folder scan is still held');
    const pinned = await publication(h, uri, first.index + 1, (x) => misread(x) === WARNING, files);
    assert.match(pinned.p.diagnostics.find((d) => d.code === MISREAD)!.relatedInformation?.[0]?.message ?? '', /0\.6\.3/);

    // requirements.txt now pins transformers 5: the client's watcher says so; the hint comes back.
    writeFileSync(join(dir, 'requirements.txt'), 'transformers==5.2.0\n');
    await h.client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: pathToFileURL(join(dir, 'requirements.txt')).toString(), type: FileChangeType.Changed }],
    });
    await publication(h, uri, pinned.index + 1, (x) => misread(x) === HINT, files);
  });
});
