import { said } from '../unit/helpers/findingText';
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ggufHeader, writeGguf, qwen25InstructMetadata, u32, str, f32 } from '../gguf/writeGguf';
import { buildOnce } from '../support/build';

const ROOT = join(__dirname, '..', '..');
const MODELS = join(ROOT, 'test', 'fixtures', 'models');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), ...args], { encoding: 'utf8', cwd: ROOT });
}

describe('rope-lens serve and check on GGUF (spawned CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-serve-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('--json prints the documented object for one engine', () => {
    const r = cli('serve', join(MODELS, 'qwen2.5-7b-instruct-yarn.json'), '--engine', 'llama.cpp', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(j).sort(), ['args', 'context', 'derivedMaxLen', 'engine', 'env', 'notes', 'overrides']);
    assert.equal(j.engine, 'llama.cpp');
    assert.equal(j.derivedMaxLen, 32768);
    assert.equal(j.context, 131072);
    const i = j.args.indexOf('--rope-scaling');
    assert.deepEqual(j.args.slice(i, i + 6), ['--rope-scaling', 'yarn', '--rope-scale', '4', '--yarn-orig-ctx', '32768']);
  });

  it('--context and a folder: vLLM gets the override and the env only where it would refuse', () => {
    const dir = join(tmp, 'Qwen2.5-7B-Instruct');
    mkdirSync(dir);
    const c = JSON.parse(readFileSync(join(MODELS, 'qwen2.5-7b-instruct-yarn.json'), 'utf8'));
    delete c.rope_scaling;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(c));
    const j = JSON.parse(cli('serve', dir, '--engine', 'vllm', '--context', '128k', '--json').stdout);
    assert.equal(j.context, 131072);
    assert.equal(j.derivedMaxLen, 32768);
    assert.deepEqual(j.overrides, { rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
    assert.deepEqual(j.env, {});
    const far = JSON.parse(cli('serve', dir, '--engine', 'vllm', '--context', '262144', '--json').stdout);
    assert.deepEqual(far.overrides.rope_scaling.factor, 8);
    assert.deepEqual(far.env, {});
  });

  it('text output is a shell script: comments, then the command line', () => {
    const r = cli('serve', join(MODELS, 'llama-3.1-8b.json'), '--engine', 'vllm', '--context', '262144');
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.slice(0, -1).every((l) => l.startsWith('# ')));
    assert.match(lines[lines.length - 1], /^VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve \S+ --max-model-len 262144$/);
    const all = cli('serve', join(MODELS, 'llama-3.1-8b.json'));
    for (const e of ['vllm', 'sglang', 'llama.cpp', 'tgi', 'ollama']) assert.match(all.stdout, new RegExp(`^# ${e.replace('.', '\\.')}: derives`, 'm'));
  });

  it('usage errors exit 2 with one line', () => {
    for (const args of [
      ['serve'],
      ['serve', join(MODELS, 'llama-3.1-8b.json'), '--engine', 'trt'],
      ['serve', join(MODELS, 'llama-3.1-8b.json'), '--context', '-5'],
      ['serve', join(tmp, 'missing.json')],
    ]) {
      const r = cli(...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^rope-lens serve: /);
    }
  });

  it('serve reads a GGUF header: llama.cpp derives its context_length, -m is the file', () => {
    const p = join(tmp, 'qwen2.5-7b-instruct-q4_k_m.gguf');
    writeGguf(p, ggufHeader(qwen25InstructMetadata()));
    const j = JSON.parse(cli('serve', p, '--engine', 'llama.cpp', '--context', '131072', '--json').stdout);
    assert.equal(j.derivedMaxLen, 32768);
    assert.deepEqual(j.args.slice(0, 3), ['llama-server', '-m', p]);
    assert.ok(j.args.includes('qwen2.context_length=int:131072'));
  });

  it('check model.gguf --json: kind gguf, the rope shape of a config, findings by key; exit codes as for configs', () => {
    const p = join(tmp, 'raised.gguf');
    writeGguf(p, ggufHeader({ ...qwen25InstructMetadata(), 'qwen2.context_length': u32(131072) }), 3 * 1024 ** 3);
    const r = cli('check', p, '--json');
    assert.equal(r.status, 0, r.stderr);
    const f = JSON.parse(r.stdout).files[0];
    assert.equal(f.kind, 'gguf');
    assert.deepEqual(Object.keys(f.rope).sort(), [
      'base',
      'baseKey',
      'contextKey',
      'contextLength',
      'groups',
      'headDim',
      'identity',
      'modelType',
      'originalContextLength',
      'partialRotaryFactor',
      'rotaryDim',
      'scaling',
      'shipped',
      'trainedContext',
    ]);
    assert.equal(f.rope.base, 1000000);
    assert.equal(f.rope.contextLength, 131072);
    const w = f.diagnostics.find((d: { code: string }) => d.code === 'gguf/context-beyond-trained');
    assert.equal(w.key, 'qwen2.context_length');
    assert.match(said(w), /32,768 Qwen\/Qwen2\.5-7B-Instruct was trained at/);
    // One finding for one fact: the config rule's wording is replaced, not repeated.
    assert.ok(!f.diagnostics.some((d: { code: string }) => d.code === 'rope/context-extended'), JSON.stringify(f.diagnostics));
    const human = cli('check', p);
    assert.match(human.stdout, /raised\.gguf: warning gguf\/context-beyond-trained .*\[qwen2\.context_length\]/);

    const yarn = join(tmp, 'yarn.gguf');
    writeGguf(
      yarn,
      ggufHeader({
        ...qwen25InstructMetadata(),
        'qwen2.rope.scaling.type': str('yarn'),
        'qwen2.rope.scaling.factor': f32(4),
        'qwen2.rope.scaling.original_context_length': u32(32768),
      }),
    );
    const y = JSON.parse(cli('check', yarn, '--json').stdout).files[0];
    assert.deepEqual(y.rope.scaling, { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 });

    const bad = join(tmp, 'broken.gguf');
    writeFileSync(bad, 'not a gguf');
    const b = cli('check', bad);
    assert.equal(b.status, 2);
    assert.match(b.stderr, /broken\.gguf: not a readable GGUF file/);
  });
});

describe("rope-lens serve names the user's model and judges by its reach (spawned CLI)", function () {
  this.timeout(120000);
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  const serve = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), 'serve', ...args], { encoding: 'utf8', cwd: ROOT, env });
  const DERIVATIVE = join(MODELS, 'derivatives', 'llama-3-8b-instruct-262k');
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-serve-id-'));
    // An empty Hugging Face cache: hub ids resolve through the built-in catalog only.
    env = { ...process.env, HF_HUB_CACHE: join(tmp, 'hub') };
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('a local folder is launched by its path, never by the hub id its fingerprint matches (issue 17)', () => {
    const dir = join(tmp, 'my-qwen2.5-folder');
    mkdirSync(dir);
    const c = JSON.parse(readFileSync(join(MODELS, 'qwen2.5-7b-instruct-yarn.json'), 'utf8'));
    delete c._name_or_path;
    delete c.rope_scaling;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(c, null, 2));
    const r = serve(dir, '--engine', 'vllm');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^vllm serve ${dir.replace(/[.\\/]/g, (m) => `\\${m}`)} --max-model-len 32768$`, 'm'));
    assert.doesNotMatch(r.stdout, /Qwen\//);
    const all = serve(dir);
    assert.doesNotMatch(all.stdout, /Qwen\//, 'no engine names a guessed hub id');
  });

  it('catalog ids are served as plan accepts them (Qwen/Qwen2.5-7B-Instruct, google/gemma-3-4b-it)', () => {
    const q = serve('Qwen/Qwen2.5-7B-Instruct', '--engine', 'vllm');
    assert.equal(q.status, 0, q.stderr);
    assert.match(q.stdout, /^vllm serve Qwen\/Qwen2\.5-7B-Instruct --max-model-len 32768$/m);
    const g = serve('google/gemma-3-4b-it', '--engine', 'vllm', '--json');
    assert.equal(g.status, 0, g.stderr);
    const j = JSON.parse(g.stdout);
    assert.equal(j.args[2], 'google/gemma-3-4b-it');
    assert.equal(j.derivedMaxLen, 131072);
    assert.equal(j.context, 131072);
    const missing = serve('no-such-org/no-such-model');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /model found offline/);
  });

  it('a fine-tune that raised rope_theta to 283,461,213 at 262,144 (real values): no YaRN stacked at its own context', () => {
    const r = serve(DERIVATIVE, '--context', '262144', '--json');
    assert.equal(r.status, 0, r.stderr);
    for (const p of JSON.parse(r.stdout)) {
      assert.equal(p.overrides, null, p.engine);
      assert.ok(!p.args.some((a: string) => /yarn|dynamic|meta-llama/i.test(a)), `${p.engine}: ${p.args.join(' ')}`);
    }
    const vllm = serve(DERIVATIVE, '--engine', 'vllm');
    assert.match(vllm.stdout, /^vllm serve \S*llama-3-8b-instruct-262k --max-model-len 262144$/m);
  });

  it("LLaMA-2-7B-32K (linear ×8 already in its 32,768): served at its reach, vLLM's 262,144 quoted as what it accepts", () => {
    const file = join(ROOT, 'test', 'fixtures', 'corpus', 'models', 'llama-2-7b-32k-linear.json');
    const j = JSON.parse(serve(file, '--engine', 'vllm', '--json').stdout);
    assert.equal(j.derivedMaxLen, 262144);
    assert.equal(j.context, 32768);
    const text = serve(file, '--engine', 'vllm', '--context', '65536');
    assert.match(text.stdout, /^# vllm: derives 262,144 without overrides \(what it accepts; the model reaches 32,768\); serves 65,536$/m);
    assert.match(text.stdout, /65,536 is beyond the 32,768 tokens the model reaches/);
  });
});

describe('rope-lens serve on an edit of a shipped model agrees with check (spawned CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  let file: string;
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-serve-edit-'));
    // Llama-3-8B's config with rope_theta 10,000 and max_position_embeddings 131,072: check takes it as an edit.
    const c = JSON.parse(readFileSync(join(ROOT, 'examples', 'llama-3-8b.config.json'), 'utf8'));
    c.rope_theta = 10000;
    c.max_position_embeddings = 131072;
    mkdirSync(join(tmp, 'Meta-Llama-3-8B'));
    file = join(tmp, 'Meta-Llama-3-8B', 'config.json');
    writeFileSync(file, JSON.stringify(c, null, 2));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("vLLM and SGLang overrides put the shipped 500,000 back beside the scaling check prefers; llama.cpp's flags too", () => {
    const checked = JSON.parse(cli('check', '--format', 'json', file).stdout).files[0].diagnostics;
    const preferred = checked.find((d: { code: string }) => d.code === 'rope/context-extended').fixes.find((f: { preferred?: boolean }) => f.preferred);
    assert.match(preferred.title, /^Add llama3 scaling .*rope_theta back to 500000/);
    for (const engine of ['vllm', 'sglang']) {
      const r = cli('serve', file, '--engine', engine, '--json');
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      assert.equal(j.overrides.rope_theta, 500000, `${engine}: ${JSON.stringify(j.overrides)}`);
      assert.equal(j.overrides.rope_scaling.rope_type, 'llama3');
      assert.equal(j.overrides.rope_scaling.factor, 16);
      assert.match(j.notes.join(' '), /rope_theta 10,000 is an edit of the shipped 500,000: the rewrite is judged from 500,000, which the command puts back/);
      // Served untrained: judged by its reach, with the bound as information (docs/judgement.md).
      assert.match(j.notes.join(' '), /covers 131,072 and is the model family's own scaling \(its effective frequencies also meet the bound at 131,072\)/);
      assert.deepEqual(j.rewrite.verdict, preferred.verdict, 'serve carries the verdict check gives');
    }
    const l = JSON.parse(cli('serve', file, '--engine', 'llama.cpp', '--json').stdout);
    const i = l.args.indexOf('--rope-freq-base');
    assert.deepEqual(l.args.slice(i, i + 2), ['--rope-freq-base', '500000']);
  });
});
