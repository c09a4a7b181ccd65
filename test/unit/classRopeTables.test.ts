/**
 * Rotary tables a config class fills in or names itself (transformers 5.18.0, checked by the real-transformers tier on
 * the same fixtures): Gemma-4 without `rope_parameters` runs its class's per-layer-type defaults, and DeepSeek-V4's
 * layers read the `main` or `compress` table, whose YaRN its config gives an attention factor of 1.0. Expected
 * numbers are the RoPE formulas written out here, not RoPE Lens's.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freqsReport } from '../../server/cli/freqs';
import { ropeGroups } from '../../shared/config/attentionGroups';
import { readModelConfig, toRopeSpec } from '../../shared/config/modelConfig';
import type { ModelRope } from '../../shared/config/modelRope';
import { DEFAULT_LAYER_TYPE_ROPE_5 } from '../../shared/config/transformers5Classes';
import { parseDocumentText } from '../../shared/document/parse';
import { computeFrequencies } from '../../shared/rope/invFreq';
import { analyzeText } from '../../shared/service/analyze';
import { buildInspectorData } from '../../shared/inspector/build';
import { inspectorInputFromRope } from '../../shared/inspector/fromConfig';
import { createSyncOracle } from '../../shared/service/syncOracle';

const ROOT = join(__dirname, '..', '..');
const text = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const read = (t: string): ModelRope => readModelConfig(parseDocumentText(t, 'json'))!.rope!;
const freqs = (rope: ModelRope) => {
  const spec = toRopeSpec(rope, { variant: 'v5' });
  return freqsReport(rope, spec, computeFrequencies(spec, { variant: 'v5' }), { variant: 'v5' });
};
const oracle = createSyncOracle();
const loud = (path: string) =>
  analyzeText(text(path), { fileName: join(ROOT, path), oracle }).diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-15 * Math.max(Math.abs(b), 1e-300);
/** inv_freq of default RoPE over `dim` channels: 1 / base^(2i / dim). */
const defaultInv = (base: number, dim: number) => Array.from({ length: dim / 2 }, (_, i) => 1 / Math.pow(base, (2 * i) / dim));

const GEMMA4 = 'test/fixtures/families/gemma-4-31b.json';
const GEMMA4_HUB = 'test/fixtures/families/gemma-4-31b-it-rope-parameters.json';
const DSV4_HUB = 'test/fixtures/situations/deepseek-v4-flash-hub.json';
const DSV4_SAVED = 'test/fixtures/situations/deepseek-v4-flash-v5-saved.json';

describe("Gemma-4 without rope_parameters: its config class's defaults", () => {
  it('the class-default table is the 5.17 class table (test/fixtures/transformers-5.17/class-defaults.json)', () => {
    const classes = JSON.parse(text('test/fixtures/transformers-5.17/class-defaults.json')).defaults;
    for (const [type, table] of Object.entries(DEFAULT_LAYER_TYPE_ROPE_5)) assert.deepEqual(table, classes[type].rope_parameters, type);
    assert.deepEqual(Object.keys(DEFAULT_LAYER_TYPE_ROPE_5).sort(), ['diffusion_gemma_text', 'gemma4_text', 'gemma4_unified_text']);
  });

  it('gemma-4-31B: 10 full layers (proportional, 64 of 256 pairs over the default 512 head, base 1,000,000) and 50 sliding at 10,000', () => {
    const rope = read(text(GEMMA4));
    const [full, sliding] = ropeGroups(rope);
    assert.deepEqual([full.layerType, full.layers, sliding.layerType, sliding.layers], ['full_attention', 10, 'sliding_attention', 50]);
    assert.match(full.pattern!, /assumed: Gemma-4's default layer_types/);
    assert.equal(full.base.value, 1e6);
    assert.equal(full.base.node, undefined, 'a default, not a value in the file');
    assert.match(full.base.note!, /default rope_parameters\.full_attention\.rope_theta/);
    assert.equal(full.headDim!.value, 512);
    assert.match(full.headDim!.note!, /default global_head_dim 512/);
    assert.equal(sliding.base.value, 10000);
    assert.equal(sliding.window!.value, 1024);
    const [f, s] = freqs(rope).groups;
    // Proportional: exponents over the whole 512-wide head, the first 64 pairs rotate, the rest stand still.
    assert.equal(f.invFreq.length, 256);
    const rotating = defaultInv(1e6, 512).slice(0, 64);
    assert.ok(f.invFreq.every((x, i) => (i < 64 ? close(x, rotating[i]) : x === 0)));
    assert.ok(s.invFreq.length === 128 && s.invFreq.every((x, i) => close(x, defaultInv(10000, 256)[i])));
    assert.deepEqual(loud(GEMMA4), []);
  });

  it('the hub layout (rope_parameters, layer_types, global_head_dim written out) gives the same groups, read from the file', () => {
    const defaults = freqs(read(text(GEMMA4))).groups;
    const rope = read(text(GEMMA4_HUB));
    const hub = freqs(rope).groups;
    assert.deepEqual(
      hub.map((g) => [g.layerType, g.layers, g.base, g.rotaryDim, g.invFreq]),
      defaults.map((g) => [g.layerType, g.layers, g.base, g.rotaryDim, g.invFreq]),
    );
    assert.equal(ropeGroups(rope)[0].base.key, 'text_config.rope_parameters.full_attention.rope_theta');
    assert.equal(ropeGroups(rope)[0].pattern, 'layer_types');
    assert.deepEqual(loud(GEMMA4_HUB), []);
  });

  it('a top-level rope_theta is not read by the class: the default stands and the note says so', () => {
    const rope = read(JSON.stringify({ model_type: 'gemma4_text', head_dim: 256, num_hidden_layers: 12, sliding_window: 512, rope_theta: 500000 }));
    const [full, sliding] = ropeGroups(rope);
    assert.equal(full.base.value, 1e6);
    assert.match(full.base.note!, /rope_theta 500000 in the file is not read/);
    assert.equal(sliding.base.value, 10000);
  });

  it('layer_types whose last layer slides: the class makes it full attention; with none, every 6th and the last are full', () => {
    const layers = (extra: object) =>
      ropeGroups(read(JSON.stringify({ model_type: 'gemma4_text', head_dim: 256, num_hidden_layers: 8, sliding_window: 512, ...extra })));
    const [full, sliding] = layers({});
    assert.deepEqual([full.layers, sliding.layers], [2, 6]); // layers 6 and 8
    const given = layers({ layer_types: Array(8).fill('sliding_attention') });
    assert.deepEqual([given[0].layerType, given[0].layers, given[1].layers], ['full_attention', 1, 7]);
    assert.match(given[0].pattern!, /^layer_types; the last layer made full attention/);
  });
});

describe('DeepSeek-V4: the main and compress rotary tables', () => {
  it('hub config: 41 compressed layers read compress (160,000, YaRN ×16 with attention factor 1.0), 2 sliding read main (10,000, no scaling)', () => {
    const rope = read(text(DSV4_HUB));
    const [compress, main] = ropeGroups(rope);
    assert.deepEqual([compress.table, compress.layers, main.table, main.layers], ['compress', 41, 'main', 2]);
    assert.equal(compress.base.key, 'compress_rope_theta');
    assert.equal(compress.scaling!.type, 'yarn');
    assert.equal(compress.scaling!.params.attention_factor.value, 1);
    assert.match(compress.scaling!.params.attention_factor.note!, /DeepSeek-V4's config sets it/);
    assert.equal(main.base.key, 'rope_theta');
    const [c, m] = freqs(rope).groups;
    assert.deepEqual(
      [c.table, c.ropeType, c.attentionFactor, c.rotaryDim, m.table, m.ropeType, m.rotaryDim],
      ['compress', 'yarn', 1, 64, 'main', 'default', 64],
    );
    assert.ok(m.invFreq.every((x, i) => close(x, defaultInv(10000, 64)[i])));
    // YaRN leaves the fastest pair as it is and divides the slowest by the factor.
    assert.ok(close(c.invFreq[0], 1) && close(c.invFreq[31], defaultInv(160000, 64)[31] / 16));
    assert.deepEqual(loud(DSV4_HUB), []);
  });

  it('the layout 5.18 saves (rope_parameters keyed main/compress, partial_rotary_factor of head_dim 512) reads the same', () => {
    const hub = freqs(read(text(DSV4_HUB))).groups;
    const rope = read(text(DSV4_SAVED));
    const saved = freqs(rope).groups;
    assert.deepEqual(
      saved.map((g) => [g.table, g.layers, g.base, g.rotaryDim, g.attentionFactor, g.invFreq]),
      hub.map((g) => [g.table, g.layers, g.base, g.rotaryDim, g.attentionFactor, g.invFreq]),
    );
    assert.equal(ropeGroups(rope)[0].base.key, 'rope_parameters.compress.rope_theta');
    assert.deepEqual(loud(DSV4_SAVED), []);
  });
});

describe('the Inspector lists each group', () => {
  it('Gemma-4-31B and DeepSeek-V4-Flash: one line per group with its table, base and reach; one-group models none', () => {
    const groups = (path: string) => buildInspectorData(inspectorInputFromRope(read(text(path)), path), {}, { validity: false }).groups;
    assert.deepEqual(groups(GEMMA4), [
      'full_attention ×10: proportional, base 1,000,000 (default), 128 of 512 dims, reach 262,144',
      'sliding_attention ×50: base 10,000 (default), 256 dims, reach 1,024 (window 1,024)',
    ]);
    assert.deepEqual(groups(DSV4_HUB), [
      'full_attention ×41 (table compress): yarn, base 160,000, 64 dims, reach 1,048,576',
      'sliding_attention ×2 (table main): base 10,000, 64 dims, reach 128 (window 128)',
    ]);
    assert.equal(groups('test/fixtures/corpus/models/meta-llama-3-8b.json'), undefined);
  });
});
