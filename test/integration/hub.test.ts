/**
 * The Hub as a model source, end to end through the built CLI, with the network replaced by a local
 * server (test/support/fakeHub.ts) reached through HF_ENDPOINT as a mirror is, serving real configs
 * from test/fixtures/corpus. Each test gets an empty HOME and HF cache.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeHub, fakeCommitOf, startFakeHub } from '../support/fakeHub';
import { ggufHeader, qwen25InstructMetadata } from '../gguf/writeGguf';
import { readLaunchFile } from '../../shared/launch/index';
import { loadShellParser } from '../../shared/node/shellParser';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { recordingResolver } from '../../shared/config/resolve';
import { createNodeResolver } from '../../shared/node/resolveNode';
import { fetchModels, hubSettings } from '../../shared/node/hubFetch';

const root = join(__dirname, '../..');
const corpus = (name: string) => readFileSync(join(root, 'test/fixtures/corpus/models', name), 'utf8');
const LLAMA3 = corpus('meta-llama-3-8b.json');
const LLAMA31 = corpus('meta-llama-3.1-8b-instruct.json');
const QWEN3 = corpus('qwen3-8b.json');

interface Run {
  status: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The built CLI, asynchronously (the fake Hub answers from this process's event loop). */
function cli(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  const t0 = Date.now();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(HF_|HUGGING|ROPE_LENS_HUB|TRANSFORMERS_OFFLINE|XDG_CACHE)/.test(k)));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'bin/rope-lens.js'), ...args],
      { cwd, env: { ...clean, ...env }, encoding: 'utf8', timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr, ms: Date.now() - t0 });
      },
    );
  });
}

describe('the Hub as a model source (local server via HF_ENDPOINT)', function () {
  this.timeout(120_000);
  let hub: FakeHub;
  let work: string;
  let env: Record<string, string>;
  let cache: string;

  before(async function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
    hub = await startFakeHub({
      // Not in the built-in catalog: only the Hub knows them.
      'acme/house-ft': {
        revisions: { main: { 'config.json': LLAMA3, 'generation_config.json': '{"bos_token_id": 128000}' }, v2: { 'config.json': LLAMA31 } },
      },
      'acme/gated-llama': { revisions: { main: { 'config.json': LLAMA3 } }, access: 'gated', grantedToken: 'hf_granted' },
      'acme/slow-once': { revisions: { main: { 'config.json': QWEN3 } }, slowMs: 3000, slowTimes: 1 },
      'acme/never-answers': { revisions: { main: { 'config.json': QWEN3 } }, slowMs: 30_000 },
      'acme/moved': { revisions: { main: { 'config.json': QWEN3 } }, redirect: true },
      'acme/broken-download': { revisions: { main: { 'config.json': QWEN3 } }, brokenDownload: true },
      // A GGUF repository: no config.json, two quantizations of Qwen2.5-7B-Instruct's header.
      'acme/house-model-GGUF': {
        revisions: {
          main: {
            'README.md': '# GGUF',
            'qwen2.5-7b-instruct-q8_0.gguf': ggufHeader(qwen25InstructMetadata()),
            'qwen2.5-7b-instruct-q4_k_m.gguf': ggufHeader(qwen25InstructMetadata()),
          },
        },
      },
    });
  });
  after(async () => {
    await hub?.close();
  });

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'rope-lens-hub-'));
    cache = join(work, 'hf-cache');
    // An empty HOME: no token file, no user cache; the timeout is short so slow answers are tested quickly.
    env = { HOME: work, HF_ENDPOINT: hub.url, HF_HUB_CACHE: cache, ROPE_LENS_HUB_TIMEOUT_MS: '800' };
    writeFileSync(join(work, 'train.yaml'), 'base_model: acme/house-ft\nsequence_len: 32768\n');
    // A second file naming the same model: it must be re-checked too once the model is fetched.
    writeFileSync(join(work, 'train-b.yaml'), 'base_model: acme/house-ft\nsequence_len: 16384\n');
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('makes no request without --hub or ROPE_LENS_HUB=1, and says how to enable it', async () => {
    const before = hub.requests.length;
    // --verbose: the unresolved base is a hint (a fact, not a mistake in the file), shown in text only then.
    const r = await cli(['check', 'train.yaml', '--verbose'], env, work);
    assert.equal(hub.requests.length, before, 'a request was made without the opt-in');
    assert.match(r.stdout, /hint training\/base-model-unresolved/);
    assert.match(r.stderr, /not found offline .*acme\/house-ft; --hub \(or ROPE_LENS_HUB=1\)/);
    const f = await cli(['freqs', 'acme/house-ft'], env, work);
    assert.equal(f.status, 2);
    assert.match(f.stderr, /add --hub to fetch it from the Hub/);
    assert.equal(hub.requests.length, before);
  });

  it('check --hub: a base model the catalog does not know lands in the HF cache layout; a second run offline answers from it', async () => {
    const r = await cli(['check', 'train.yaml', '--hub'], env, work);
    const commit = fakeCommitOf('acme/house-ft', 'main');
    assert.match(r.stderr, new RegExp(`acme/house-ft: Hub revision main \\(commit ${commit.slice(0, 12)}\\)`), r.stderr);
    assert.doesNotMatch(r.stdout, /base-model-unresolved/);
    // The base model's 8,192 trained tokens are now known: 32,768 is beyond them.
    assert.match(r.stdout, /train\.yaml:2:\d+ warning training\/context-exceeded .*8,192/, r.stdout);
    const both = await cli(['check', 'train.yaml', 'train-b.yaml', '--hub'], { ...env, HF_HUB_CACHE: join(work, 'second-cache') }, work);
    assert.match(both.stdout, /^train-b\.yaml:2:\d+ warning training\/context-exceeded /m, both.stdout);
    assert.doesNotMatch(both.stdout, /base-model-unresolved/);
    // huggingface_hub's layout: refs/main → commit, snapshots/<commit>/config.json → ../../blobs/<oid>.
    const repo = join(cache, 'models--acme--house-ft');
    assert.equal(readFileSync(join(repo, 'refs', 'main'), 'utf8').trim(), commit);
    const snap = join(repo, 'snapshots', commit, 'config.json');
    assert.ok(lstatSync(snap).isSymbolicLink(), 'snapshot file is a link to its blob');
    assert.ok(realpathSync(snap).startsWith(realpathSync(join(repo, 'blobs'))));
    assert.equal(readFileSync(snap, 'utf8'), LLAMA3);
    assert.ok(existsSync(join(repo, 'snapshots', commit, 'generation_config.json')));

    const before = hub.requests.length;
    const offline = await cli(['check', 'train.yaml', '--hub'], { ...env, HF_HUB_OFFLINE: '1' }, work);
    assert.equal(hub.requests.length, before, 'HF_HUB_OFFLINE=1 still made a request');
    assert.equal(offline.stdout, r.stdout);
    assert.match(offline.stderr, new RegExp(`acme/house-ft: Hugging Face cache, commit ${commit.slice(0, 12)}`));
    // A catalog model is answered offline even with --hub, and says so.
    writeFileSync(join(work, 'catalog.yaml'), 'base_model: meta-llama/Meta-Llama-3-8B\nsequence_len: 8192\n');
    const catalog = await cli(['check', 'catalog.yaml', '--hub'], env, work);
    assert.match(catalog.stderr, /meta-llama\/Meta-Llama-3-8B: built-in catalog \(meta-llama\/Meta-Llama-3-8B/);
    assert.equal(hub.requests.length, before);
    // Without --hub the offline resolver reads the same cache.
    const plain = await cli(['check', 'train.yaml'], env, work);
    assert.equal(plain.stdout, r.stdout);
    assert.equal(hub.requests.length, before);
  });

  it("org/name@revision: that branch's commit, refs/<branch> written; freqs reads it", async () => {
    const r = await cli(['freqs', 'acme/house-ft@v2', '--hub', '--json'], env, work);
    assert.equal(r.status, 0, r.stderr);
    const commit = fakeCommitOf('acme/house-ft', 'v2');
    assert.equal(readFileSync(join(cache, 'models--acme--house-ft', 'refs', 'v2'), 'utf8').trim(), commit);
    const out = JSON.parse(r.stdout);
    // Llama-3.1's llama3 scaling (v2), not Llama-3's plain RoPE (main).
    assert.equal(out.ropeType, 'llama3');
    assert.match(r.stderr, /acme\/house-ft@v2: Hub revision v2/);
    const main = await cli(['freqs', 'acme/house-ft', '--hub', '--json'], env, work);
    assert.equal(JSON.parse(main.stdout).ropeType, 'default');
  });

  it('ROPE_LENS_HUB=1 enables it for plan, serve and inspect; each says where the model came from', async () => {
    const e = { ...env, ROPE_LENS_HUB: '1' };
    const plan = await cli(['plan', '--model', 'acme/house-ft', '--target', '32k', '--json'], e, work);
    assert.equal(plan.status, 0, plan.stderr);
    assert.equal(JSON.parse(plan.stdout).trainedContext.value ?? JSON.parse(plan.stdout).trainedContext, 8192);
    const serve = await cli(['serve', 'acme/house-ft', '--engine', 'vllm', '--context', '32768'], e, work);
    assert.equal(serve.status, 0, serve.stderr);
    assert.match(serve.stdout, /vllm serve acme\/house-ft /);
    assert.match(serve.stderr, /acme\/house-ft: Hugging Face cache, commit/);
    const inspect = await cli(['inspect', 'acme/house-ft', '--json'], e, work);
    assert.equal(inspect.status, 0, inspect.stderr);
  });

  it('a gated model: 401 without a token names HF_TOKEN; 403 with one says where to accept; the right token works', async () => {
    const none = await cli(['freqs', 'acme/gated-llama', '--hub'], env, work);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /acme\/gated-llama needs authentication \(401\).*set HF_TOKEN/);
    const wrong = await cli(['freqs', 'acme/gated-llama', '--hub'], { ...env, HF_TOKEN: 'hf_someoneelse' }, work);
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, new RegExp(`gated \\(403\\) and the token from HF_TOKEN has no access: accept its conditions at ${hub.url}/acme/gated-llama`));
    assert.doesNotMatch(wrong.stderr, /hf_someoneelse/, 'the token itself is never printed');
    const right = await cli(['freqs', 'acme/gated-llama', '--hub', '--json'], { ...env, HF_TOKEN: 'hf_granted' }, work);
    assert.equal(right.status, 0, right.stderr);
    // The token file of HF_HOME is read as huggingface_hub reads it.
    rmSync(cache, { recursive: true, force: true });
    writeFileSync(join(work, 'token'), 'hf_granted\n');
    const file = await cli(['freqs', 'acme/gated-llama', '--hub', '--json'], { ...env, HF_HOME: work }, work);
    assert.equal(file.status, 0, file.stderr);
  });

  it('404 for an unknown model or revision; HF_HUB_OFFLINE=1 for a model not cached: clear one-line errors', async () => {
    const missing = await cli(['freqs', 'acme/no-such-model', '--hub'], env, work);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /acme\/no-such-model was not found on http:\/\/127\.0\.0\.1:\d+ \(404\)/);
    const rev = await cli(['freqs', 'acme/house-ft@nope', '--hub'], env, work);
    assert.match(rev.stderr, /acme\/house-ft@nope was not found/);
    const before = hub.requests.length;
    const offline = await cli(['freqs', 'acme/house-ft', '--hub'], { ...env, HF_HUB_OFFLINE: '1' }, work);
    assert.equal(offline.status, 2);
    assert.match(offline.stderr, /not in the Hugging Face cache .* HF_HUB_OFFLINE is set/);
    assert.equal(hub.requests.length, before);
  });

  it('a slow answer is retried; a server that never answers fails after the bounded retries, not a hang', async () => {
    const slow = await cli(['freqs', 'acme/slow-once', '--hub', '--json'], env, work);
    assert.equal(slow.status, 0, slow.stderr);
    assert.match(slow.stderr, /no answer within 0\.8 s .*retrying \(1\/3\)/);
    const dead = await cli(['freqs', 'acme/never-answers', '--hub'], env, work);
    assert.equal(dead.status, 2);
    assert.match(dead.stderr, /acme\/never-answers: http:\/\/127\.0\.0\.1:\d+ gave no answer within 0\.8 s after 3 attempts/);
    // 3 attempts × 0.8 s + backoff 0.25 + 0.5 s, plus start-up: well under the 30 s the server would hold the line.
    assert.ok(dead.ms < 15_000, `took ${dead.ms} ms`);
  });

  it('a download that fails after its probe succeeded: retried, then one clear error, not a hang', async () => {
    const r = await cli(['freqs', 'acme/broken-download', '--hub'], { ...env, ROPE_LENS_HUB_TIMEOUT_MS: '300' }, work);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /500 from .*retrying \(2\/3\)/);
    // The library's own error, or our deadline's if its stream never ends: either way one line naming the model.
    assert.match(r.stderr, /rope-lens: hub: acme\/broken-download: (Internal Error|the download from .* did not finish)/);
    assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
  });

  it('follows the redirects the Hub answers downloads with', async () => {
    const r = await cli(['freqs', 'acme/moved', '--hub', '--json'], env, work);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(
      hub.requests.some((q) => q.startsWith('GET /cdn/acme/moved/')),
      'the redirect target was fetched',
    );
    const commit = fakeCommitOf('acme/moved', 'main');
    assert.deepEqual(readdirSync(join(cache, 'models--acme--moved', 'snapshots')), [commit]);
  });

  it('serve a GGUF repository: the header of its Q4_K_M file, read with range requests; llama-server fetches it itself', async () => {
    const r = await cli(['serve', 'acme/house-model-GGUF', '--hub', '--engine', 'llama.cpp', '--context', '131072', '--json'], env, work);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /acme\/house-model-GGUF: no config\.json; read the GGUF header of qwen2\.5-7b-instruct-q4_k_m\.gguf/);
    const plan = JSON.parse(r.stdout);
    // The header's qwen2.context_length is what llama.cpp derives.
    assert.equal(plan.derivedMaxLen, 32768);
    assert.deepEqual(plan.args.slice(0, 5), ['llama-server', '--hf-repo', 'acme/house-model-GGUF', '--hf-file', 'qwen2.5-7b-instruct-q4_k_m.gguf']);
    assert.ok(
      hub.requests.some(
        (q) => q === 'GET /acme/house-model-GGUF/resolve/' + fakeCommitOf('acme/house-model-GGUF', 'main') + '/qwen2.5-7b-instruct-q4_k_m.gguf',
      ),
    );
    // Without --hub nothing is asked.
    const before = hub.requests.length;
    const off = await cli(['serve', 'acme/house-model-GGUF', '--engine', 'llama.cpp'], env, work);
    assert.equal(off.status, 2);
    assert.equal(hub.requests.length, before);
  });

  it("a launch command's model: missed by the analysis, fetched, found on the next analysis (in process)", async () => {
    const shell = await loadShellParser();
    const fileName = join(work, 'serve.sh');
    const text = 'vllm serve acme/house-ft --max-model-len 65536\n';
    const launch = readLaunchFile(text, fileName, { shell })!;
    assert.ok(launch, 'serve.sh reads as a launch file');
    const hubEnv = { ...process.env, ...env };
    const resolver = recordingResolver(createNodeResolver(hubEnv));
    const analyze = () => analyzeLaunchFile(launch, text, { fileName, resolver, oracle: createSyncOracle(), variant: 'v5' });
    const offline = analyze();
    assert.deepEqual(resolver.takeMisses(fileName), ['acme/house-ft']);
    const [fetched] = await fetchModels(['acme/house-ft'], hubSettings(hubEnv));
    assert.ok(fetched.ok, fetched.ok ? '' : fetched.message);
    resolver.reset!();
    const online = analyze();
    assert.deepEqual(resolver.takeMisses(fileName), []);
    // Known now: Llama-3-8B's 8,192 tokens, so a 65,536 max-model-len is judged; offline it could not be.
    const said = (a: typeof online) => a.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n');
    assert.match(said(online), /8,192/);
    assert.doesNotMatch(said(offline), /8,192/);
  });
});
