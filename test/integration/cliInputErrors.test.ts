/**
 * CLI input errors are errors (issue 28, point 4), through the real binary: a consumer that is
 * misspelt or malformed exits 2 naming the accepted forms; `consumers` and `serve` on a training
 * YAML read its base model (or exit 2 saying why); `consumers` takes hub ids as `freqs` does.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce } from '../support/build';

const ROOT = join(__dirname, '..', '..');
const CORPUS = join(ROOT, 'test', 'fixtures', 'corpus', 'models');
const TRAINING = join(ROOT, 'test', 'fixtures', 'training');

describe('CLI input errors (spawned CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  // An empty Hugging Face cache and no Hub: only the built-in catalog and local folders resolve.
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), ...args], { encoding: 'utf8', cwd: ROOT, env });
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-input-'));
    mkdirSync(join(tmp, 'hf'));
    env = { ...process.env, HF_HUB_CACHE: join(tmp, 'hf'), HF_HOME: join(tmp, 'hf-home'), ROPE_LENS_HUB: '' };
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  const llama = join(CORPUS, 'meta-llama-3.1-8b-instruct.json');

  for (const [spec, why] of [
    ['transfomers==4.41.0', /unknown consumer 'transfomers' \(did you mean 'transformers'\?\)/],
    ['transformers=4.41.0', /'transformers=4\.41\.0' is not a version specifier \(did you mean 'transformers==4\.41\.0'\?\)/],
    ['foo', /unknown consumer 'foo'/],
  ] as const) {
    it(`check --consumer ${spec}: exit 2, one line naming the accepted forms, nothing checked`, () => {
      const r = cli('check', llama, '--consumer', spec);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, why);
      assert.match(r.stderr, /accepted: PACKAGE or PACKAGE==VERSION .*transformers, vllm, sglang, llama\.cpp .*ollama/);
    });
  }

  it('check --consumer: the accepted forms still work (a pinned release that refuses the file fails the run)', () => {
    assert.equal(cli('check', llama, '--consumer', 'transformers==4.41.0').status, 1);
    assert.equal(cli('check', llama, '--consumer', 'vllm>=0.6,<0.7', '--consumer', 'transformers').status, 0);
  });

  /** A local base model (Llama 3.1: transformers ≤ 4.42 refuses its llama3 rope_scaling) and an axolotl YAML naming it. */
  function localRun(name: string): string {
    const dir = join(tmp, name);
    mkdirSync(join(dir, 'base'), { recursive: true });
    writeFileSync(join(dir, 'base', 'config.json'), readFileSync(llama));
    writeFileSync(join(dir, 'train.yaml'), 'base_model: ./base\nsequence_len: 8192\nadapter: lora\n');
    return dir;
  }

  it('consumers on a training YAML tables its base model, found beside the YAML', () => {
    const dir = localRun('consumers-run');
    const r = cli('consumers', join(dir, 'train.yaml'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /train\.yaml is a training config \(axolotl\); consumers reads its base model/);
    assert.ok(r.stdout.startsWith(join(dir, 'base', 'config.json')), r.stdout.slice(0, 200));
    assert.match(r.stdout, /^transformers ≤ 4\.42\s+REFUSES/m);
    assert.doesNotMatch(r.stdout, /every consumer reads the same/);
  });

  it('consumers on a training YAML whose base model is in the catalog; a YAML that defines its own model exits 2 saying why', () => {
    const r = cli('consumers', join(TRAINING, 'axolotl-codellama-7b-qlora.yaml'), '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.path, 'codellama/CodeLlama-7b-hf/config.json');
    assert.equal(j.consumers.find((c: { consumer: string }) => c.consumer === 'transformers-5').base, 1000000);
    const neox = cli('consumers', join(TRAINING, 'gptneox-long-seq.yml'));
    assert.equal(neox.status, 2);
    assert.match(neox.stderr, /defines its model itself \(pretraining\): there is no base model config for consumers/);
  });

  it('consumers accepts a hub id as freqs, serve and plan do; an unknown one offline exits 2 with the way to fetch it', () => {
    const r = cli('consumers', 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /Qwen\/Qwen2\.5-7B-Instruct: built-in catalog/);
    assert.match(r.stdout, /^transformers 5\.x\s+yes\s+1,000,000/m);
    const u = cli('consumers', 'no-such-org/no-such-model');
    assert.equal(u.status, 2);
    assert.match(u.stderr, /neither a file nor a model found offline .*--hub/);
  });

  it("serve on a training YAML serves its base model, not the YAML's folder", () => {
    const r = cli('serve', join(TRAINING, 'axolotl-codellama-7b-qlora.yaml'), '--engine', 'vllm');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^vllm serve codellama\/CodeLlama-7b-hf /m);
    assert.ok(!r.stdout.includes(TRAINING) && !/serve test\/fixtures/.test(r.stdout), r.stdout);
    const dir = localRun('serve-run');
    const local = cli('serve', join(dir, 'train.yaml'), '--engine', 'vllm', '--json');
    assert.equal(local.status, 0, local.stderr);
    assert.deepEqual(JSON.parse(local.stdout).args.slice(0, 3), ['vllm', 'serve', join(dir, 'base')]);
    const neox = cli('serve', join(TRAINING, 'gptneox-long-seq.yml'));
    assert.equal(neox.status, 2);
    assert.match(neox.stderr, /no base model config for serve/);
  });
});
