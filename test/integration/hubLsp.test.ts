/**
 * The language server and the Hub: a training YAML whose base model is only on the (local stand-in)
 * Hub. The server asks the client first (`ropeLens/hub/permission`), makes no request when refused
 * or when `ropeLens.hub.allowNetwork` is "never", and when allowed fetches into the HF cache and
 * re-validates the document (the base-model finding gives way to the real check).
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILT, LspHarness } from './lspHarness';
import { FakeHub, startFakeHub } from '../support/fakeHub';
import { HUB_FETCHED_METHOD, HUB_PERMISSION_METHOD, HubFetchedParams, HubPermissionParams } from '../../shared/protocol/messages';

const root = join(__dirname, '../..');
const YAML = 'base_model: acme/house-ft\nsequence_len: 32768\n';

describe('language server: base models from the Hub (local server via HF_ENDPOINT)', function () {
  this.timeout(60_000);
  let hub: FakeHub;
  let tmp: string;
  let h: LspHarness | undefined;

  before(async function () {
    if (!BUILT) this.skip();
    hub = await startFakeHub({
      'acme/house-ft': { revisions: { main: { 'config.json': readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8') } } },
    });
  });
  after(async () => {
    await hub?.close();
  });
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-hub-lsp-'));
  });
  afterEach(async () => {
    await h?.stop();
    h = undefined;
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A server with an empty HF cache pointed at the stand-in; `answer` is the client's reply to the permission request (none: not declared). */
  async function start(allowNetwork: string, answer?: boolean, yaml = YAML) {
    const env = { ...process.env, HOME: tmp, HF_HUB_CACHE: join(tmp, 'hub'), HF_ENDPOINT: hub.url, HF_TOKEN: '', HF_HUB_OFFLINE: '' };
    h = await LspHarness.start({
      env,
      settings: { hub: { allowNetwork } },
      ...(answer !== undefined ? { initializationOptions: { hubPermission: true } } : {}),
    });
    const asked: HubPermissionParams[] = [];
    const fetched: HubFetchedParams[] = [];
    const shown: string[] = [];
    h.conn.onNotification('window/showMessage', (p: { message: string }) => {
      shown.push(p.message);
    });
    h.conn.onRequest(HUB_PERMISSION_METHOD, (p: HubPermissionParams) => {
      asked.push(p);
      return { allow: answer === true };
    });
    h.conn.onNotification(HUB_FETCHED_METHOD, (p: HubFetchedParams) => {
      fetched.push(p);
    });
    const uri = pathToFileURL(join(tmp, 'train.yaml')).toString();
    await h.open(uri, yaml, 'yaml');
    const first = await h.diagnosticsFor(uri, 1);
    return { h, uri, asked, fetched, first, shown };
  }

  const codes = (ds: { code?: string | number }[]) => ds.map((d) => d.code);

  it('ask + the user allows: one permission request, the fetch lands in the HF cache, the document is re-validated', async () => {
    const before = hub.requests.length;
    const { h, uri, asked, fetched, first } = await start('ask', true);
    assert.ok(codes(first).includes('training/base-model-unresolved'), JSON.stringify(codes(first)));
    await h.until(() => fetched.length > 0, 'the fetched notification', 20_000);
    assert.deepEqual(
      asked.map((a) => a.refs),
      [['acme/house-ft']],
    );
    assert.equal(asked[0].endpoint, hub.url);
    assert.ok(fetched[0].results[0].ok, fetched[0].results[0].message);
    assert.ok(hub.requests.length > before);
    assert.ok(existsSync(join(tmp, 'hub', 'models--acme--house-ft', 'refs', 'main')));
    // Re-validated: the base model is known now, and 32,768 is beyond its 8,192 trained tokens.
    const after = await h.until(
      () => {
        const last = [...h.published].reverse().find((p) => p.uri === uri);
        return last && codes(last.diagnostics).includes('training/context-exceeded') ? last.diagnostics : undefined;
      },
      'diagnostics after the fetch',
      20_000,
    );
    assert.ok(!codes(after).includes('training/base-model-unresolved'));
  });

  it('ask + the user refuses: no request reaches the Hub', async () => {
    const before = hub.requests.length;
    const { h, asked } = await start('ask', false);
    await h.until(() => asked.length > 0, 'the permission request');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(hub.requests.length, before);
  });

  it('"never": the client is not even asked, and nothing is fetched', async () => {
    const before = hub.requests.length;
    const { asked } = await start('never', true);
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(asked.length, 0);
    assert.equal(hub.requests.length, before);
  });

  it('a client that cannot ask (another LSP editor): "ask" stays offline, "always" fetches', async () => {
    const before = hub.requests.length;
    const offline = await start('ask');
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(hub.requests.length, before);
    assert.equal(offline.asked.length, 0);
    await h!.stop();
    h = undefined;
    const online = await start('always');
    await online.h.until(() => online.fetched.length > 0, 'the fetched notification', 20_000);
    assert.ok(online.fetched[0].results[0].ok);
    assert.equal(online.asked.length, 0);
  });

  it('a model the Hub does not have: a warning message says so, the server keeps serving the document', async () => {
    const { h, uri, fetched, shown } = await start('always', undefined, 'base_model: acme/not-there\nsequence_len: 32768\n');
    await h.until(() => fetched.length > 0 && shown.length > 0, 'the failure message', 20_000);
    assert.equal(fetched[0].results[0].ok, false);
    assert.match(shown[0], /RoPE Lens: acme\/not-there was not found on http:\/\/127\.0\.0\.1:\d+ \(404\)/);
    // Still alive and answering: an edit is validated as before.
    await h.change(uri, 2, [{ text: 'base_model: acme/not-there\nsequence_len: 4096\n' }]);
    const after = await h.diagnosticsFor(uri, 2);
    assert.ok(codes(after).includes('training/base-model-unresolved'));
  });
});
