import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { parseYamlDocument } from '../../shared/document/parseYaml';
import { valueRange } from '../../shared/document/configNode';
import { isModelConfig, readModelRope, toRopeSpec, variantRopeSpec } from '../../shared/config/modelConfig';
import { computeFrequencies } from '../../shared/rope/invFreq';
import { ModelRope } from '../../shared/config/modelRope';
import { RopeError } from '../../shared/core/errors';

const FIX = join(__dirname, '..', 'fixtures', 'models');
const load = (name: string) => parseJsonDocument(readFileSync(join(FIX, name), 'utf8'));
function rope(name: string): ModelRope {
  const r = readModelRope(load(name));
  assert.ok(r, `${name} should read as a model config`);
  return r;
}

describe('model config reader: real public configs', () => {
  it('Llama-2-7b: no rope_theta → default 10000 with a note; head 4096/32 = 128', () => {
    const r = rope('llama-2-7b.json');
    assert.equal(r.base.value, 10000);
    assert.equal(r.base.node, undefined);
    assert.match(r.base.note!, /rope_theta absent/);
    assert.equal(r.headDim.value, 128);
    assert.equal(r.rotaryDim.value, 128);
    assert.equal(r.contextLength.value, 4096);
    assert.equal(r.contextLength.key, 'max_position_embeddings');
    assert.equal(r.scaling, undefined, 'rope_scaling: null is no scaling');
    assert.equal(toRopeSpec(r).ropeType, 'default');
  });

  it('Llama-3.1-8B: llama3 block with its original context and positions', () => {
    const doc = load('llama-3.1-8b.json');
    const r = readModelRope(doc)!;
    assert.equal(r.base.value, 500000);
    assert.equal(r.base.key, 'rope_theta');
    assert.equal(doc.text.slice(r.base.node!.offset, r.base.node!.offset + r.base.node!.length), '500000.0');
    assert.equal(r.scaling!.type, 'llama3');
    assert.equal(r.scaling!.key, 'rope_scaling');
    assert.equal(r.originalContextLength!.value, 8192);
    assert.equal(r.originalContextLength!.key, 'rope_scaling.original_max_position_embeddings');
    assert.equal(r.topLevelOriginalContextLength, undefined);
    const spec = toRopeSpec(r);
    assert.deepEqual(
      [spec.factor, spec.lowFreqFactor, spec.highFreqFactor, spec.originalMaxPositionEmbeddings, spec.maxPositionEmbeddings],
      [8, 1, 4, 8192, 131072],
    );
  });

  it('Qwen2.5-7B-Instruct + the YaRN block Qwen documents (legacy `type`)', () => {
    const r = rope('qwen2.5-7b-instruct-yarn.json');
    assert.equal(r.headDim.value, 128); // 3584 / 28
    assert.match(r.headDim.note!, /3584 \/ 28/);
    assert.equal(r.scaling!.type, 'yarn');
    assert.equal(r.scaling!.rawType!.key, 'rope_scaling.type');
    assert.equal(r.slidingWindow, undefined, 'use_sliding_window: false');
    const f = computeFrequencies(toRopeSpec(r));
    assert.equal(f.attentionFactor, 0.1 * Math.log(4) + 1);
  });

  it('DeepSeek-V3: MLA rotary dim = qk_rope_head_dim 64, yarn with mscale', () => {
    const r = rope('deepseek-v3.json');
    assert.equal(r.rotaryDim.value, 64);
    assert.equal(r.rotaryDim.key, 'qk_rope_head_dim');
    const spec = toRopeSpec(r);
    assert.deepEqual([spec.ropeType, spec.factor, spec.mscale, spec.mscaleAllDim, spec.betaFast, spec.betaSlow], ['yarn', 40, 1, 1, 32, 1]);
    assert.equal(computeFrequencies(spec).invFreq.length, 32);
  });

  it('Phi-3-mini-128k: `su` → longrope, 48-long factor lists, top-level original context', () => {
    const r = rope('phi-3-mini-128k-instruct.json');
    assert.equal(r.scaling!.type, 'longrope');
    assert.equal(r.scaling!.rawType!.value, 'su');
    assert.equal(r.rotaryDim.value, 96); // 3072 / 32
    assert.equal(r.topLevelOriginalContextLength!.value, 4096);
    assert.equal(r.originalContextLength!.key, 'original_max_position_embeddings');
    const spec = toRopeSpec(r);
    assert.equal(spec.shortFactor!.length, 48);
    assert.equal(spec.longFactor!.length, 48);
    assert.equal(spec.longFactor![47], 64.81001281738281);
    const f = computeFrequencies(spec, { seqLen: 131072 });
    assert.equal(f.usedLongFactor, true);
    assert.equal(f.attentionFactor, Math.sqrt(1 + Math.log(32) / Math.log(4096)));
    assert.equal(r.slidingWindow!.value, 262144);
  });

  it('Gemma-7b: head_dim 256 although 3072 / 16 = 192', () => {
    const r = rope('gemma-7b.json');
    assert.equal(r.headDim.value, 256);
    assert.equal(r.headDim.key, 'head_dim');
    assert.equal(r.rotaryDim.value, 256);
    assert.equal(toRopeSpec(r).rotaryDim, 256);
  });

  it('GPT-NeoX-20B: rotary_emb_base and rotary_pct 0.25 of 96 → 24', () => {
    const r = rope('gpt-neox-20b.json');
    assert.equal(r.base.key, 'rotary_emb_base');
    assert.equal(r.base.value, 10000);
    assert.equal(r.partialRotaryFactor.key, 'rotary_pct');
    assert.equal(r.headDim.value, 96);
    assert.equal(r.rotaryDim.value, 24);
  });

  it('Phi-2: partial_rotary_factor 0.4 of 80 → 32', () => {
    const r = rope('phi-2.json');
    assert.equal(r.headDim.value, 80);
    assert.equal(r.partialRotaryFactor.value, 0.4);
    assert.equal(r.rotaryDim.value, 32);
    assert.equal(computeFrequencies(toRopeSpec(r)).invFreq.length, 16);
  });

  it('Gemma-3-4b (multimodal): text_config values, local base for sliding layers', () => {
    const r = rope('gemma-3-4b-it.json');
    assert.equal(r.modelType, 'gemma3_text');
    assert.equal(r.base.value, 1e6);
    assert.equal(r.base.key, 'text_config.rope_theta');
    assert.equal(r.headDim.value, 256);
    assert.equal(r.contextLength.value, 131072);
    assert.equal(r.scaling!.type, 'linear');
    assert.equal(r.scaling!.key, 'text_config.rope_scaling');
    assert.equal(r.slidingWindow!.value, 1024);
    const local = r.layerVariants!.find((v) => v.layerType === 'sliding_attention')!;
    assert.equal(local.base.value, 10000);
    assert.equal(local.base.key, 'text_config.rope_local_base_freq');
    assert.equal(variantRopeSpec(r, 'sliding_attention')!.ropeType, 'default');
  });

  it('ChatGLM3-6b (tabs, CRLF): seq_length context, half of kv_channels rotates', () => {
    const doc = load('chatglm3-6b.json');
    const r = readModelRope(doc)!;
    assert.equal(r.contextLength.value, 8192);
    assert.equal(r.contextLength.key, 'seq_length');
    assert.equal(r.headDim.value, 128);
    assert.equal(r.rotaryDim.value, 64);
    assert.match(r.rotaryDim.note!, /half/);
    assert.equal(r.base.value, 10000);
    // Positions survive CRLF + tabs: the seq_length value sits on its own line.
    const range = valueRange(doc, r.contextLength.node!);
    const line = doc.text.split('\r\n')[range.start.line];
    assert.equal(line.slice(range.start.character, range.end.character), '8192');
  });

  it('ChatGLM rope_ratio: base = 10000 × ratio, node kept', () => {
    const doc = parseJsonDocument('{"model_type": "chatglm", "kv_channels": 128, "num_attention_heads": 32, "seq_length": 32768, "rope_ratio": 50}');
    const r = readModelRope(doc)!;
    assert.equal(r.base.value, 500000);
    assert.equal(r.base.key, 'rope_ratio');
    assert.match(r.base.note!, /10000 × rope_ratio/);
  });

  it('Qwen-1 (Qwen-7B): rotary_emb_base, kv_channels × rotary_pct, dynamic-NTK and log-n flags', () => {
    const r = rope('qwen-7b.json');
    assert.equal(r.base.value, 10000);
    assert.equal(r.rotaryDim.value, 128);
    assert.equal(r.contextLength.value, 8192);
    assert.equal(r.contextLength.key, 'seq_length');
    assert.equal(r.useDynamicNtk!.value, true);
    assert.equal(r.useLognAttn!.value, true);
    assert.equal(toRopeSpec(r).ropeType, 'default');
  });

  it('v5 rope_parameters (one-line dump): base and llama3 parameters inside the dict', () => {
    const r = rope('llama-3.1-8b-v5.json');
    assert.equal(r.base.value, 500000);
    assert.equal(r.base.key, 'rope_parameters.rope_theta');
    assert.equal(r.scaling!.type, 'llama3');
    assert.equal(r.scaling!.key, 'rope_parameters');
    assert.equal(r.originalContextLength!.value, 8192);
  });

  it('v5 per-layer-type rope_parameters: full_attention is the main spec, sliding_attention a variant', () => {
    const r = rope('gemma-3-4b-v5.json');
    assert.equal(r.base.value, 1e6);
    assert.equal(r.base.key, 'rope_parameters.full_attention.rope_theta');
    assert.equal(r.scaling!.type, 'linear');
    const sliding = r.layerVariants!.find((v) => v.layerType === 'sliding_attention')!;
    assert.equal(sliding.base.value, 10000);
    assert.equal(sliding.scaling!.type, 'default');
    assert.equal(toRopeSpec(r).factor, 8);
  });
});

describe('model config reader: spellings and edge cases', () => {
  const read = (text: string) => readModelRope(parseJsonDocument(text));

  it('numbers written as strings are numbers, with the node kept', () => {
    const r = read('{"model_type": "llama", "rope_theta": "1e6", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": "32_768"}')!;
    assert.equal(r.base.value, 1e6);
    assert.equal(r.base.node!.kind, 'string');
    assert.equal(r.contextLength.value, 32768);
  });

  it('head_dim: null falls back to hidden / heads', () => {
    const r = read('{"model_type": "mistral", "head_dim": null, "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 1e6}')!;
    assert.equal(r.headDim.value, 128);
  });

  it('Phi-3-small rope_embedding_base, DBRX attn_config.rope_theta, GPT-J rotary_dim', () => {
    assert.equal(
      read('{"model_type": "phi3small", "rope_embedding_base": 1000000, "hidden_size": 4096, "num_attention_heads": 32}')!.base.key,
      'rope_embedding_base',
    );
    const dbrx = read('{"model_type": "dbrx", "d_model": 6144, "n_heads": 48, "max_seq_len": 32768, "attn_config": {"rope_theta": 500000}}')!;
    assert.equal(dbrx.base.value, 500000);
    assert.equal(dbrx.base.key, 'attn_config.rope_theta');
    assert.equal(dbrx.headDim.value, 128);
    assert.equal(dbrx.contextLength.key, 'max_seq_len');
    const gptj = read('{"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64, "n_positions": 2048}')!;
    assert.equal(gptj.rotaryDim.value, 64);
    assert.equal(gptj.partialRotaryFactor.value, 0.25);
    assert.equal(gptj.contextLength.key, 'n_positions');
  });

  it('mrope is multimodal, not length scaling: type default, raw type kept', () => {
    const r = read(
      '{"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}',
    )!;
    assert.equal(r.scaling!.type, 'default');
    assert.equal(r.scaling!.rawType!.value, 'mrope');
    assert.match(r.scaling!.rawType!.note!, /not length scaling/);
    assert.equal(toRopeSpec(r).ropeType, 'default');
  });

  it('type and rope_type both set: rope_type wins, the legacy one is reported', () => {
    const r = read(
      '{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_scaling": {"type": "linear", "rope_type": "dynamic", "factor": 2}}',
    )!;
    assert.equal(r.scaling!.type, 'dynamic');
    assert.equal(r.scaling!.legacyType!.value, 'linear');
  });

  it('an unknown type is undefined in the description and a RopeError in toRopeSpec', () => {
    const r = read('{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_scaling": {"rope_type": "ntk-by-magic", "factor": 2}}')!;
    assert.equal(r.scaling!.type, undefined);
    assert.throws(
      () => toRopeSpec(r),
      (e: unknown) => e instanceof RopeError && e.code === 'unknown-rope-type' && /ntk-by-magic/.test(e.message),
    );
  });

  it('absent context → the config class default (MixtralConfig: 4096 × 32), else 2048, with a note; mixtral default base 1e6', () => {
    const r = read('{"model_type": "mixtral", "hidden_size": 4096, "num_attention_heads": 32}')!;
    assert.equal(r.contextLength.value, 4096 * 32);
    assert.ok(r.contextLength.note);
    assert.equal(r.base.value, 1e6);
    const llama = read('{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32}')!;
    assert.equal(llama.contextLength.value, 2048); // LlamaConfig(max_position_embeddings=2048)
    assert.ok(llama.contextLength.note);
  });

  it('a YAML model config with model_type is read too', () => {
    const r = readModelRope(
      parseYamlDocument('model_type: llama\nhidden_size: 4096\nnum_attention_heads: 32\nrope_theta: 500_000\nmax_position_embeddings: 8192\n'),
    )!;
    assert.equal(r.base.value, 500000);
  });
});

describe('model config reader: documents that are not model configs', () => {
  for (const name of ['package.json', 'tsconfig.json', 'tokenizer_config.json', 'tokenizer.json']) {
    it(`${name} → undefined`, () => {
      const doc = load(join('not-models', name));
      assert.equal(isModelConfig(doc), false);
      assert.equal(readModelRope(doc), undefined);
    });
  }
  for (const name of ['ci.yaml', 'axolotl.yaml']) {
    it(`${name} → undefined`, () => {
      const doc = parseYamlDocument(readFileSync(join(FIX, 'not-models', name), 'utf8'));
      assert.equal(readModelRope(doc), undefined);
    });
  }
  it('empty, array and scalar documents → undefined', () => {
    for (const text of ['', '[]', '42', '{']) assert.equal(readModelRope(parseJsonDocument(text)), undefined);
  });
});
