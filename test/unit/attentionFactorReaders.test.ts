/**
 * Attention factors readers disagree on (issue 33, deliverable 7), on a real file: Devstral-Small-2's
 * text config (transformers-5 layout, YaRN ×48 with mscale = mscale_all_dim = 1 and Ministral-3's
 * llama_4_scaling_beta). Expected numbers come from the readers' formulas written out here, never
 * from rope-lens output: transformers 5 get_mscale(f, mscale) / get_mscale(f, mscale_all_dim);
 * vLLM's YaRNScalingRotaryEmbedding 0.1·ln(f) + 1 (it is not passed the mscale keys).
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { consumersText } from '../../shared/serving/consumersView';
import type { FileAnalysis } from '../../shared/service/types';

const oracle = createSyncOracle();
const FIX = join(__dirname, '..', 'fixtures');
const DEVSTRAL = join(FIX, 'consumers', 'devstral-small-2-yarn48-v5.json');
const analyze = (path: string, text = readFileSync(path, 'utf8')): FileAnalysis => analyzeText(text, { fileName: path, oracle });
const getMscale = (scale: number, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
const code = 'consumer/attention-factor-differs';

describe('readers that disagree on the YaRN attention factor', () => {
  const cfg = JSON.parse(readFileSync(DEVSTRAL, 'utf8'));
  const rp = cfg.text_config.rope_parameters;
  const hf = getMscale(rp.factor, rp.mscale) / getMscale(rp.factor, rp.mscale_all_dim);
  const vllm = getMscale(rp.factor);

  it('Devstral-Small-2 (YaRN ×48, mscale = mscale_all_dim = 1): a warning with transformers 5.x 1 and vLLM 1.3871', () => {
    assert.equal(hf, 1);
    assert.ok(Math.abs(vllm - 1.3871) < 1e-4);
    const a = analyze(DEVSTRAL);
    const d = a.diagnostics.filter((x) => x.code === code);
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, 'warning');
    assert.match(
      said(d[0]),
      new RegExp(`^Readers apply different YaRN attention factors: transformers 5\\.x ${hf}, vLLM ≥ 0\\.24 ${Number(vllm.toFixed(4))}\\.`),
    );
    assert.ok(d[0].message.search(/\.(\s|$)/) < 120, 'the first sentence says what happens in ≤ 120 characters');
    const rows = a.consumers ?? [];
    assert.equal(rows.find((r) => r.consumer === 'transformers-5')!.attentionFactor, hf);
    assert.ok(Math.abs(rows.find((r) => r.consumer === 'vllm')!.attentionFactor! - vllm) < 1e-12);
  });

  it("the consumers table marks vLLM's attention factor and no longer says every reader agrees", () => {
    const text = consumersText(analyze(DEVSTRAL).consumers ?? []);
    assert.doesNotMatch(text, /Every consumer that loads this model reads the same/);
    assert.match(text, /vLLM ≥ 0\.24: attention factor/);
  });

  it("Ministral-3's llama_4_scaling_beta (listed in its config class's ignore_keys_at_rope_validation) raises no 'ignored' finding", () => {
    const a = analyze(DEVSTRAL);
    assert.deepEqual(
      a.diagnostics.filter((d) => /llama_4_scaling_beta/.test(d.message)).map((d) => d.code),
      [],
    );
    // The same key on a class that does not list it is still unrecognized by transformers.
    const llama = JSON.stringify({ ...cfg, text_config: { ...cfg.text_config, model_type: 'llama' } });
    assert.ok(analyze(DEVSTRAL, llama).diagnostics.some((d) => d.code === 'rope/scaling-unknown-key' && /llama_4_scaling_beta/.test(d.message)));
  });

  it('no finding where the readers agree: YaRN without mscale keys (Qwen2.5), DeepSeek-V3 (vLLM routes it to deepseek_yarn, which reads mscale)', () => {
    for (const f of ['qwen2.5-7b-instruct-yarn.json', 'deepseek-v3.json']) {
      const path = join(FIX, 'corpus', 'models', f);
      assert.deepEqual(
        analyze(path)
          .diagnostics.filter((d) => d.code === code)
          .map((d) => d.message),
        [],
        f,
      );
    }
    // Without the mscale keys transformers 5 also computes 0.1·ln(48) + 1: the readers agree.
    const { mscale: _m, mscale_all_dim: _a, ...plain } = rp;
    const agreed = JSON.stringify({ ...cfg, text_config: { ...cfg.text_config, rope_parameters: plain } });
    assert.deepEqual(
      analyze(DEVSTRAL, agreed).diagnostics.filter((d) => d.code === code),
      [],
    );
  });
});
