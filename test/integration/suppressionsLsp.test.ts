/**
 * The language server honours suppressions like the CLI: a `# rope-lens: disable=…` comment as the
 * user types it, and the project file `.rope-lens.yaml` found from the document's path — which the
 * server watches (it registers a file watcher) and scans again when the client reports a change.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver-protocol/node';
import { BASE_CAPABILITIES, BUILT, LspHarness } from './lspHarness';
import { WATCHED_GLOBS } from '../../shared/files/workspaceScans';

const TRAIN = 'base_model: NousResearch/Llama-2-7b-hf\nsequence_len: 16384\nmicro_batch_size: 1\n';

describe('language server: suppression comments and the project file', function () {
  this.timeout(60_000);
  let h: LspHarness;
  let dir: string;
  before(async function () {
    if (!BUILT) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-lsp-suppress-'));
    mkdirSync(join(dir, '.git'));
    h = await LspHarness.start({
      capabilities: { ...BASE_CAPABILITIES, workspace: { ...BASE_CAPABILITIES.workspace, didChangeWatchedFiles: { dynamicRegistration: true } } },
    });
  });
  after(async () => {
    if (h) await h.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('watches **/.rope-lens.yaml; a comment silences the finding as typed; the project file applies once it changes', async () => {
    const watch = await h.until(() => h.registrations.find((r) => r.method === DidChangeWatchedFilesNotification.method), 'a file watcher registration');
    // The project file, and every other file the server's workspace scans read (requirements, lock files, scripts…).
    assert.deepEqual(
      (watch.registerOptions as { watchers: { globPattern: string }[] }).watchers.map((w) => w.globPattern),
      WATCHED_GLOBS,
    );
    assert.equal(WATCHED_GLOBS[0], '**/.rope-lens.yaml');

    const uri = pathToFileURL(join(dir, 'train.yaml')).toString();
    await h.open(uri, TRAIN, 'yaml', 1);
    const codes = (ds: { code?: string | number }[]) => ds.map((d) => String(d.code));
    assert.deepEqual(codes(await h.diagnosticsFor(uri, 1)), ['training/context-exceeded']);

    await h.change(uri, 2, [{ text: TRAIN.replace('sequence_len', '# rope-lens: disable=training/context-exceeded\nsequence_len') }]);
    assert.deepEqual(codes(await h.diagnosticsFor(uri, 2)), []);

    await h.change(uri, 3, [{ text: TRAIN }]);
    assert.deepEqual(codes(await h.diagnosticsFor(uri, 3)), ['training/context-exceeded']);

    // The project file appears on disk; the client's watcher reports it; the open document is checked again.
    const seen = h.published.length;
    writeFileSync(join(dir, '.rope-lens.yaml'), 'disable: [training/context-exceeded]\n');
    await h.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: pathToFileURL(join(dir, '.rope-lens.yaml')).toString(), type: FileChangeType.Created }],
    });
    const after = await h.until(() => h.published.slice(seen).find((p) => p.uri === uri), 'diagnostics after the project file changed');
    assert.deepEqual(codes(after.diagnostics), []);
  });
});
