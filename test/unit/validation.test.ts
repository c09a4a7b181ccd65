import { strict as assert } from 'node:assert';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import type { BoundOracle, FileAnalysis, Finding } from '../../shared/service/types';
import { frozenPairs } from '../../shared/rules/invalidValues';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();
const LLAMA = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 4096,
  num_attention_heads: 32,
  max_position_embeddings: 8192,
  rope_theta: 500000,
};
const text = (over: Record<string, unknown>) => JSON.stringify({ ...LLAMA, ...over }, null, 2) + '\n';
const analyze = (t: string, fileName = 'config.json', o: BoundOracle = oracle): FileAnalysis => analyzeText(t, { fileName, oracle: o });
const only = (a: FileAnalysis, code: string): Finding[] => a.diagnostics.filter((d) => d.code === code);
/** 0-based line of the first line containing `needle`. */
const lineOf = (t: string, needle: string) => t.split('\n').findIndex((l) => l.includes(needle));

function assertSingle(t: string, code: string, severity: string, key: string, message: RegExp): Finding {
  const a = analyze(t);
  const fs = only(a, code);
  assert.equal(fs.length, 1, `${code}: ${JSON.stringify(a.diagnostics.map((d) => d.code))}`);
  assert.equal(fs[0].severity, severity);
  assert.equal(fs[0].range.start.line, lineOf(t, `"${key}"`), `points at ${key}`);
  assert.match(said(fs[0]), message);
  assert.doesNotMatch(said(fs[0]), /NaN|undefined/);
  // The bound rule must not add a judgement of a value that cannot be judged.
  assert.equal(only(a, 'rope/base-below-bound').length, 0, 'no base-below-bound beside it');
  return fs[0];
}

describe('invalid and absurd RoPE values', () => {
  it('a sane config gets none of the validation codes', () => {
    const a = analyze(text({}));
    assert.deepEqual(
      a.diagnostics.map((d) => d.code),
      [],
    );
  });

  it('head_dim 0, negative or fractional is an error on head_dim', () => {
    assertSingle(text({ head_dim: 0 }), 'rope/invalid-value', 'error', 'head_dim', /head_dim 0 must be a positive integer/);
    assertSingle(text({ head_dim: -2 }), 'rope/invalid-value', 'error', 'head_dim', /positive integer/);
    assertSingle(text({ head_dim: 64.5 }), 'rope/invalid-value', 'error', 'head_dim', /positive integer/);
  });

  it('an odd rotary dimension is an error (rotate_half needs two equal halves)', () => {
    assertSingle(text({ head_dim: 127 }), 'rope/invalid-value', 'error', 'head_dim', /rotary dimension 127 must be an even integer/);
    // int(100 × 0.25) = 25 channels: odd, pointed at the factor that produced it.
    assertSingle(text({ head_dim: 100, partial_rotary_factor: 0.25 }), 'rope/invalid-value', 'error', 'partial_rotary_factor', /rotary dimension 25 /);
    // hidden_size / heads = 4064 / 32 = 127: pointed at hidden_size.
    assertSingle(text({ hidden_size: 4064 }), 'rope/invalid-value', 'error', 'hidden_size', /rotary dimension 127 .*4064 \/ 32/);
  });

  it('a head dimension far beyond any model is an error on head_dim, and nothing is computed with it', () => {
    // issue 25: head_dim 1,199,763,050 made the service fill a 4.8 GB inv_freq table (the server hung).
    assertSingle(
      text({ head_dim: 1199763050 }),
      'rope/invalid-value',
      'error',
      'head_dim',
      /head_dim 1,199,763,050 is far beyond any real model .*at most 4,096/,
    );
    assertSingle(text({ head_dim: 1e9 }), 'rope/invalid-value', 'error', 'head_dim', /head_dim 1,000,000,000 is far beyond/);
    // Just past the cap: the same finding; at the cap: a (strange but computable) dimension, no finding about it.
    assertSingle(text({ head_dim: 4098 }), 'rope/invalid-value', 'error', 'head_dim', /head_dim 4,098 is far beyond/);
    assert.equal(only(analyze(text({ head_dim: 4096 })), 'rope/invalid-value').length, 0);
    // Derived from hidden_size / heads: pointed at hidden_size.
    assertSingle(text({ hidden_size: 4096 * 32 * 2 ** 10 }), 'rope/invalid-value', 'error', 'hidden_size', /head_dim 4,194,304 \(.*\) is far beyond/);
    // A rotary dimension beyond the cap (head_dim itself sane) is refused the same way.
    assertSingle(
      text({ head_dim: 128, rotary_dim: 1e8 }),
      'rope/invalid-value',
      'error',
      'rotary_dim',
      /rotary dimension 100,000,000 is far beyond any real model/,
    );
  });

  it('a dimension beyond the cap that the file does not locate is never computed with (GPT-NeoX YAML, hidden_size 1.2e9)', () => {
    // head_dim = hidden_size / heads is derived, not located: no finding on it, and no loop of 18 million pairs either.
    const yaml =
      '{\n  "num_layers": 32,\n  "hidden_size": 1199763040,\n  "num_attention_heads": 32,\n  "seq-length": 8192,\n  "max-position-embeddings": 4096,\n  "pos-emb": "rotary",\n  "rotary_emb_base": 10000\n}\n';
    const a = analyze(yaml, 'neox.yml');
    assert.equal(only(a, 'rope/absurd-value').length, 0);
    assert.equal(frozenPairs(1e300, 1199763040 / 32), 0, 'frozenPairs refuses a dimension beyond the cap instead of looping over it');
  });

  it('a partial_rotary_factor that leaves no rotating channel is an error', () => {
    // int(128 × 0.001) = 0.
    assertSingle(text({ partial_rotary_factor: 0.001 }), 'rope/invalid-value', 'error', 'partial_rotary_factor', /rotary dimension is 0 .*no channel rotates/);
    // An out-of-range factor keeps its own finding and gets no second one.
    const a = analyze(text({ partial_rotary_factor: 0 }));
    assert.deepEqual(
      a.diagnostics.map((d) => d.code),
      ['rope/partial-rotary-range'],
    );
  });

  it('a base ≤ 1 is an error on rope_theta', () => {
    assertSingle(
      text({ rope_theta: 1 }),
      'rope/invalid-value',
      'error',
      'rope_theta',
      /rope_theta 1 must be greater than 1: with base 1, positions repeat every 2π tokens/,
    );
    assertSingle(text({ rope_theta: 0 }), 'rope/invalid-value', 'error', 'rope_theta', /base ≤ 0/);
    assertSingle(text({ rope_theta: -10000 }), 'rope/invalid-value', 'error', 'rope_theta', /rope_theta -10,000 must be greater than 1/);
    assertSingle(text({ rope_theta: 0.5 }), 'rope/invalid-value', 'error', 'rope_theta', /below 1/);
    // JSON's 1e400 is Infinity after parsing.
    const inf = text({}).replace('"rope_theta": 500000', '"rope_theta": 1e400');
    assertSingle(inf, 'rope/invalid-value', 'error', 'rope_theta', /not a finite number/);
  });

  it('a base that is not a number at all is an error, and the substituted default is not judged', () => {
    for (const v of ['abc', 'NaN', true, { x: 1 }]) {
      assertSingle(text({ rope_theta: v }), 'rope/invalid-value', 'error', 'rope_theta', /rope_theta is .*not a number/);
    }
    // A numeric string is what Python's float() reads: no finding.
    assert.deepEqual(
      analyze(text({ rope_theta: '500000' })).diagnostics.map((d) => d.code),
      [],
    );
    // null means "the class default": no finding.
    assert.equal(only(analyze(text({ rope_theta: null })), 'rope/invalid-value').length, 0);
  });

  it('base 1e300: float32 inv_freq underflows for 63 of 64 pairs → warning that says so', () => {
    // 1e300 exceeds float32's maximum (3.4e38): cast to float32 it is +inf, inf^0 = 1 keeps pair 0,
    // inf^(2i/d) = inf for i ≥ 1, so 1/inf = 0 for the other 63 pairs of a 128-channel head.
    const f = assertSingle(
      text({ rope_theta: 1e300, max_position_embeddings: 131072 }),
      'rope/absurd-value',
      'warning',
      'rope_theta',
      /Only 1 of 64 frequency pairs encode position: 63 underflow to 0 in float32/,
    );
    assert.match(said(f), /numerically absurd: transformers computes inv_freq in float32/);
    assert.equal(frozenPairs(1e300, 128), 63);
    assert.equal(frozenPairs(1e100, 64), 31);
    // 1e38 < 3.4e38 and 1e38^(126/128) ≈ 2.6e37 stays finite, 1/2.6e37 ≈ 3.9e-38 > the smallest float32: nothing frozen.
    assert.equal(frozenPairs(1e38, 128), 0);
    assert.equal(only(analyze(text({ rope_theta: 1e38 })), 'rope/absurd-value').length, 0);
    // Large real bases (Llama-4 500k, 1e7, 1e9 long-context fine-tunes) are not absurd.
    for (const b of [5e5, 1e7, 1e9]) assert.equal(frozenPairs(b, 128), 0);
  });

  it('user-written words that read like computation bugs are described, not echoed', () => {
    const a = analyze(text({ rope_scaling: { rope_type: 'NaN', factor: 'undefined' } }));
    const unknown = only(a, 'rope/unknown-type');
    assert.equal(unknown.length, 1);
    for (const d of a.diagnostics) assert.doesNotMatch(said(d), /NaN|undefined/);
    // Ordinary names are still quoted back.
    assert.match(only(analyze(text({ rope_scaling: { rope_type: 'stretchy', factor: 2 } })), 'rope/unknown-type')[0].message, /'stretchy'/);
  });

  it('a context ≤ 0 is an error on the context key', () => {
    assertSingle(
      text({ max_position_embeddings: 0 }),
      'rope/invalid-value',
      'error',
      'max_position_embeddings',
      /max_position_embeddings 0 must be a positive number/,
    );
    assertSingle(text({ max_position_embeddings: -4096 }), 'rope/invalid-value', 'error', 'max_position_embeddings', /-4,096/);
  });

  it('a context of 1e12 is checked at 2^24: a base that fails below it gets its exact L_max and no rewrite', () => {
    const t = text({ rope_theta: 10000, max_position_embeddings: 1e12 });
    const a = analyze(t);
    const f = only(a, 'rope/base-below-bound');
    assert.equal(f.length, 1);
    // lmax is the same whatever length above it is asked about: the first failure of f_b.
    const m = oracle.lmax(10000, 128, 4096)!;
    assert.ok(m > 0 && m < 4096);
    assert.match(said(f[0]), new RegExp(`only to ${m.toLocaleString('en-US')} of 16,777,216 tokens.*judged over the context 1,000,000,000,000`));
    assert.deepEqual(f[0].fixes, []);
  });

  it('a context beyond 2^24 whose base holds up to 2^24: information that the rest is unchecked', () => {
    const asked: number[] = [];
    // An oracle that answers "valid" records the lengths it is asked about (the real scan of 2^24 positions takes seconds).
    const valid: BoundOracle = {
      lmax: (_b, _d, L) => {
        asked.push(L);
        return null;
      },
      bstar: () => undefined,
      threshold: () => undefined,
      robust: () => undefined,
    };
    const t = text({ rope_theta: 1e12, max_position_embeddings: 1e12 });
    const a = analyze(t, 'config.json', valid);
    assert.deepEqual([...new Set(asked)], [16777216]);
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['rope/context-unchecked', 'information']],
    );
    assert.match(said(a.diagnostics[0]), /The RoPE base bound is unchecked past 16,777,216 tokens.*the context 1,000,000,000,000 is beyond it/i);
    assert.equal(a.diagnostics[0].range.start.line, lineOf(t, '"max_position_embeddings"'));
    // Within 2^24 a valid base gets nothing.
    asked.length = 0;
    assert.deepEqual(analyze(text({ max_position_embeddings: 1 << 24 }), 'config.json', valid).diagnostics, []);
  });

  it('training YAML: invalid overrides and lengths are errors on their keys', () => {
    const y = [
      'base_model: meta-llama/Meta-Llama-3-8B',
      'sequence_len: 0',
      'overrides_of_model_config:',
      '  rope_theta: 1',
      'datasets:',
      '  - path: x',
      '',
    ].join('\n');
    const a = analyze(y, 'train.yaml');
    assert.equal(a.kind, 'training-config');
    const f = only(a, 'rope/invalid-value');
    assert.deepEqual(f.map((d) => d.range.start.line).sort(), [1]);
    assert.ok(f.every((d) => d.severity === 'error'));
    // axolotl pins transformers 5, where a rope_theta written alone never reaches the model: the
    // finding on that key says so (judging its value would judge a base that never runs).
    assert.deepEqual(
      only(a, 'axolotl/theta-ignored').map((d) => d.range.start.line),
      [3],
    );
  });
});

describe('documents the parser refuses', () => {
  it('a YAML alias bomb gets one parse/not-analysed warning instead of silence', () => {
    const lines = ['model_type: llama', 'rope_theta: 10000', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = 'abcdefghi';
    for (let i = 1; i < names.length; i++)
      lines.push(
        `${names[i]}: &${names[i]} [${Array(9)
          .fill('*' + names[i - 1])
          .join(',')}]`,
      );
    lines.push('max_position_embeddings: *i', '');
    const a = analyze(lines.join('\n'), 'config.yaml');
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['parse/not-analysed', 'warning']],
    );
    assert.match(said(a.diagnostics[0]), /could not read this file.*alias/);
  });

  it('an ordinary syntax error while typing keeps the analysis (no parse/not-analysed)', () => {
    const broken = text({ rope_theta: 10000 }).replace('"model_type": "llama",', '"model_type": "llama"');
    const a = analyze(broken);
    assert.equal(a.kind, 'model-config');
    assert.equal(only(a, 'parse/not-analysed').length, 0);
    assert.equal(a.rope?.base.value, 10000);
    assert.equal(only(a, 'rope/base-below-bound').length, 1);
  });

  it('files that are not configs stay silent', () => {
    assert.deepEqual(analyze('{"name": "x", "dependencies": {}}', 'package.json').diagnostics, []);
    assert.deepEqual(analyze('key: [unclosed', 'notes.yaml').diagnostics, []);
  });
});
