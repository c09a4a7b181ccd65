import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const fixtures = join(root, 'test/fixtures');
const cli = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', ...args], { cwd: root, encoding: 'utf8' });

describe('rope-lens check (built CLI)', function () {
  this.timeout(120000);
  // npm test builds once before the suites; without a build the CLI cannot run.
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });

  it('exit 0 on a clean config, with no output lines', () => {
    const r = cli(join(fixtures, 'configs/meta-llama-3-8b.json'));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /1 file checked: 0 errors/);
  });

  it('exit 1 on an error finding, printed as path:line:col severity code message (1-based)', () => {
    const f = join(fixtures, 'configs/llama-2-linear-inverted-factor.oneline.json');
    const r = cli(f);
    assert.equal(r.status, 1);
    const line = r.stdout.split('\n').find((l) => l.includes(' error rope/scaling-invalid-value '));
    assert.ok(line, r.stdout);
    // One-line file: the factor's value is on line 1, at the column of `0.25`.
    const col = readFileSync(f, 'utf8').indexOf('0.25') + 1;
    assert.ok(line!.startsWith(`${f}:1:${col} error rope/scaling-invalid-value `), line);
  });

  it('a strictly inverted llama3 band is a warning (transformers only warns): exit 0', () => {
    const f = join(fixtures, 'configs/llama3-bad-bands.json');
    const r = cli(f);
    assert.equal(r.status, 0, r.stdout);
    assert.ok(
      r.stdout.split('\n').some((l) => l.startsWith(`${f}:10:25 warning rope/llama3-freq-order `)),
      r.stdout,
    );
  });

  it('launches whose model is not found offline: no finding each, one summary line, --verbose lists them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rope-lens-unjudged-'));
    try {
      const f = join(dir, 'serve.sh');
      writeFileSync(
        f,
        'vllm serve acme/private-a --max-model-len 65536\nllama-server -m ./mystery-q4_k_m.gguf -c 65536\nswift sft --model acme/private-7b --max_length 131072\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768\n',
      );
      const r = cli(f);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^3 launches not judged: models not found offline; `--hub` resolves them \(--verbose lists them\)$/m);
      assert.match(r.stderr, /1 file checked: 0 errors, 0 warnings, 0 other findings/);
      const v = cli(f, '--verbose');
      assert.match(v.stderr, new RegExp(`^  ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:1 Model './mystery-q4_k_m.gguf' was not found offline`, 'm'));
      assert.equal(v.stderr.split('\n').filter((l) => l.startsWith(`  ${f}:`)).length, 3, v.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exit 2 on a missing path and on no arguments', () => {
    const r = cli(join(fixtures, 'does-not-exist.json'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot read .*does-not-exist\.json: no such file or folder/);
    assert.equal(cli().status, 2);
  });

  it('--json over a folder: the documented shape with 0-based ranges', () => {
    const r = cli('--json', join(fixtures, 'training'));
    assert.equal(r.status, 1, r.stderr); // the deprecated axolotl key is an error
    const out = JSON.parse(r.stdout) as { files: any[] };
    const byName = (n: string) => out.files.find((f) => f.path.endsWith(n));
    const ci = byName('ci.yml');
    assert.deepEqual(
      { kind: ci.kind, rope: ci.rope, training: ci.training, diagnostics: ci.diagnostics },
      { kind: 'other', rope: null, training: null, diagnostics: [] },
    );
    const ax = byName('axolotl-llama2-16k-no-scaling.yaml');
    assert.equal(ax.kind, 'training-config');
    assert.deepEqual(ax.training, {
      tool: 'axolotl',
      resolvedFrom: 'catalog:meta-llama/Llama-2-7b-hf',
      sequenceLength: 16384,
      baseModel: 'NousResearch/Llama-2-7b-hf',
    });
    // The historical keys, plus the other ModelRope fields as plain values (here: the base model's model_type).
    for (const k of [
      'base',
      'baseKey',
      'contextKey',
      'contextLength',
      'headDim',
      'originalContextLength',
      'partialRotaryFactor',
      'rotaryDim',
      'scaling',
      'groups',
      'trainedContext',
      'identity',
    ])
      assert.ok(k in ax.rope, k);
    assert.equal(ax.rope.modelType, 'llama');
    assert.ok(!JSON.stringify(ax.rope).includes('"node"'), 'no tree nodes in JSON');
    assert.equal(ax.rope.base, 10000);
    assert.equal(ax.rope.contextLength, 4096);
    const d = ax.diagnostics[0];
    // The headline is `message`; the explanation behind it is `detail` (issue 33).
    assert.deepEqual(Object.keys(d).sort(), ['code', 'detail', 'fixes', 'message', 'range', 'severity']);
    assert.ok(d.message.length <= 120 && typeof d.detail === 'string', JSON.stringify(d));
    assert.deepEqual(d.range, { start: { line: 11, character: 14 }, end: { line: 11, character: 19 } });
    assert.deepEqual(Object.keys(d.fixes[0]).sort(), ['edits', 'kind', 'preferred', 'title', 'verdict']);
    assert.equal(d.fixes[0].verdict.length, 16384);
    const lf = byName('llamafactory-qwen2_5-yarn-dict.yaml');
    assert.deepEqual(lf.rope.scaling, { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 });
    assert.equal(lf.rope.originalContextLength, 32768);
  });
});
