import { strict as assert } from 'node:assert';
import { readFileSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createNodeResolver } from '../../shared/node/resolveNode';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { parseLength } from '../../shared/serving/vllmConfigFile';
import { LAUNCH_RULE_CODES } from '../../shared/rules/launch/index';
import YAML from 'yaml';
import { said } from './helpers/findingText';

const DIR = join(__dirname, '..', 'fixtures', 'serving');
const oracle = createSyncOracle();

function analyze(text: string, fileName = join(DIR, 'x.yaml')) {
  return analyzeText(text, { fileName, oracle });
}
const fixture = (name: string) => readFileSync(join(DIR, name), 'utf8');

function applyPreferred(text: string, code: string): string {
  const a = analyze(text);
  const d = a.diagnostics.find((x) => x.code === code);
  assert.ok(d, `${code} in ${JSON.stringify(a.diagnostics.map((x) => x.code))}`);
  const fix = d!.fixes.find((f) => f.preferred) ?? d!.fixes[0];
  assert.ok(fix, `a fix for ${code}`);
  return applyTextEdits(text, new LineIndex(text), fix.edits);
}

describe('vLLM serving configs (vllm serve --config)', () => {
  it('max-model-len above the derived length is an error on that key, with the override fixes', () => {
    const text = fixture('vllm-qwen2.5-128k.yaml');
    const a = analyze(text);
    assert.equal(a.kind, 'serving-config');
    assert.deepEqual(a.serving, {
      engine: 'vllm',
      model: 'Qwen/Qwen2.5-7B-Instruct',
      resolvedFrom: 'catalog:Qwen/Qwen2.5-7B-Instruct',
      maxModelLen: 131072,
      derivedMaxLen: 32768,
      trainedContext: 32768,
    });
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.range.start, { line: 2, character: 15 });
    // advice.md situation 3 in override form: NTK always offered; served untrained, each rewrite is judged by its reach.
    assert.deepEqual(
      d.fixes.map((f) => f.kind),
      ['ntk', 'yarn', 'linear', 'dynamic', 'other'],
    );
    assert.match(
      d.fixes[0].title,
      /^Apply NTK scaling in hf-overrides: rope_theta 1000000 → 4088994\.24 \(s = 4, d = 128\), max_position_embeddings 131072 — covers 131,072$/,
    );
    assert.match(
      d.fixes[1].title,
      /^Add YaRN as Qwen.s model card for Qwen\/Qwen2.5-7B-Instruct documents it in hf-overrides \(factor 4, original 32768\) — covers 131,072, validated by Qwen.s model card$/,
    );
    // Serving runs the checkpoint as is: every rewrite covers 131,072, and the vendor's validated
    // recipe (Qwen: YaRN ×4) is preferred; the bound on its frequencies is information.
    assert.deepEqual(
      d.fixes.filter((f) => f.preferred).map((f) => f.kind),
      ['yarn'],
    );
    // The NTK override also lifts max_position_embeddings, so vLLM derives 131,072 and accepts the file.
    const ntkFixed = applyTextEdits(text, new LineIndex(text), d.fixes[0].edits);
    assert.ok(!analyze(ntkFixed).diagnostics.some((x) => x.code === 'vllm/max-model-len-exceeds'), ntkFixed);
    const fixed = applyPreferred(text, 'vllm/max-model-len-exceeds');
    assert.match(fixed, /\nhf-overrides:\n  rope_scaling:\n    rope_type: yarn\n    factor: 4\.0\n    original_max_position_embeddings: 32768\n/);
    assert.match(fixed, /^# vllm serve --config/, 'comment kept');
    assert.deepEqual(analyze(fixed).diagnostics, []);
    const lowered = applyTextEdits(text, new LineIndex(text), d.fixes[4].edits);
    assert.match(lowered, /max-model-len: 32768/);
  });

  it('the same file with the YaRN override in place is clean', () => {
    const a = analyze(fixture('vllm-qwen2.5-yarn.yaml'));
    assert.equal(a.serving!.derivedMaxLen, 131072);
    assert.deepEqual(a.diagnostics, []);
  });

  it('the removed rope-scaling option is an error; the fix moves it into hf-overrides in the modern spelling', () => {
    const text = fixture('vllm-removed-rope-scaling.yaml');
    const a = analyze(text);
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['vllm/removed-option', 'error']],
    );
    const fixed = applyPreferred(text, 'vllm/removed-option');
    assert.doesNotMatch(fixed, /rope-scaling:/);
    assert.match(fixed, /hf-overrides:\n  rope_scaling:\n    rope_type: yarn\n/);
    assert.doesNotMatch(fixed, /\btype: yarn/);
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it('a legacy `type` inside a JSON-string hf_overrides is information (older vLLM raised); the fix rewrites the string', () => {
    const text = fixture('vllm-legacy-type.yaml');
    const a = analyze(text);
    assert.deepEqual(
      a.diagnostics.map((d) => d.code),
      ['vllm/legacy-rope-type'],
    );
    const fixed = applyPreferred(text, 'vllm/legacy-rope-type');
    const json = JSON.parse(YAML.parse(fixed).hf_overrides);
    assert.deepEqual(json, { rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it('Llama-3.1 at 262,144: error, and only the lowering fix (a scaled model is not rescaled)', () => {
    const a = analyze(fixture('vllm-llama3.1-256k.yaml'));
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.equal(a.serving!.derivedMaxLen, 131072);
    assert.deepEqual(
      d.fixes.map((f) => f.title),
      ['Set max-model-len to 131072'],
    );
  });

  it('an unknown model is not judged (no finding; the reason is on the description); a model folder next to the YAML is resolved offline', () => {
    const a = analyze('model: acme/never-published-7b\nmax-model-len: 999999\n');
    assert.deepEqual(a.diagnostics, []);
    assert.match(a.serving!.unjudged ?? '', /acme\/never-published-7b' was not found offline/);
    const dir = mkdtempSync(join(tmpdir(), 'rope-lens-vllm-yaml-'));
    try {
      mkdirSync(join(dir, 'my-model'));
      writeFileSync(
        join(dir, 'my-model', 'config.json'),
        JSON.stringify({ model_type: 'mistral', max_position_embeddings: 8192, rope_theta: 10000, hidden_size: 4096, num_attention_heads: 32 }),
      );
      const local = analyzeText('model: ./my-model\nmax-model-len: 16384\n', { fileName: join(dir, 'serve.yaml'), oracle, resolver: createNodeResolver({}) });
      assert.equal(local.serving!.resolvedFrom, join(dir, 'my-model', 'config.json'));
      assert.deepEqual(
        local.diagnostics.map((d) => d.code),
        ['vllm/max-model-len-exceeds'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('within the derived length and the trained context: clean; human-readable lengths are understood', () => {
    assert.deepEqual(
      analyze('model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 32k\n').diagnostics.map((d) => d.code),
      [],
    );
    assert.deepEqual(
      analyze('model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 33k\n').diagnostics.map((d) => d.code),
      ['vllm/max-model-len-exceeds'],
    );
    assert.equal(parseLength('128K'), 131072);
    assert.equal(parseLength('128k'), 128000);
    assert.equal(parseLength('1M'), 1048576);
  });

  it('an unreadable rope_type in hf-overrides is described, not echoed (fuzz counterexample)', () => {
    const a = analyze(
      'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nhf-overrides:\n  rope_scaling:\n    rope_type: ya_max_position_embeddings: 32768\n',
    );
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.match(said(d), /a rope_type vLLM cannot read/);
    assert.doesNotMatch(said(d), /undefined|\[object/);
  });

  it('training and other YAML are not taken for serving configs', () => {
    assert.notEqual(analyze('base_model: Qwen/Qwen2.5-7B\nsequence_len: 65536\nmax-model-len: 4\n').kind, 'serving-config');
    assert.equal(analyze('model: foo\nname: bar\n').kind, 'other');
    assert.ok(LAUNCH_RULE_CODES.includes('vllm/max-model-len-exceeds'));
  });
});
