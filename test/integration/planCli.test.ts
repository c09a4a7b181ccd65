import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildOnce } from '../support/build';

const ROOT = join(__dirname, '..', '..');
const CORPUS = join(ROOT, 'test', 'fixtures', 'corpus', 'models');

describe('rope-lens plan (spawned CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), 'plan', ...args], { encoding: 'utf8', cwd: ROOT, env });
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-plan-'));
    // An empty Hugging Face cache: hub ids resolve through the built-in catalog only. Robust bases are
    // proven up to 131,072 tokens here (a 2²⁰ proof takes a minute; robustLongCli.test.ts runs one past it).
    env = { ...process.env, HF_HUB_CACHE: join(tmp, 'hub'), ROPE_LENS_PROOF_MAX_LENGTH: '131072' };
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("--json has the documented shape; Gradient's staged bases match the seed", () => {
    const r = cli('--model', join(CORPUS, 'meta-llama-3-8b.json'), '--target', '1048576', '--stages', '65536,262144', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    for (const k of ['model', 'trainedContext', 'target', 'stages']) assert.ok(k in j, k);
    assert.equal(j.trainedContext, 8192);
    assert.equal(j.target, 1048576);
    assert.deepEqual(
      j.stages.map((s: { length: number }) => s.length),
      [65536, 262144, 1048576],
    );
    for (const st of j.stages) {
      assert.ok(Array.isArray(st.options) && st.options.length >= 8);
      for (const o of st.options) {
        for (const k of ['method', 'lmax', 'meetsBound', 'criticalDim']) assert.ok(k in o, `${o.method}.${k}`);
        assert.equal('wavelengths' in o, false);
      }
      assert.equal(typeof st.recommended, 'string');
      const rec = st.options.find((o: { method: string }) => o.method === st.recommended);
      assert.equal(rec.meetsBound, true);
      for (const t of ['axolotl', 'llama-factory', 'torchtune']) assert.equal(typeof parseYaml(st.snippets[t]), 'object', t);
    }
    const grad = (k: number) => j.stages[k].options.find((o: { method: string }) => o.method === 'gradient').ropeTheta;
    assert.ok(Math.abs(grad(1) / 283461213.5 - 1) < 1e-9);
    assert.ok(Math.abs(grad(2) / 3580165449 - 1) < 1e-9);
  });

  it('a hub id from the catalog, one trainer, k suffixes; text output names the recommendation and the snippet', () => {
    const r = cli('--model', 'meta-llama/Llama-2-7b-hf', '--target', '32k', '--trainer', 'axolotl');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /trained context: +4,096/);
    assert.match(r.stdout, /recommended: [a-z0-9-]+: /);
    assert.match(r.stdout, /--- axolotl ---\n +sequence_len: 32768/);
    assert.doesNotMatch(r.stdout, /--- torchtune ---/);
  });

  it('a training YAML: plans from its base model, the target defaults to its sequence length', () => {
    const y = join(tmp, 'train.yaml');
    writeFileSync(y, 'base_model: meta-llama/Llama-2-7b-hf\nsequence_len: 16384\nmicro_batch_size: 1\n');
    const r = cli('--model', y, '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.model, 'meta-llama/Llama-2-7b-hf');
    assert.equal(j.target, 16384);
    assert.equal(j.trainedContext, 4096);
  });

  it('a derivative (gradient 262k real values, Llama-3-8B architecture) is planned from its own 262,144 and named by its path', () => {
    const dir = join(ROOT, 'test', 'fixtures', 'models', 'derivatives', 'llama-3-8b-instruct-262k');
    const r = cli('--model', dir, '--target', '524288', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.model, dir);
    assert.equal(j.trainedContext, 262144);
    assert.equal(j.stages.length, 1);
    assert.equal(j.stages[0].factor, 2, 'not 64 = 524,288 / 8,192 from Meta-Llama-3-8B');
    const text = cli('--model', dir, '--target', '524288');
    assert.match(text.stdout, /derivative on its own values, not from meta-llama\/Meta-Llama-3-8B's 8192/);
  });

  it('every restored catalog id plans (google/gemma-3-4b-it, google/gemma-3-12b-it)', () => {
    for (const id of ['google/gemma-3-4b-it', 'google/gemma-3-12b-it']) {
      const r = cli('--model', id, '--target', '262144', '--json');
      assert.equal(r.status, 0, `${id}: ${r.stderr}`);
      assert.equal(JSON.parse(r.stdout).model, id);
    }
  });

  it('bad input: one line on stderr and exit 2', () => {
    for (const args of [
      ['--target', '1000'],
      ['--model', 'meta-llama/Llama-2-7b-hf'],
      ['--model', 'meta-llama/Llama-2-7b-hf', '--target', 'lots'],
      ['--model', 'meta-llama/Llama-2-7b-hf', '--target', '2048'],
      ['--model', 'meta-llama/Llama-2-7b-hf', '--target', '65536', '--stages', '32768,16384'],
      ['--model', 'meta-llama/Llama-2-7b-hf', '--target', '65536', '--trainer', 'deepspeed'],
      ['--model', 'no-such-org/no-such-model', '--target', '65536'],
      ['--model', join(ROOT, 'package.json'), '--target', '65536'],
    ]) {
      const r = cli(...args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^rope-lens plan: \S/);
      assert.doesNotMatch(r.stderr, /internal error|at .*\.js:\d+/, args.join(' '));
    }
  });
});
