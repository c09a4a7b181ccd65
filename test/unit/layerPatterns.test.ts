/**
 * Layer mixes given by other keys than layer_types, and hybrids without any rotary layer, on real
 * public configs (test/fixtures/hybrids, sources in its SOURCES.md).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { readModelConfig } from '../../shared/config/modelConfig';
import { parseDocumentText } from '../../shared/document/parse';
import { ropeGroups } from '../../shared/config/attentionGroups';

const oracle = createSyncOracle();
const DIR = join(__dirname, '../fixtures/hybrids');
const text = (f: string) => readFileSync(join(DIR, f), 'utf8');
const read = (t: string) => readModelConfig(parseDocumentText(t, 'json'))!;
const analyze = (t: string) => analyzeText(t, { fileName: 'config.json', oracle, verifyFixes: true });

describe('hybrids without a rotary layer: rope null with the reason, no finding', () => {
  for (const [file, reason] of [
    ['nemotron-3-nano-30b-a3b.json', /Nemotron-H\); 6 of its 52 layers attend \(\* in hybrid_override_pattern\), and the rope_theta written there is not read/],
    ['granitemoehybrid-8-layer.json', /position_embedding_type "nope"/],
  ] as const) {
    it(file, () => {
      const r = read(text(file));
      assert.equal(r.rope, undefined);
      assert.match(r.noRope!, reason);
      const a = analyze(text(file));
      assert.equal(a.rope ?? null, null);
      assert.match(a.noRope!, reason);
      assert.deepEqual(a.diagnostics, [], 'no RoPE finding on a model without RoPE');
    });
  }

  it("Zamba2: use_mem_rope false switches the shared attention blocks' RoPE off; true keeps it", () => {
    const zamba = (on: boolean) =>
      JSON.stringify({
        model_type: 'zamba2',
        hidden_size: 2560,
        num_attention_heads: 32,
        num_hidden_layers: 54,
        max_position_embeddings: 4096,
        rope_theta: 10000,
        use_mem_rope: on,
      });
    assert.match(read(zamba(false)).noRope!, /use_mem_rope: false/);
    assert.ok(read(zamba(true)).rope);
  });

  it('a layer list of linear-attention and SSM mixers only: no rotary layer at all', () => {
    const r = read(
      JSON.stringify({
        model_type: 'somehybrid',
        hidden_size: 1024,
        num_attention_heads: 8,
        num_hidden_layers: 4,
        rope_theta: 10000,
        max_position_embeddings: 4096,
        layer_types: ['mamba', 'linear_attention', 'mamba', 'linear_attention'],
      }),
    );
    assert.equal(r.rope, undefined);
    assert.match(r.noRope!, /no layer uses rotary attention/);
  });
});

describe('layer patterns from other keys', () => {
  it('MiniMax-M1 attn_type_list: the 10 softmax layers of 80 are the rotary group (lightning layers have none)', () => {
    const rope = read(text('minimax-m1.json')).rope!;
    assert.deepEqual(
      rope.groups!.map((g) => [g.layerType, g.layers, g.base?.value, g.rotaryDim?.value, g.pattern]),
      [['full_attention', 10, 10000000, 64, 'attn_type_list']],
    );
    const a = analyze(text('minimax-m1.json'));
    assert.ok(
      a.diagnostics.every((d) => d.severity === 'information' || d.severity === 'hint'),
      JSON.stringify(a.diagnostics.map((d) => d.message)),
    );
  });

  it('MiMo-V2-Flash hybrid_layer_pattern: 9 full layers on rope_theta, 39 sliding on swa_rope_theta and swa_head_dim', () => {
    const rope = read(text('mimo-v2-flash.json')).rope!;
    assert.deepEqual(
      ropeGroups(rope).map((g) => [g.layerType, g.layers, g.base.value, g.base.key, g.rotaryDim.value, g.window?.value ?? null, g.pattern]),
      [
        ['full_attention', 9, 10000000, 'rope_theta', 64, null, 'hybrid_layer_pattern'],
        ['sliding_attention', 39, 10000, 'swa_rope_theta', 64, 128, 'hybrid_layer_pattern'],
      ],
    );
    // The sliding layers are judged at their 128-token window, the full layers at the context.
    const sliding = rope.groups!.find((g) => g.layerType === 'sliding_attention')!;
    assert.equal(sliding.reach, 128);
  });

  it('two bases and a pattern key the reader does not know: both groups, and the assumption said', () => {
    const cfg = JSON.parse(text('mimo-v2-flash.json'));
    delete cfg.hybrid_layer_pattern;
    cfg.layer_pattern = 'SSSSF';
    cfg.max_position_embeddings = 262144;
    const rope = read(JSON.stringify(cfg, null, 2)).rope!;
    const groups = ropeGroups(rope);
    assert.deepEqual(
      groups.map((g) => [g.layerType, g.layers, g.base.key]),
      [
        ['full_attention', null, 'rope_theta'],
        ['sliding_attention', null, 'swa_rope_theta'],
      ],
    );
    for (const g of groups) assert.match(g.pattern!, /^assumed: layer_pattern not understood; rope_theta and swa_rope_theta both set/);
    // The full layers reach the whole context: they are the ones judged there.
    assert.equal(groups[0].reach, 262144);
    const a = analyzeText(JSON.stringify(cfg, null, 2), { fileName: 'config.json', oracle });
    assert.ok(a.rope!.groups!.some((g) => g.layerType === 'full_attention' && g.pattern?.startsWith('assumed:')));
  });

  it('a window and one base, no pattern: every layer slides, and the JSON says it is assumed', () => {
    const rope = read(
      JSON.stringify({
        model_type: 'mistral',
        hidden_size: 4096,
        num_attention_heads: 32,
        num_hidden_layers: 32,
        max_position_embeddings: 32768,
        rope_theta: 10000,
        sliding_window: 4096,
      }),
    ).rope!;
    assert.deepEqual(
      rope.groups!.map((g) => [g.layerType, g.layers, g.reach]),
      [['sliding_attention', 32, 4096]],
    );
    assert.match(rope.groups![0].pattern!, /^assumed: sliding_window set and no layer pattern, so every layer slides/);
  });
});

describe('bases under their own prefixes', () => {
  it('global_rope_theta beside local_rope_theta and a window: the full group runs on the global base at the context', () => {
    const rope = read(
      JSON.stringify({
        model_type: 'somemodel',
        hidden_size: 2048,
        num_attention_heads: 16,
        num_hidden_layers: 24,
        max_position_embeddings: 131072,
        global_rope_theta: 1000000,
        local_rope_theta: 10000,
        sliding_window: 4096,
      }),
    ).rope!;
    const groups = ropeGroups(rope);
    assert.deepEqual(
      groups.map((g) => [g.layerType, g.base.key, g.base.value, g.reach]),
      [
        ['full_attention', 'global_rope_theta', 1000000, 131072],
        ['sliding_attention', 'local_rope_theta', 10000, 4096],
      ],
    );
    assert.match(groups[0].pattern!, /global_rope_theta and local_rope_theta both set/);
  });
});

describe('Jamba: the attention layers counted from its period and offset', () => {
  it('ai21labs/Jamba-v0.1 values: 4 of 32 layers attend, no RoPE', () => {
    const r = read(
      JSON.stringify({
        architectures: ['JambaForCausalLM'],
        model_type: 'jamba',
        hidden_size: 4096,
        num_hidden_layers: 32,
        num_attention_heads: 32,
        num_key_value_heads: 8,
        attn_layer_offset: 4,
        attn_layer_period: 8,
        max_position_embeddings: 262144,
      }),
    );
    assert.equal(r.rope, undefined);
    assert.match(r.noRope!, /\(Jamba\); 4 of its 32 layers attend \(every 8th from layer 4/);
  });
});
