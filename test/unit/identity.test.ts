/**
 * Model identity (advice.md, trained context T, order 2): `_name_or_path`, the Hugging Face cache
 * path, a training config's base model, then a fingerprint of architecture values. Fingerprints are
 * taken from real config files of the corpus (test/fixtures/corpus/models, sources in SOURCES.md).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { derivativeOf, fingerprintOf, hubIdFromCachePath, identifyModel, languageScope } from '../../shared/config/identity';
import { findCatalogEntry } from '../../shared/config/catalog';

const CORPUS = join(__dirname, '../fixtures/corpus/models');
const real = (f: string): Record<string, unknown> => {
  const o = JSON.parse(readFileSync(join(CORPUS, f), 'utf8')) as Record<string, unknown>;
  delete o['_name_or_path']; // identity must come from the values alone
  return o;
};
const fpOf = (config: Record<string, unknown>) => fingerprintOf(languageScope(config));

describe('model identity', () => {
  it('by _name_or_path: ids and aliases, case-insensitive, with the trained context and what the model shipped with', () => {
    const m = identifyModel({ nameOrPath: 'META-LLAMA/Meta-Llama-3-8B-Instruct' })!;
    assert.deepEqual(m.identity, { id: 'meta-llama/Meta-Llama-3-8B', via: '_name_or_path' });
    assert.deepEqual(m.trainedContext, { value: 8192, source: 'catalog:meta-llama/Meta-Llama-3-8B' });
    assert.deepEqual(m.shipped, { contextLength: 8192, base: 500000, scalingType: 'default' });
    const q = identifyModel({ nameOrPath: 'Qwen/Qwen2.5-7B' })!;
    assert.deepEqual(q.shipped, { contextLength: 131072, base: 1000000, scalingType: 'default' });
    assert.equal(q.trainedContext.value, 32768);
  });

  it('by _name_or_path: a local path ending in org/name, or in a name only one entry has', () => {
    assert.equal(identifyModel({ nameOrPath: '/home/me/models/Qwen/Qwen3-8B' })?.identity.id, 'Qwen/Qwen3-8B');
    assert.equal(identifyModel({ nameOrPath: 'C:\\ckpt\\Mistral-7B-Instruct-v0.3' })?.identity.id, 'mistralai/Mistral-7B-v0.3');
    assert.equal(identifyModel({ nameOrPath: '/data/tianduo/tinyllama-ft/checkpoint-3890' }), undefined);
  });

  it('by the Hugging Face cache path', () => {
    const path = '/home/me/.cache/huggingface/hub/models--google--gemma-2-9b-it/snapshots/1b2c3d/config.json';
    assert.equal(hubIdFromCachePath(path), 'google/gemma-2-9b-it');
    assert.equal(hubIdFromCachePath('C:\\Users\\me\\.cache\\huggingface\\hub\\models--Qwen--Qwen3-8B\\snapshots\\abc\\config.json'), 'Qwen/Qwen3-8B');
    assert.equal(hubIdFromCachePath('/srv/models/gemma/config.json'), undefined);
    const m = identifyModel({ filePath: path })!;
    assert.deepEqual(m.identity, { id: 'google/gemma-2-9b', via: 'path' });
    assert.equal(m.trainedContext.value, 8192);
  });

  it('by a training config base model, after _name_or_path and the cache path', () => {
    assert.deepEqual(identifyModel({ baseModel: 'NousResearch/Llama-2-7b-hf' })?.identity, { id: 'meta-llama/Llama-2-7b-hf', via: 'base_model' });
    const both = identifyModel({ nameOrPath: 'microsoft/phi-2', filePath: '/x/models--Qwen--Qwen3-8B/snapshots/a/config.json', baseModel: 'google/gemma-7b' })!;
    assert.equal(both.identity.via, '_name_or_path');
    assert.equal(both.identity.id, 'microsoft/phi-2');
    assert.equal(identifyModel({ nameOrPath: 'nobody/thing', baseModel: 'google/gemma-7b' })?.identity.via, 'base_model');
  });

  it('by fingerprint: a real config without _name_or_path matches exactly one model', () => {
    const m = identifyModel({ fingerprint: fpOf(real('gemma-2-9b.json')) })!;
    assert.deepEqual(m.identity, { id: 'google/gemma-2-9b', via: 'fingerprint', candidates: ['google/gemma-2-9b', 'google/gemma-2-9b-it'] });
    assert.equal(identifyModel({ fingerprint: fpOf(real('phi-4.json')) })?.identity.id, 'microsoft/phi-4');
    assert.equal(identifyModel({ fingerprint: fpOf(real('qwen3-30b-a3b.json')) })?.identity.id, 'Qwen/Qwen3-30B-A3B');
  });

  it('by fingerprint: the text_config of a multimodal config, ChatGLM spellings, v5 rope_parameters', () => {
    assert.equal(identifyModel({ fingerprint: fpOf(real('llama-4-scout-17b-16e.json')) })?.identity.id, 'meta-llama/Llama-4-Scout-17B-16E');
    const glm = fpOf(real('chatglm3-6b.json'));
    assert.deepEqual([glm.numHiddenLayers, glm.numKeyValueHeads, glm.intermediateSize, glm.vocabSize], [28, 2, 13696, 65024]);
    assert.equal(identifyModel({ fingerprint: glm })?.identity.id, 'THUDM/chatglm3-6b');
    const v5 = fpOf(real('llama-3.1-8b-v5-rope-parameters.json'));
    assert.equal(v5.ropeTheta, 500000);
    assert.equal(v5.scalingType, 'llama3');
    assert.equal(identifyModel({ fingerprint: v5 })?.identity.id, 'meta-llama/Llama-3.1-8B');
  });

  it('by fingerprint: twins that share every value (Llama-3-70B and its Instruct) are named together', () => {
    const m = identifyModel({ fingerprint: fpOf(findCatalogEntry('meta-llama/Meta-Llama-3-70B')!.config) })!;
    assert.equal(m.identity.id, 'meta-llama/Meta-Llama-3-70B');
    assert.deepEqual(m.identity.candidates, ['meta-llama/Meta-Llama-3-70B', 'meta-llama/Meta-Llama-3-70B-Instruct']);
    assert.equal(m.trainedContext.value, 8192);
  });

  it('by fingerprint: a Llama-3-70B whose context a user raised to 65,536 is still Llama-3-70B, T 8192', () => {
    const raised = { ...findCatalogEntry('meta-llama/Meta-Llama-3-70B')!.config, max_position_embeddings: 65536 };
    const m = identifyModel({ fingerprint: fpOf(raised) })!;
    assert.equal(m.identity.id, 'meta-llama/Meta-Llama-3-70B');
    assert.equal(m.trainedContext.value, 8192);
    assert.equal(m.shipped.contextLength, 8192);
  });

  it('by fingerprint: a scaling added to a model that shipped none, base unchanged, is still that model (situation 4)', () => {
    const yarn = {
      ...findCatalogEntry('meta-llama/Meta-Llama-3-70B')!.config,
      rope_scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 8192 },
    };
    const m = identifyModel({ fingerprint: fpOf(yarn) })!;
    assert.equal(m.identity.id, 'meta-llama/Meta-Llama-3-70B');
    assert.equal(m.trainedContext.value, 8192);
    // With its base raised as well, it is a derivative of its own.
    const raised = { ...yarn, rope_theta: 2000000 };
    assert.equal(identifyModel({ fingerprint: fpOf(raised) }), undefined);
    assert.ok(derivativeOf({ fingerprint: fpOf(raised) })!.differences.some((d) => d.startsWith('rope_theta 2,000,000')));
  });

  it('by fingerprint: a context other than the one a family shipped (Gemma-7B: 8,192 only) makes a derivative', () => {
    const gemma = real('gemma-7b.json');
    assert.equal(identifyModel({ fingerprint: fpOf(gemma), contextLength: 8192 })?.identity.id, 'google/gemma-7b');
    assert.equal(identifyModel({ fingerprint: fpOf(gemma), contextLength: 32768 }), undefined);
    assert.deepEqual(derivativeOf({ fingerprint: fpOf(gemma), contextLength: 32768 })?.differences, ['max_position_embeddings 32,768 (shipped 8,192)']);
    // A raised rope_theta alone is a derivative too; the scaling factor counts (LLaMA-2-7B-32K ships linear ×8).
    assert.equal(identifyModel({ fingerprint: fpOf({ ...gemma, rope_theta: 1000000 }), contextLength: 8192 }), undefined);
    const l32k = real('llama-2-7b-32k-linear.json');
    assert.equal(identifyModel({ fingerprint: fpOf(l32k), contextLength: 32768 })?.identity.id, 'togethercomputer/LLaMA-2-7B-32K');
    // Linear ×4 on the same body: not LLaMA-2-7B-32K (its factor is 8) but Llama-2-7B with a scaling
    // added (it shipped none), judged against the 4,096 it was trained at.
    const x4 = { ...l32k, rope_scaling: { type: 'linear', factor: 4.0 } };
    assert.equal(identifyModel({ fingerprint: fpOf(x4), contextLength: 32768 })?.identity.id, 'meta-llama/Llama-2-7b-hf');
  });

  it('by fingerprint: twins that agree on T but shipped different contexts are told apart by the declared context', () => {
    // Qwen2-7B-Instruct shipped 32,768 and Qwen2.5-7B 131,072 with the same architecture and base;
    // the stock Qwen2.5-7B config must be recognised as shipped, not as Qwen2 with a raised context.
    const qwen25 = real('qwen2.5-7b.json');
    const m = identifyModel({ fingerprint: fpOf(qwen25), contextLength: qwen25.max_position_embeddings as number })!;
    assert.equal(m.identity.id, 'Qwen/Qwen2.5-7B');
    assert.equal(m.shipped.contextLength, 131072);
    assert.equal(m.trainedContext.value, 32768);
    const asQwen2 = identifyModel({ fingerprint: fpOf(qwen25), contextLength: 32768 })!;
    assert.equal(asQwen2.shipped.contextLength, 32768);
  });

  it('by fingerprint: candidates that disagree on T give no identity', () => {
    // Qwen3-4B (T 32,768) and its 2507 releases (T 262,144) share the architecture; only rope_theta tells them apart.
    const base = { ...findCatalogEntry('Qwen/Qwen3-4B')!.config };
    assert.equal(identifyModel({ fingerprint: fpOf(base) })?.trainedContext.value, 32768);
    assert.equal(identifyModel({ fingerprint: fpOf({ ...base, rope_theta: 5000000 }) })?.trainedContext.value, 262144);
    assert.equal(identifyModel({ fingerprint: fpOf({ ...base, rope_theta: 2000000 }) }), undefined);
  });

  it('by fingerprint: too few values, or values of no known model, give no identity', () => {
    assert.equal(identifyModel({ fingerprint: { modelType: 'llama', hiddenSize: 4096, numAttentionHeads: 32 } }), undefined);
    assert.equal(identifyModel({ fingerprint: { modelType: 'llama', hiddenSize: 4096, numHiddenLayers: 31, numAttentionHeads: 32 } }), undefined);
    assert.equal(identifyModel({}), undefined);
  });

  it('no-RoPE models are identified without a base', () => {
    const m = identifyModel({
      fingerprint: fpOf({ model_type: 'bert', hidden_size: 768, num_hidden_layers: 12, num_attention_heads: 12, intermediate_size: 3072, vocab_size: 30522 }),
    })!;
    assert.equal(m.entries[0].noRope, true);
    assert.equal(m.shipped.base, undefined);
    assert.equal(m.shipped.contextLength, 512);
  });

  it('fingerprintOf: su is longrope, a scaling block of type default is no scaling', () => {
    assert.equal(fingerprintOf({ rope_scaling: { type: 'su', long_factor: [1], short_factor: [1] } }).scalingType, 'longrope');
    assert.equal(fingerprintOf({ rope_parameters: { rope_type: 'default', rope_theta: 10000 } }).scalingType, 'default');
    assert.equal(fingerprintOf({ rope_parameters: { rope_type: 'default', rope_theta: 10000 } }).ropeTheta, 10000);
    assert.deepEqual(fingerprintOf({ n_embd: 768, n_layer: 12, n_head: 12, model_type: 'gpt2' }), {
      modelType: 'gpt2',
      hiddenSize: 768,
      numHiddenLayers: 12,
      numAttentionHeads: 12,
      scalingType: 'default',
    });
  });
});
