/**
 * The browser server's Hub (server/web/browserHub.ts) against a local stand-in for the Hub
 * (test/support/fakeHub.ts), through the global `fetch` a browser worker has too: configs land in the
 * in-memory cache and the browser's resolver reads them as the desktop reads its HF cache; failures
 * come back as sentences, never throws. Real configs from test/fixtures/corpus.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeHub, fakeCommitOf, startFakeHub } from '../support/fakeHub';
import { createResolver } from '../../shared/config/resolve';
import type { SyncFiles } from '../../shared/files/syncFiles';
import { HUB_MEMORY_CACHE, MemoryHubCache, browserHub, hubOverlay } from '../../server/web/browserHub';
import type { HubResult } from '../../shared/node/hubFetch';

const corpus = (name: string) => readFileSync(join(__dirname, '../fixtures/corpus/models', name), 'utf8');
const LLAMA3 = corpus('meta-llama-3-8b.json');
const LLAMA31 = corpus('meta-llama-3.1-8b-instruct.json');
const QWEN3 = corpus('qwen3-8b.json');

/** A workspace with no files: whatever resolves came from the Hub or the catalog. */
const emptyWorkspace: SyncFiles = { readText: () => undefined, listDir: () => undefined, hasEntry: () => false };

describe("the browser server's Hub through fetch (local stand-in for the Hub)", function () {
  this.timeout(60_000);
  let hub: FakeHub;
  before(async () => {
    hub = await startFakeHub({
      'acme/llama-edit': { revisions: { main: { 'config.json': LLAMA3, 'generation_config.json': '{"temperature": 0.6}' }, v2: { 'config.json': LLAMA31 } } },
      'acme/qwen-moved': { revisions: { main: { 'config.json': QWEN3 } }, redirect: true },
      'acme/gated': { revisions: { main: { 'config.json': LLAMA3 } }, access: 'gated', grantedToken: 'hf_x' },
      'acme/weights-only': { revisions: { main: { 'model.safetensors': 'x' } } },
      'acme/broken': { revisions: { main: { 'config.json': '{ not json' } } },
      'acme/slow': { revisions: { main: { 'config.json': LLAMA3 } }, slowMs: 5_000 },
    });
  });
  after(() => hub?.close());

  const setup = (timeoutMs = 5_000) => {
    const cache = new MemoryHubCache();
    const backend = browserHub(cache, { endpoint: hub.url, timeoutMs, attempts: 2 });
    const resolver = createResolver({ reader: hubOverlay(emptyWorkspace, cache), hubCache: HUB_MEMORY_CACHE });
    const fetchModels = (refs: string[]) => backend.fetchModels(refs, backend.settings(), () => undefined);
    return { cache, backend, resolver, fetchModels };
  };
  const only = (r: HubResult[]) => {
    assert.equal(r.length, 1);
    return r[0];
  };

  it('fetches a config into memory, where the resolver finds it; a second fetch asks nothing', async () => {
    const { resolver, fetchModels, backend } = setup();
    assert.equal(resolver.resolve(['acme/llama-edit'], '/w/train.yaml'), undefined, 'not in the catalog, not fetched yet');
    const r = only(await fetchModels(['acme/llama-edit', ' acme/llama-edit']));
    assert.ok(r.ok, backend.describe(r));
    assert.equal(r.commit, fakeCommitOf('acme/llama-edit', 'main'));
    assert.equal(r.via, 'hub');
    resolver.reset?.();
    const resolved = resolver.resolve(['acme/llama-edit'], '/w/train.yaml');
    assert.equal(resolved?.rope.base.value, JSON.parse(LLAMA3).rope_theta);
    assert.match(resolved?.from ?? '', /^hf-cache:/);
    assert.ok(hub.requests.includes('GET /acme/llama-edit/resolve/main/generation_config.json'));
    const asked = hub.requests.length;
    const again = only(await fetchModels(['acme/llama-edit']));
    assert.ok(again.ok && again.via === 'cache');
    assert.equal(hub.requests.length, asked);
    assert.match(backend.describe(again), /kept in memory/);
  });

  it('a revision resolves to its own config, and main stays main', async () => {
    const { resolver, fetchModels } = setup();
    const [v2, main] = await fetchModels(['acme/llama-edit@v2', 'acme/llama-edit']);
    assert.ok(v2.ok && main.ok);
    resolver.reset?.();
    assert.equal(resolver.resolve(['acme/llama-edit@v2'], '/w/a.yaml')?.rope.scaling?.type, 'llama3');
    assert.equal(resolver.resolve(['acme/llama-edit'], '/w/a.yaml')?.rope.scaling, undefined);
  });

  it("the in-memory cache is never asked of the editor's files, and the workspace still answers the rest", async () => {
    const cache = new MemoryHubCache();
    const asked: string[] = [];
    const workspace: SyncFiles = {
      readText: (p) => {
        asked.push(p);
        return p === '/w/local/config.json' ? '{}' : undefined;
      },
      listDir: (p) => {
        asked.push(p);
        return undefined;
      },
      hasEntry: () => false,
    };
    const backend = browserHub(cache, { endpoint: hub.url });
    await backend.fetchModels(['acme/llama-edit'], backend.settings(), () => undefined);
    const reader = hubOverlay(workspace, cache);
    assert.deepEqual(reader.listDir(`${HUB_MEMORY_CACHE}/models--acme--llama-edit`)?.sort(), ['refs', 'snapshots']);
    assert.equal(reader.readText('/w/local/config.json'), '{}');
    createResolver({ reader, hubCache: HUB_MEMORY_CACHE }).resolve(['acme/llama-edit'], '/w/train.yaml');
    assert.deepEqual(
      asked.filter((p) => p.startsWith(HUB_MEMORY_CACHE)),
      [],
    );
  });

  it('follows the redirects the Hub answers with', async () => {
    const { fetchModels } = setup();
    const r = only(await fetchModels(['acme/qwen-moved']));
    assert.ok(r.ok, r.ok ? '' : r.message);
  });

  it('failures are sentences: gated, missing repository, no config.json, not JSON, too slow', async () => {
    const { fetchModels, resolver } = setup(500);
    const byRef = new Map((await fetchModels(['acme/gated', 'acme/nope', 'acme/weights-only', 'acme/broken', 'acme/slow'])).map((r) => [r.ref, r]));
    const kind = (ref: string) => {
      const r = byRef.get(ref)!;
      assert.ok(!r.ok, `${ref} should fail`);
      return `${r.kind}: ${r.message}`;
    };
    assert.match(kind('acme/gated'), /^unauthorized: .*no token/);
    assert.match(kind('acme/nope'), /^not-found: .*404/);
    assert.match(kind('acme/weights-only'), /^no-config: /);
    assert.match(kind('acme/broken'), /^error: .*not JSON/);
    assert.match(kind('acme/slow'), /^timeout: .*after 2 attempts/);
    resolver.reset?.();
    assert.equal(resolver.resolve(['acme/broken'], '/w/a.yaml'), undefined);
  });
});
