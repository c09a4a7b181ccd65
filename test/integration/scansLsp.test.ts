/**
 * Issue 43 over stdio, with the real server process and a real folder: a requirements.txt pinning
 * vllm==0.6.3 (which runs transformers 4.x) beside a config saved in the layout transformers 5
 * writes (test/fixtures/consumers/mistral-7b-v5-rope-parameters.json). The neighbour is scanned
 * off the request path: the first diagnostics are published without it (the misread is a hint:
 * current readers read the file as meant), and the pin-dependent warning follows in a later
 * publication. Opening requirements.txt in the editor and editing it is followed the same way.
 * Every wait is on a state (a publication with the expected finding), never on time.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HoverRequest, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { BUILT, LspHarness, ROOT } from './lspHarness';

const CONFIG = readFileSync(join(ROOT, 'test', 'fixtures', 'consumers', 'mistral-7b-v5-rope-parameters.json'), 'utf8');
const MISREAD = 'consumer/silent-misread';
const WARNING = 2;
const HINT = 4;
const misread = (p: PublishDiagnosticsParams) => p.diagnostics.find((d) => d.code === MISREAD);

describe('language server: a neighbour pin follows the first diagnostics (issue 43, over stdio)', function () {
  this.timeout(60_000);
  let h: LspHarness;
  let dir: string;
  before(async function () {
    if (!BUILT) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-scans-lsp-'));
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'config.json'), CONFIG);
    writeFileSync(join(dir, 'requirements.txt'), 'torch==2.4.0\nvllm==0.6.3\n');
    h = await LspHarness.start({ settings: { validation: { delay: 0 } } });
  });
  after(async () => {
    if (h) await h.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The first publication for `uri` after index `from` that `ok` accepts, and its index. */
  const publication = (uri: string, from: number, ok: (p: PublishDiagnosticsParams) => boolean, what: string) =>
    h.until(() => {
      const i = h.published.findIndex((p, j) => j >= from && p.uri === uri && ok(p));
      return i >= 0 ? { p: h.published[i], index: i } : undefined;
    }, what);

  it('the first diagnostics do not wait for the scan; the vllm==0.6.3 warning follows; an edit of the open requirements.txt is followed', async () => {
    const uri = pathToFileURL(join(dir, 'config.json')).toString();
    await h.open(uri, CONFIG, 'json', 1);
    // The scan starts with the first analysis, so that analysis cannot have read the pin.
    const first = await publication(uri, 0, (p) => misread(p) !== undefined, 'the first diagnostics');
    assert.equal(
      first.index,
      h.published.findIndex((p) => p.uri === uri),
      'the first publication for the config',
    );
    assert.equal(misread(first.p)!.severity, HINT);
    const hover = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 15, character: 5 } });
    assert.ok(hover, 'a hover answers');

    const pinned = await publication(uri, first.index + 1, (p) => misread(p)?.severity === WARNING, 'the pin-dependent warning');
    const said = [misread(pinned.p)!.message, ...(misread(pinned.p)!.relatedInformation ?? []).map((r) => r.message)].join(' ');
    assert.match(said, /requirements\.txt:2/);

    // The neighbour opened in the editor: its text there counts, edit by edit.
    const req = pathToFileURL(join(dir, 'requirements.txt')).toString();
    await h.open(req, 'torch==2.4.0\nvllm==0.6.3\n', 'pip-requirements', 1);
    await h.change(req, 2, [{ text: 'transformers==5.2.0\n' }]);
    await publication(uri, pinned.index + 1, (p) => misread(p)?.severity === HINT, 'the hint again once the open requirements.txt pins transformers 5');
  });
});
