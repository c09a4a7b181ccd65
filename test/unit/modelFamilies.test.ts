/**
 * Model knowledge by family and generation (issue 40, part 1): families.json and its schema, model
 * names in every form they are written (hub ids, repacks, GGUF files, cache paths, LitGPT names),
 * family descriptions checked against real config files, identity that names a family when no entry
 * has all of a file's values, and real model ids that launches must judge rather than leave unread.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { FAMILIES, familyEntryFor, generationOf, sizeOf } from '../../shared/config/modelFamilies';
import { modelNameOf, stripRepack } from '../../shared/config/modelName';
import { findCatalogEntry, findListedEntry } from '../../shared/config/catalog';
import { fingerprintOf, identifyModel, languageScope } from '../../shared/config/identity';
import { readModelConfig } from '../../shared/config/modelConfig';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { catalogResolver } from '../../shared/config/resolve';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { shellFileOf } from './helpers/invocation';
import { said } from './helpers/findingText';
import { validate } from './helpers/jsonSchemaLite';

const ROOT = join(__dirname, '../..');
const CATALOG_DIR = join(ROOT, 'shared/config/catalog');
const CORPUS = join(ROOT, 'test/fixtures/corpus/models');
const FAMILY_FIXTURES = join(ROOT, 'test/fixtures/families');
const readJson = (p: string): Record<string, unknown> => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;

describe('model families (families.json)', () => {
  const data = readJson(join(CATALOG_DIR, 'families.json'));
  const schema = readJson(join(CATALOG_DIR, 'families.schema.json'));

  it('validates against its schema, and the schema rejects a generation without a source or a trained-context source', () => {
    assert.deepEqual(validate(data, schema), []);
    const good = FAMILIES[0].generations[0];
    const { source: _s, ...noSource } = good;
    const noTSource = { ...good, trainedContext: { value: 32768, source: 'Qwen said so' } };
    for (const bad of [noSource, noTSource, { ...good, match: '' }]) {
      const fam = { ...FAMILIES[0], generations: [bad] };
      assert.notDeepEqual(validate({ families: [fam] }, schema), [], JSON.stringify(bad).slice(0, 100));
    }
  });

  it('covers the current families, and every corpus file a generation cites exists', () => {
    const names = FAMILIES.flatMap((f) => f.generations.map((g) => g.name));
    for (const n of [
      'Qwen2.5',
      'Qwen2.5-VL',
      'QwQ',
      'Qwen3',
      'Qwen3-2507',
      'Qwen3.5',
      'Llama-3.1',
      'Llama-3.3',
      'Llama-4-Scout',
      'Gemma-2',
      'Gemma-3',
      'Gemma-4',
    ]) {
      assert.ok(names.includes(n), `${n} missing`);
    }
    for (const n of [
      'Mistral-Small-3.1',
      'DeepSeek-V3',
      'Kimi-K2',
      'GLM-4.7',
      'GLM-5',
      'MiniMax-M2',
      'gpt-oss',
      'OLMo-3',
      'SmolLM3',
      'ERNIE-4.5',
      'Seed-OSS',
      'Nemotron-H',
    ]) {
      assert.ok(names.includes(n), `${n} missing`);
    }
    // Added after issue 40 from real configs (test/fixtures/families/README.md).
    for (const n of [
      'Qwen3-Coder',
      'Qwen3-VL',
      'Qwen3-Next',
      'Qwen3.6',
      'Kimi-K2.5',
      'Kimi-K3',
      'MiniMax-M2.5',
      'MiniMax-M3',
      'GLM-4.5',
      'GLM-5.1',
      'GLM-5.2',
      'GLM-5.3',
      'Mixtral',
      'MiMo-V2-Flash',
      'Llama-3.3-Nemotron-Super',
      'Nemotron-3',
    ]) {
      assert.ok(names.includes(n), `${n} missing`);
    }
    for (const g of FAMILIES.flatMap((f) => f.generations)) {
      for (const ref of g.verified ?? []) {
        if (ref.startsWith('corpus:')) assert.ok(existsSync(join(CORPUS, ref.slice('corpus:'.length))), `${g.name}: ${ref} is not in the corpus`);
      }
    }
  });

  /**
   * A real config, and the model it is: the family's description of that model must state the
   * real file's value for every RoPE key the description has (language-model scope).
   */
  const REAL: [string, string][] = [
    [join(CORPUS, 'qwen2.5-7b.json'), 'Qwen/Qwen2.5-7B'],
    [join(CORPUS, 'qwen2.5-vl-7b-mrope.json'), 'Qwen/Qwen2.5-VL-7B-Instruct'],
    [join(CORPUS, 'qwen3-8b.json'), 'Qwen/Qwen3-8B'],
    [join(CORPUS, 'qwen3-30b-a3b.json'), 'Qwen/Qwen3-30B-A3B'],
    [join(CORPUS, 'qwen3-4b-instruct-2507.json'), 'Qwen/Qwen3-4B-Instruct-2507'],
    [join(FAMILY_FIXTURES, 'qwen3.5-27b.json'), 'Qwen/Qwen3.5-27B'],
    [join(FAMILY_FIXTURES, 'qwen3.5-35b-a3b.json'), 'Qwen/Qwen3.5-35B-A3B'],
    [join(CORPUS, 'meta-llama-3-8b.json'), 'meta-llama/Meta-Llama-3-8B'],
    [join(CORPUS, 'meta-llama-3.1-8b-instruct.json'), 'meta-llama/Llama-3.1-8B-Instruct'],
    [join(CORPUS, 'llama-3.2-1b-instruct.json'), 'meta-llama/Llama-3.2-1B-Instruct'],
    [join(CORPUS, 'llama-3.2-3b-instruct-tabs-crlf.json'), 'meta-llama/Llama-3.2-3B-Instruct'],
    [join(CORPUS, 'llama-4-scout-17b-16e.json'), 'meta-llama/Llama-4-Scout-17B-16E'],
    [join(CORPUS, 'gemma-2-9b.json'), 'google/gemma-2-9b'],
    [join(CORPUS, 'gemma-3-1b-it.json'), 'google/gemma-3-1b-it'],
    [join(CORPUS, 'gemma-3-27b-it-multimodal.json'), 'google/gemma-3-27b-it'],
    [join(CORPUS, 'gemma-4-26b-a4b-text-v5.json'), 'google/gemma-4-26B-A4B'],
    [join(FAMILY_FIXTURES, 'gemma-4-31b.json'), 'google/gemma-4-31B'],
    [join(CORPUS, 'deepseek-v3.json'), 'deepseek-ai/DeepSeek-V3'],
    [join(CORPUS, 'gpt-oss-20b.json'), 'openai/gpt-oss-20b'],
    [join(CORPUS, 'gpt-oss-120b.json'), 'openai/gpt-oss-120b'],
    [join(CORPUS, 'olmo-2-1124-7b.json'), 'allenai/OLMo-2-1124-7B'],
    [join(CORPUS, 'olmo-3.1-32b-instruct.json'), 'allenai/Olmo-3.1-32B-Instruct'],
    [join(FAMILY_FIXTURES, 'qwen3-coder-480b-a35b-instruct.json'), 'Qwen/Qwen3-Coder-480B-A35B-Instruct'],
    [join(FAMILY_FIXTURES, 'qwen3-coder-30b-a3b-instruct.json'), 'Qwen/Qwen3-Coder-30B-A3B-Instruct'],
    [join(FAMILY_FIXTURES, 'qwen3-vl-32b-instruct.json'), 'Qwen/Qwen3-VL-32B-Instruct'],
    [join(FAMILY_FIXTURES, 'qwen3-vl-30b-a3b-instruct.json'), 'Qwen/Qwen3-VL-30B-A3B-Instruct'],
    [join(FAMILY_FIXTURES, 'qwen3-next-80b-a3b-thinking.json'), 'Qwen/Qwen3-Next-80B-A3B-Instruct'],
    [join(FAMILY_FIXTURES, 'qwen3.6-35b-a3b.json'), 'Qwen/Qwen3.6-35B-A3B'],
    [join(FAMILY_FIXTURES, 'kimi-k2.5.json'), 'moonshotai/Kimi-K2.5'],
    [join(FAMILY_FIXTURES, 'minimax-m2.5.json'), 'MiniMaxAI/MiniMax-M2.5'],
    [join(FAMILY_FIXTURES, 'minimax-m2.7.json'), 'MiniMaxAI/MiniMax-M2.7'],
    [join(FAMILY_FIXTURES, 'minimax-m3.json'), 'MiniMaxAI/MiniMax-M3'],
    [join(FAMILY_FIXTURES, 'glm-4.5-air.json'), 'zai-org/GLM-4.5-Air'],
    [join(FAMILY_FIXTURES, 'glm-5.json'), 'zai-org/GLM-5'],
    [join(FAMILY_FIXTURES, 'glm-5.1.json'), 'zai-org/GLM-5.1'],
    [join(FAMILY_FIXTURES, 'glm-5.2.json'), 'zai-org/GLM-5.2'],
    [join(CORPUS, 'mixtral-8x7b-v0.1.json'), 'mistralai/Mixtral-8x7B-Instruct-v0.1'],
    [join(FAMILY_FIXTURES, 'mixtral-8x22b-v0.1.json'), 'mistralai/Mixtral-8x22B-Instruct-v0.1'],
    [join(FAMILY_FIXTURES, 'deepseek-v3.2.json'), 'deepseek-ai/DeepSeek-V3.2'],
    [join(FAMILY_FIXTURES, 'mimo-v2-flash.json'), 'XiaomiMiMo/MiMo-V2-Flash'],
    [join(FAMILY_FIXTURES, 'llama-3.3-nemotron-super-49b-v1.json'), 'nvidia/Llama-3_3-Nemotron-Super-49B-v1'],
  ];
  const ROPE_KEYS = [
    'model_type',
    'max_position_embeddings',
    'rope_theta',
    'rope_scaling',
    'rope_parameters',
    'head_dim',
    'qk_rope_head_dim',
    'partial_rotary_factor',
    'sliding_window',
    'rope_local_base_freq',
  ];

  it('a family description states the real config value of every RoPE key it has', () => {
    const wrong: string[] = [];
    for (const [file, id] of REAL) {
      const real = languageScope(readJson(file));
      const e = familyEntryFor(id);
      assert.ok(e?.assumedFrom, `${id}: no family`);
      const described = languageScope(e.config);
      // A text-only copy of a multimodal model names the text model's type at its root.
      if (real['model_type'] !== undefined && described !== e.config) described['model_type'] ??= real['model_type'];
      for (const k of ROPE_KEYS) {
        if (!(k in described) || !(k in real)) continue;
        // A multimodal family names the text model's type in its text_config; a text-only copy names the same.
        if (!isDeepStrictEqual(described[k], real[k])) wrong.push(`${id} ${k}: ${JSON.stringify(described[k])} vs real ${JSON.stringify(real[k])}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('each real config is read with the same base, rotary dimension and context as its family description', () => {
    const rope = (text: string) => readModelConfig(parseJsonDocument(text))!.rope!;
    for (const [file, id] of REAL) {
      const real = rope(readFileSync(file, 'utf8'));
      const e = familyEntryFor(id)!;
      const described = rope(JSON.stringify(e.config));
      assert.equal(described.base.value, real.base.value, `${id} base`);
      assert.equal(described.rotaryDim.value, real.rotaryDim.value, `${id} rotary dim`);
      if (real.contextLength.key !== undefined) assert.equal(described.contextLength.value, real.contextLength.value, `${id} context`);
    }
  });
});

describe('model names in every form', () => {
  it('hub ids, repacks, GGUF files (quantisation and split suffixes), cache paths and folders give the model name', () => {
    assert.deepEqual(modelNameOf('Qwen/Qwen2.5-7B-Instruct'), { org: 'Qwen', name: 'Qwen2.5-7B-Instruct', stripped: [], hubId: 'Qwen/Qwen2.5-7B-Instruct' });
    assert.equal(modelNameOf('Qwen/Qwen2.5-7B-Instruct-AWQ')?.name, 'Qwen2.5-7B-Instruct');
    assert.equal(modelNameOf('Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4')?.name, 'Qwen2.5-72B-Instruct');
    assert.equal(modelNameOf('unsloth/Qwen3-8B-unsloth-bnb-4bit')?.name, 'Qwen3-8B');
    assert.equal(modelNameOf('mlx-community/Qwen3-30B-A3B-Instruct-2507-4bit')?.name, 'Qwen3-30B-A3B-Instruct-2507');
    assert.equal(modelNameOf('RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic')?.name, 'Llama-3.3-70B-Instruct');
    assert.equal(modelNameOf('/models/Qwen2.5-7B-Instruct-sql-Q8_0.gguf')?.name, 'Qwen2.5-7B-Instruct-sql');
    assert.equal(modelNameOf('gpt-oss-120b-MXFP4-00001-of-00002.gguf')?.name, 'gpt-oss-120b');
    assert.equal(modelNameOf('DeepSeek-V3.1-UD-Q2_K_XL.gguf')?.name, 'DeepSeek-V3.1');
    assert.equal(modelNameOf('Llama-3.2-3B-Instruct.IQ3_XS.gguf')?.name, 'Llama-3.2-3B-Instruct');
    assert.deepEqual(modelNameOf('bartowski/Qwen2.5-7B-Instruct-GGUF')?.stripped, ['-GGUF']);
    const cache = modelNameOf('/root/.cache/huggingface/hub/models--Qwen--Qwen3-30B-A3B/snapshots/0123abcd/config.json')!;
    assert.equal(cache.hubId, 'Qwen/Qwen3-30B-A3B');
    assert.equal(modelNameOf('C:\\hf\\hub\\models--Qwen--Qwen3-8B')?.hubId, 'Qwen/Qwen3-8B');
    assert.equal(modelNameOf('examples/qwen2.5-7b-instruct/config.json')?.name, 'qwen2.5-7b-instruct');
    assert.equal(modelNameOf('hf.co/bartowski/Qwen2.5-7B-Instruct-GGUF:Q4_K_M')?.name, 'Qwen2.5-7B-Instruct');
    // An engine's own tag is not a name to read (Ollama's library naming is the engine module's).
    assert.equal(modelNameOf('qwen2.5-coder:14b'), undefined);
    assert.equal(modelNameOf(''), undefined);
    // A file that is only a quantisation tag keeps its name.
    assert.equal(stripRepack('Q8_0').name, 'Q8_0');
  });

  it('sizes: dense, MoE, experts, millions', () => {
    assert.equal(sizeOf('Qwen2.5-72B-Instruct'), '72B');
    assert.equal(sizeOf('Qwen3-30B-A3B-Instruct-2507'), '30B-A3B');
    assert.equal(sizeOf('Mixtral-8x7B-v0.1'), '8x7B');
    assert.equal(sizeOf('SmolLM2-135M'), '135M');
    assert.equal(sizeOf('gpt-oss'), undefined);
  });

  it('the longest generation wins: VL over the text line, 2507 over Qwen3, Distill-Qwen is not DeepSeek-V3', () => {
    assert.equal(generationOf('Qwen2.5-VL-72B-Instruct')?.generation.name, 'Qwen2.5-VL');
    assert.equal(generationOf('Qwen2.5-Coder-32B-Instruct')?.generation.name, 'Qwen2.5');
    assert.equal(generationOf('Qwen3-235B-A22B-Instruct-2507')?.generation.name, 'Qwen3-2507');
    assert.equal(generationOf('Qwen3-235B-A22B')?.generation.name, 'Qwen3');
    assert.equal(generationOf('Hermes-3-Llama-3.1-8B')?.generation.name, 'Llama-3.1');
    assert.equal(generationOf('Meta-Llama-3-8B-Instruct')?.generation.name, 'Llama-3');
    assert.equal(generationOf('DeepSeek-R1-0528')?.generation.name, 'DeepSeek-V3');
    assert.equal(generationOf('DeepSeek-R1-Distill-Qwen-32B'), undefined);
    assert.equal(generationOf('gemma-3-1b-it')?.generation.name, 'Gemma-3 1B');
    assert.equal(generationOf('gemma-3-12b-it')?.generation.name, 'Gemma-3');
    assert.equal(generationOf('Qwen2.5-Math-7B'), undefined);
  });

  it('any size, variant, repack or fine-tune of a generation resolves from the family, the assumption said', () => {
    const e = findCatalogEntry('unsloth/Qwen2.5-72B-Instruct-bnb-4bit')!;
    assert.equal(e.id, 'Qwen/Qwen2.5-72B-Instruct'); // listed entries win over the family
    assert.equal(e.assumedFrom, undefined);
    const base = findCatalogEntry('Qwen/Qwen2.5-72B')!;
    assert.equal(base.assumedFrom?.generation, 'Qwen2.5');
    assert.equal(base.trainedContext.value, 32768);
    assert.equal(languageScope(base.config)['max_position_embeddings'], 131072); // base checkpoints declare 131,072
    assert.deepEqual(base.assumedFrom?.recipe?.scaling, { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 });
    assert.ok(base.assumedFrom!.assumed.includes('trained at 32,768'), base.assumedFrom!.assumed.join(', '));
    const moe = findCatalogEntry('Qwen/Qwen3-30B-A3B-Instruct-2507-FP8')!;
    assert.equal(moe.assumedFrom?.generation, 'Qwen3-2507');
    assert.equal(moe.config['model_type'], 'qwen3_moe');
    assert.equal(moe.trainedContext.value, 262144);
    const gguf = findCatalogEntry('Qwen2.5-7B-Instruct-sql-Q8_0.gguf')!;
    assert.equal(gguf.assumedFrom?.generation, 'Qwen2.5');
    assert.equal(findCatalogEntry('NousResearch/Hermes-3-Llama-3.1-8B')?.assumedFrom?.generation, 'Llama-3.1');
    // Where the size decides head_dim and no value is known for it, 128 is assumed and said.
    assert.match(findCatalogEntry('baidu/ERNIE-4.5-0.3B-PT')!.assumedFrom!.assumed.join(', '), /head dimension unknown for 0\.3B: 128 assumed/);
    assert.match(findCatalogEntry('google/gemma-2-27b-it-GGUF')!.id, /gemma-2-27b/);
    // A model with no rotary embedding keeps none.
    assert.equal(findCatalogEntry('nvidia/Nemotron-H-8B-Base-8K')?.noRope, true);
  });

  it('fine-tunes that changed the context or positions, and names of no known generation, do not resolve from a family', () => {
    for (const id of [
      'gradientai/Llama-3-8B-Instruct-Gradient-1048k',
      'gradientai/llama3-8b-stage65k-chat',
      'Qwen/Qwen2.5-7B-Instruct-1M',
      'NousResearch/Yarn-Llama-2-7b-128k',
      'deepseek-ai/DeepSeek-R1-Distill-Qwen-32B',
      'my-org/my-model',
    ]) {
      assert.equal(findCatalogEntry(id)?.assumedFrom, undefined, id);
    }
    // The catalog's own entries are never replaced: a listed name stays listed.
    assert.equal(findListedEntry('meta-llama/Llama-3.1-8B')?.id, 'meta-llama/Llama-3.1-8B');
  });

  it('LitGPT built-in names (no org) resolve like hub names', () => {
    assert.equal(findCatalogEntry('Llama-3.1-8B')?.id, 'meta-llama/Llama-3.1-8B');
    assert.equal(findCatalogEntry('Qwen2.5-7B-Instruct')?.id, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(findCatalogEntry('Qwen2.5-14B-Instruct')?.id, 'Qwen/Qwen2.5-14B-Instruct');
    assert.equal(findCatalogEntry('Llama-3.3-70B-Instruct')?.id, 'meta-llama/Llama-3.3-70B-Instruct');
    assert.equal(findCatalogEntry('Qwen2.5-Coder-32B-Instruct')?.assumedFrom?.generation, 'Qwen2.5');
    assert.equal(findCatalogEntry('SmolLM2-1.7B-Instruct')?.id, 'HuggingFaceTB/SmolLM2-1.7B');
  });
});

describe('identity names the family when no entry has every value (issue 40)', () => {
  const rope = (file: string, filePath?: string) => readModelConfig(parseJsonDocument(readFileSync(file, 'utf8')), { filePath })!.rope!;
  const withoutName = (o: Record<string, unknown>) => {
    const { _name_or_path: _n, ...rest } = o;
    return rest;
  };

  it('examples/qwen2.5-7b-instruct is Qwen2.5-7B-Instruct, not its twin Qwen2-7B-Instruct', () => {
    const file = join(ROOT, 'examples/qwen2.5-7b-instruct/config.json');
    const r = rope(file, file);
    assert.equal(r.identity?.id, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(r.trainedContext?.value, 32768);
    // Without the folder's name the two twins share every value and are named together.
    const bare = identifyModel({ fingerprint: fingerprintOf(readJson(file)), contextLength: 32768 })!;
    assert.ok(bare.identity.candidates?.includes('Qwen/Qwen2-7B-Instruct') && bare.identity.candidates?.includes('Qwen/Qwen2.5-7B-Instruct'));
  });

  it('a Llama-3.1-8B config without its scaling at 262,144 is the Llama 3 family, not Llama-3-8B', () => {
    const real = withoutName(readJson(join(CORPUS, 'meta-llama-3.1-8b-instruct.json')));
    const { rope_scaling: _s, ...noScaling } = real;
    const text = JSON.stringify({ ...noScaling, max_position_embeddings: 262144 });
    const r = readModelConfig(parseJsonDocument(text))!.rope!;
    assert.equal(r.identity?.family, 'Llama 3');
    assert.ok(r.identity?.candidates?.includes('meta-llama/Meta-Llama-3-8B') && r.identity?.candidates?.includes('meta-llama/Llama-3.1-8B'));
    assert.equal(r.trainedContext?.value, 8192);
    // Its own shipped context (131,072) without the scaling is the lost-scaling case, still Llama-3.1.
    const lost = readModelConfig(parseJsonDocument(JSON.stringify(noScaling)))!.rope!;
    assert.equal(lost.identity?.id, 'meta-llama/Llama-3.1-8B');
    assert.equal(lost.identity?.family, undefined);
  });

  it('a Llama-1-shaped config (2,048, base 10,000) is LLaMA-1, trained at 2,048, not Llama-2-7b at 4,096', () => {
    const llama2 = withoutName(readJson(join(CORPUS, 'llama-2-7b-hf.json')));
    const r = readModelConfig(parseJsonDocument(JSON.stringify({ ...llama2, max_position_embeddings: 2048 })))!.rope!;
    assert.equal(r.identity?.id, 'huggyllama/llama-7b');
    assert.equal(r.trainedContext?.value, 2048);
    // Llama-2's own 4,096 is still Llama-2.
    const r2 = readModelConfig(parseJsonDocument(JSON.stringify(llama2)))!.rope!;
    assert.equal(r2.identity?.id, 'meta-llama/Llama-2-7b-hf');
    assert.equal(r2.trainedContext?.value, 4096);
  });

  it('a config naming a family member by _name_or_path is that member when its values are the family’s, else its own', () => {
    const qwen = withoutName(readJson(join(CORPUS, 'qwen2.5-7b.json')));
    const named = readModelConfig(parseJsonDocument(JSON.stringify({ _name_or_path: 'Qwen/Qwen2.5-7B-Math-Tutor', ...qwen })))!.rope!;
    assert.equal(named.identity?.family, 'Qwen2.5');
    assert.equal(named.trainedContext?.value, 32768);
    const own = readModelConfig(parseJsonDocument(JSON.stringify({ _name_or_path: 'someone/Qwen2.5-7B-long', ...qwen, rope_theta: 10000000 })))!.rope!;
    assert.equal(own.identity, null);
  });
});

/**
 * Real model ids of the families above, as launches name them (hub ids, repacks, GGUF repos), each
 * served past or within what the model was trained at. Every one must be judged: resolved offline,
 * with a trained context, never "not found offline".
 */
export const REAL_IDS = [
  'Qwen/Qwen2.5-72B-Instruct',
  'Qwen/Qwen2.5-72B-Instruct-AWQ',
  'Qwen/Qwen2.5-Coder-32B-Instruct',
  'Qwen/Qwen2.5-VL-72B-Instruct',
  'Qwen/QwQ-32B',
  'Qwen/Qwen3-30B-A3B-Instruct-2507',
  'Qwen/Qwen3-235B-A22B-Thinking-2507-FP8',
  'Qwen/Qwen3-32B',
  'Qwen/Qwen3.5-27B',
  'Qwen/Qwen3.5-397B-A17B',
  'meta-llama/Llama-3.1-8B-Instruct',
  'meta-llama/Llama-3.3-70B-Instruct',
  'RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic',
  'meta-llama/Llama-4-Scout-17B-16E-Instruct',
  'google/gemma-2-27b-it',
  'google/gemma-3-27b-it',
  'google/gemma-4-31B-it',
  'mistralai/Mistral-Small-3.1-24B-Instruct-2503',
  'mistralai/Mistral-Small-3.2-24B-Instruct-2506',
  'deepseek-ai/DeepSeek-V3.1',
  'deepseek-ai/DeepSeek-R1-0528',
  'moonshotai/Kimi-K2-Instruct',
  'zai-org/GLM-4.7-FP8',
  'zai-org/GLM-5',
  'MiniMaxAI/MiniMax-M2',
  'openai/gpt-oss-120b',
  'unsloth/gpt-oss-20b-GGUF',
  'allenai/Olmo-3-7B-Instruct',
  'HuggingFaceTB/SmolLM3-3B',
  'microsoft/Phi-4-mini-instruct',
  'baidu/ERNIE-4.5-21B-A3B-PT',
  'ByteDance-Seed/Seed-OSS-36B-Instruct',
  // Families added from real configs after issue 40.
  'Qwen/Qwen3-Coder-480B-A35B-Instruct',
  'Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8',
  'Qwen/Qwen3-VL-8B-Instruct',
  'Qwen/Qwen3-Next-80B-A3B-Instruct',
  'Qwen/Qwen3.6-27B',
  'moonshotai/Kimi-K2.5',
  'MiniMaxAI/MiniMax-M2.5',
  'MiniMaxAI/MiniMax-M3',
  'zai-org/GLM-4.5-Air',
  'zai-org/GLM-5.1-FP8',
  'zai-org/GLM-5.2',
  'mistralai/Mixtral-8x22B-Instruct-v0.1',
  'deepseek-ai/DeepSeek-V3.2-Exp',
  'XiaomiMiMo/MiMo-V2-Flash',
  'nvidia/Llama-3_3-Nemotron-Super-49B-v1-FP8',
];

describe('real model ids are judged, not "not found offline"', () => {
  const opts = { resolver: catalogResolver, oracle: createSyncOracle(), variant: 'v5' as const, fileName: '/tmp/serve.sh' };

  it(`vllm serve of ${REAL_IDS.length} real ids: every launch resolved, with a trained context`, () => {
    const text = REAL_IDS.map((id) => `vllm serve ${id} --max-model-len 131072`).join('\n') + '\n';
    const a = analyzeLaunchFile(shellFileOf(text), text, { ...opts, reparse: (t) => shellFileOf(t) });
    assert.equal(a.launches.length, REAL_IDS.length);
    const unjudged = a.launches.filter((l) => l.unjudged !== undefined || l.resolvedFrom === null).map((l) => l.model);
    assert.deepEqual(unjudged, []);
    for (const l of a.launches) assert.ok((l.trainedContext ?? 0) >= 2048, `${l.model}: trained context ${l.trainedContext}`);
  });

  it('vllm serve Qwen/QwQ-32B --max-model-len 131072 is judged from the QwQ family, with its documented YaRN and the assumption said', () => {
    const text = 'vllm serve Qwen/QwQ-32B --max-model-len 131072\n';
    const a = analyzeLaunchFile(shellFileOf(text), text, { ...opts, reparse: (t) => shellFileOf(t) });
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.ok(d, JSON.stringify(a.diagnostics.map((x) => x.code)));
    assert.match(said(d), /assumed from the QwQ family: trained at 32,768/);
    assert.ok(
      d.fixes.some((f) => /YaRN as the QwQ family's model card documents it/.test(f.title)),
      d.fixes.map((f) => f.title).join('\n'),
    );
  });

  it('a GGUF file named after a fine-tune of a family, and a Hugging Face cache snapshot, are judged', () => {
    const text =
      'llama-server -m /models/Qwen2.5-7B-Instruct-sql-Q8_0.gguf -c 65536\n' +
      'vllm serve /root/.cache/huggingface/hub/models--Qwen--Qwen3-30B-A3B/snapshots/0123456789abcdef0123456789abcdef01234567 --max-model-len 65536\n';
    const a = analyzeLaunchFile(shellFileOf(text), text, { ...opts, reparse: (t) => shellFileOf(t) });
    assert.deepEqual(
      a.launches.map((l) => l.trainedContext),
      [32768, 32768],
    );
    const gguf = a.diagnostics.find((x) => x.range.start.line === 0)!;
    assert.match(said(gguf), /assumed from the name \/models\/Qwen2\.5-7B-Instruct-sql-Q8_0\.gguf and the Qwen2\.5 family/);
    assert.ok(a.diagnostics.some((x) => x.range.start.line === 1 && x.code === 'vllm/max-model-len-exceeds'));
  });
});
