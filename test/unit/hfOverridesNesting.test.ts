/**
 * Issue 26 point 4: vLLM `--hf-overrides` applied as vLLM nests them. Gemma 3 (google/gemma-3-27b-it,
 * Gemma3ForConditionalGeneration: RoPE keys under text_config, linear ×8 shipped) and gpt-oss
 * (openai/gpt-oss-120b: YaRN with beta_fast/beta_slow). Each as a `vllm serve` line and as a vLLM
 * --config YAML, which must give the same findings.
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { loadShellParser } from '../../shared/node/shellParser';
import type { ShellParser } from '../../shared/launch/types';
import type { FileAnalysis } from '../../shared/service/types';

const oracle = createSyncOracle();
let shell: ShellParser;
const analyze = (text: string, fileName: string): FileAnalysis => analyzeText(text, { fileName, oracle, shellParser: shell });
const codes = (a: FileAnalysis) =>
  a.diagnostics
    .filter((d) => d.severity !== 'hint')
    .map((d) => `${d.code}:${d.severity}`)
    .sort();
const apply = (text: string, edits: Parameters<typeof applyTextEdits>[2]) => applyTextEdits(text, new LineIndex(text), edits);

const YARN = { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 };
function shellLine(model: string, overrides: unknown, len: number): string {
  return `vllm serve ${model} \\\n  --max-model-len ${len} \\\n  --hf-overrides '${JSON.stringify(overrides)}'\n`;
}
function yaml(model: string, overrides: unknown, len: number): string {
  return `model: ${model}\nmax-model-len: ${len}\nhf-overrides: '${JSON.stringify(overrides)}'\n`;
}

describe('vLLM --hf-overrides applied as vLLM nests them', function () {
  this.timeout(60_000);
  before(async () => {
    shell = await loadShellParser();
  });

  it('Gemma 3: a top-level rope_scaling is dead (the language model is built from text_config); the fix removes it', () => {
    const ov = { rope_scaling: YARN };
    const sh = shellLine('google/gemma-3-27b-it', ov, 32768),
      y = yaml('google/gemma-3-27b-it', ov, 32768);
    const [a, b] = [analyze(sh, 'serve.sh'), analyze(y, 'vllm.yaml')];
    assert.deepEqual(codes(a), ['launch/override-key-ignored:warning']);
    assert.deepEqual(codes(b), codes(a));
    const d = a.diagnostics[0];
    assert.match(said(d), /builds its language model from text_config/);
    assert.match(said(d), /ships linear factor 8 in text_config/);
    // Not "moved under text_config": there it would replace the shipped linear x8.
    assert.equal(d.fixes.length, 1);
    assert.match(d.fixes[0].title, /^Remove --hf-overrides, whose rope_scaling is dead/);
    const fixed = apply(sh, d.fixes[0].edits);
    assert.doesNotMatch(fixed, /hf-overrides/);
    assert.deepEqual(codes(analyze(fixed, 'serve.sh')), []);
    assert.equal(apply(y, b.diagnostics[0].fixes[0].edits), 'model: google/gemma-3-27b-it\nmax-model-len: 32768\n');
    // The launch runs with the model's own scaling: the dead key changes nothing vLLM derives.
    assert.ok(!a.launches![0].replacesModelScaling);
  });

  it('Gemma 3: a top-level rope_theta beside other keys is dead too; only that key goes', () => {
    const a = analyze(shellLine('google/gemma-3-27b-it', { rope_theta: 2000000, text_config: { sliding_window: 1024 } }, 32768), 'serve.sh');
    assert.deepEqual(codes(a), ['launch/override-key-ignored:warning']);
    assert.match(said(a.diagnostics[0]), /Write it under "text_config"/);
    assert.equal(a.diagnostics[0].fixes[0].title, 'Move rope_theta under text_config in hf-overrides');
  });

  it('Gemma 3: nested text_config.rope_scaling is merged and replaces the shipped linear x8', () => {
    const ov = { text_config: { rope_scaling: YARN } };
    const [a, b] = [analyze(shellLine('google/gemma-3-27b-it', ov, 131072), 'serve.sh'), analyze(yaml('google/gemma-3-27b-it', ov, 131072), 'vllm.yaml')];
    assert.deepEqual(codes(a), ['launch/override-replaces-scaling:warning']);
    assert.deepEqual(codes(b), codes(a));
    assert.match(said(a.diagnostics[0]), /runs with the command's YaRN factor 4 over 32,768, not the linear factor 8/);
    assert.match(said(a.diagnostics[0]), /replaces google\/gemma-3-27b-it's own linear factor 8/);
    assert.equal(a.launches![0].replacesModelScaling, true);
  });

  it("gpt-oss: a rope_scaling override without beta_fast/beta_slow is an error; the fix keeps the model's YaRN", () => {
    const ov = { rope_scaling: { rope_type: 'yarn', factor: 32.0, original_max_position_embeddings: 4096 } };
    const sh = shellLine('openai/gpt-oss-120b', ov, 131072);
    const [a, b] = [analyze(sh, 'serve.sh'), analyze(yaml('openai/gpt-oss-120b', ov, 131072), 'vllm.yaml')];
    assert.deepEqual(codes(a), ['launch/override-drops-keys:error']);
    assert.deepEqual(codes(b), codes(a));
    assert.match(said(a.diagnostics[0]), /KeyError.*no "beta_fast", "beta_slow"/);
    const fixed = apply(sh, a.diagnostics[0].fixes[0].edits);
    assert.deepEqual(codes(analyze(fixed, 'serve.sh')), []);
    // With every key the attention reads, the same override loads.
    const whole = { rope_scaling: { ...ov.rope_scaling, beta_fast: 32.0, beta_slow: 1.0 } };
    assert.deepEqual(codes(analyze(shellLine('openai/gpt-oss-120b', whole, 131072), 'serve.sh')), []);
  });

  it('a fix that adds RoPE keys writes them where vLLM reads them: under text_config (Voxtral)', () => {
    const sh = 'vllm serve mistralai/Voxtral-Mini-3B-2507 --max-model-len 65536\n';
    const fix = analyze(sh, 'serve.sh')
      .diagnostics.flatMap((d) => d.fixes)
      .find((f) => f.preferred);
    assert.ok(fix);
    const fixed = apply(sh, fix!.edits);
    assert.match(fixed, /--hf-overrides '\{"text_config":\{"rope_scaling":\{"rope_type":"yarn"/);
    assert.deepEqual(
      codes(analyze(fixed, 'serve.sh')).filter((c) => !c.endsWith(':information')),
      [],
    );
  });
});
