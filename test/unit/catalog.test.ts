import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, catalogConfigText, findCatalogEntry, findCatalogEntryStrict, namesOf } from '../../shared/config/catalog';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import { validate } from './helpers/jsonSchemaLite';

const CATALOG_DIR = join(__dirname, '../../shared/config/catalog');
const CORPUS = join(__dirname, '../fixtures/corpus/models');
const readJson = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));

const rope = (id: string) => {
  const e = findCatalogEntry(id);
  assert.ok(e, `no catalog entry for ${id}`);
  return readModelRope(parseJsonDocument(catalogConfigText(e)))!;
};

/**
 * Real config files of catalog models (test/fixtures/corpus/models, sources in its SOURCES.md), by the
 * model they are a copy of. Written from SOURCES.md, not from the catalog's `verified` field, so every
 * entry that has a real copy here is compared with it, whatever the entry says about itself.
 * Not listed: phi-3-mini-128k-instruct.json (an earlier hub revision of the longrope lists),
 * qwen2.5-7b-instruct-yarn.json (YaRN added by hand), the tabs/CRLF and v5 re-serialisations.
 */
const REAL_COPIES: Record<string, string[]> = {
  'meta-llama/Llama-2-7b-hf': ['llama-2-7b-hf.json'],
  'togethercomputer/LLaMA-2-7B-32K': ['llama-2-7b-32k-linear.json'],
  'codellama/CodeLlama-7b-hf': ['codellama-7b-hf.json'],
  'meta-llama/Meta-Llama-3-8B': ['meta-llama-3-8b.json'],
  'meta-llama/Llama-3.1-8B-Instruct': ['meta-llama-3.1-8b-instruct.json'],
  'meta-llama/Llama-3.2-1B-Instruct': ['llama-3.2-1b-instruct.json'],
  'meta-llama/Llama-3.2-3B-Instruct': ['llama-3.2-3b-instruct-tabs-crlf.json'],
  'meta-llama/Llama-4-Scout-17B-16E': ['llama-4-scout-17b-16e.json'],
  'mistralai/Mistral-7B-v0.1': ['mistral-7b-v0.1.json'],
  'mistralai/Mistral-7B-Instruct-v0.3': ['mistral-7b-instruct-v0.3-oneline.json'],
  'mistralai/Mixtral-8x7B-v0.1': ['mixtral-8x7b-v0.1.json'],
  'Qwen/Qwen-7B': ['qwen-7b.json'],
  'Qwen/Qwen1.5-7B': ['qwen1.5-7b.json'],
  'Qwen/Qwen2.5-7B': ['qwen2.5-7b.json'],
  'Qwen/Qwen2.5-VL-7B-Instruct': ['qwen2.5-vl-7b-mrope.json'],
  'Qwen/Qwen3-8B': ['qwen3-8b.json'],
  'Qwen/Qwen3-30B-A3B': ['qwen3-30b-a3b.json'],
  'google/gemma-7b': ['gemma-7b.json'],
  'google/gemma-2-9b': ['gemma-2-9b.json'],
  'google/gemma-3-1b-it': ['gemma-3-1b-it.json'],
  'google/gemma-3-27b-it': ['gemma-3-27b-it-multimodal.json'],
  'microsoft/phi-1': ['phi-1.json'],
  'microsoft/phi-2': ['phi-2.json'],
  'microsoft/phi-4': ['phi-4.json'],
  'microsoft/Phi-3-mini-4k-instruct': ['phi-3-mini-4k-instruct.json'],
  'microsoft/Phi-3-small-8k-instruct': ['phi-3-small-8k-instruct.json'],
  'microsoft/Phi-3.5-MoE-instruct': ['phi-3.5-moe-instruct.json'],
  'deepseek-ai/DeepSeek-V3': ['deepseek-v3.json'],
  'deepseek-ai/DeepSeek-V2-Lite': ['deepseek-v2-lite.json'],
  'deepseek-ai/deepseek-vl2-tiny': ['deepseek-vl2-tiny.json'],
  'allenai/OLMo-2-1124-7B': ['olmo-2-1124-7b.json'],
  'allenai/Olmo-3.1-32B-Instruct': ['olmo-3.1-32b-instruct.json'],
  'THUDM/chatglm3-6b': ['chatglm3-6b.json'],
  'THUDM/glm-4-9b': ['glm-4-9b.json'],
  'openai/gpt-oss-20b': ['gpt-oss-20b.json'],
  'openai/gpt-oss-120b': ['gpt-oss-120b.json'],
  'Qwen/Qwen3-4B-Instruct-2507': ['qwen3-4b-instruct-2507.json'],
  'EleutherAI/pythia-410m': ['pythia-410m.json'],
  '01-ai/Yi-6B-200K': ['yi-6b-200k.json'],
  'internlm/internlm2-7b': ['internlm2-7b.json'],
  'internlm/internlm2_5-7b-chat': ['internlm2_5-7b-chat-dynamic.json'],
  'stabilityai/stablelm-3b-4e1t': ['stablelm-3b-4e1t.json'],
  'baichuan-inc/Baichuan2-7B-Base': ['baichuan2-7b-base.json'],
  'openbmb/MiniCPM3-4B': ['minicpm3-4b.json'],
  'CohereForAI/c4ai-command-r-v01': ['cohere-command-r-35b.json'],
  'LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct': ['exaone-3.0-7.8b.json'],
  'LGAI-EXAONE/EXAONE-4.0-32B': ['exaone-4.0-32b.json'],
  'tiiuae/falcon-7b': ['falcon-7b.json'],
};

/** Each key the entry records equals the real file's value (nested scopes key by key). */
function differences(entry: Record<string, unknown>, real: Record<string, unknown>, path = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(entry)) {
    const r = real[k];
    const isScope = k === 'text_config' || k === 'language_config' || k === 'llm_config';
    if (isScope && v && typeof v === 'object' && r && typeof r === 'object') {
      out.push(...differences(v as Record<string, unknown>, r as Record<string, unknown>, `${path}${k}.`));
    } else {
      try {
        assert.deepStrictEqual(v, r);
      } catch {
        out.push(`${path}${k}: catalog ${JSON.stringify(v)?.slice(0, 80)} vs file ${JSON.stringify(r)?.slice(0, 80)}`);
      }
    }
  }
  return out;
}

describe('built-in catalog', () => {
  const data = readJson(join(CATALOG_DIR, 'models.json')) as { models: unknown[] };
  const schema = readJson(join(CATALOG_DIR, 'schema.json')) as Record<string, unknown>;

  it('models.json validates against schema.json', () => {
    assert.deepEqual(validate(data, schema), []);
  });

  it('the schema check rejects entries without a source, a trained context source, or a model_type', () => {
    const good = data.models[0] as Record<string, unknown>;
    const noSource = { ...good };
    delete noSource['source'];
    const noTSource = { ...good, trainedContext: { value: 8192 } };
    const badConfig = { ...good, config: { hidden_size: 4096 } };
    const badRef = { ...good, source: 'somewhere on the web' };
    for (const bad of [noSource, noTSource, badConfig, badRef]) {
      assert.notDeepEqual(validate({ models: [bad] }, schema), [], JSON.stringify(bad).slice(0, 120));
    }
  });

  it('has at least 150 entries, unique ids and aliases, each with a source and a sourced trained context', () => {
    assert.ok(CATALOG.length >= 150, `${CATALOG.length} entries`);
    const seen = new Set<string>();
    for (const e of CATALOG) {
      for (const id of namesOf(e)) {
        assert.ok(!seen.has(id.toLowerCase()), `duplicate id ${id}`);
        seen.add(id.toLowerCase());
      }
      assert.match(e.source, /^(https:\/\/|github:|corpus:)/, e.id);
      assert.ok(Number.isInteger(e.trainedContext.value) && e.trainedContext.value >= 128, e.id);
      assert.ok(e.trainedContext.source.length > 0, e.id);
    }
  });

  it('a config: trained-context source names a key the entry config has, with that value', () => {
    for (const e of CATALOG) {
      const m = /^config:([A-Za-z_.]+)/.exec(e.trainedContext.source);
      if (!m) continue;
      let v: unknown = e.config;
      for (const k of m[1].split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
      assert.equal(v, e.trainedContext.value, `${e.id}: ${m[1]}`);
    }
  });

  it('every RoPE entry reads as a model config with a base, a rotary dim and a context', () => {
    for (const e of CATALOG) {
      if (e.noRope) continue;
      const r = readModelRope(parseJsonDocument(catalogConfigText(e)));
      assert.ok(r, `${e.id} is not read as a model config`);
      assert.ok(r!.base.value > 1 && r!.rotaryDim.value >= 2 && r!.contextLength.value >= 1024, e.id);
    }
  });

  it('records no-RoPE models (absolute positions) so their identity can be known', () => {
    const noRope = CATALOG.filter((e) => e.noRope).map((e) => e.id);
    assert.ok(noRope.includes('google-bert/bert-base-uncased') && noRope.includes('openai-community/gpt2'), noRope.join(', '));
    for (const id of noRope) assert.ok(!('rope_theta' in findCatalogEntry(id)!.config), id);
  });

  it('every entry with a real copy in the corpus agrees with it on every key the entry records', () => {
    let compared = 0;
    for (const [id, files] of Object.entries(REAL_COPIES)) {
      const e = findCatalogEntryStrict(id);
      assert.ok(e, `no entry for ${id}`);
      assert.ok(
        namesOf(e!).some((n) => n.toLowerCase() === id.toLowerCase()),
        `${id} resolved to ${e!.id}`,
      );
      for (const f of files) {
        const real = readJson(join(CORPUS, f)) as Record<string, unknown>;
        assert.deepEqual(differences(e!.config, real), [], `${e!.id} vs ${f}`);
        compared++;
      }
    }
    assert.ok(compared >= 40, `${compared} comparisons`);
  });

  it('the cross-check catches a changed value', () => {
    const e = findCatalogEntryStrict('Qwen/Qwen3-8B')!;
    const real = readJson(join(CORPUS, 'qwen3-8b.json')) as Record<string, unknown>;
    assert.deepEqual(differences({ ...e.config, rope_theta: 10000 }, real).length, 1);
  });

  it('Llama-3.1-8B: base 500000, 128 rotary channels (4096/32), llama3 ×8 from 8192 to 131072', () => {
    const r = rope('meta-llama/Meta-Llama-3.1-8B-Instruct');
    assert.equal(r.base.value, 500000);
    assert.equal(r.rotaryDim.value, 128);
    assert.equal(r.contextLength.value, 131072);
    assert.equal(r.originalContextLength?.value, 8192);
    assert.equal(r.scaling?.type, 'llama3');
    assert.equal(findCatalogEntry('meta-llama/Llama-3.1-8B')!.trainedContext.value, 8192);
  });

  it('Llama-4-Scout Instruct: llama3 ×16 (bands 1/1) over 8192 to 10,485,760, 8192-token chunks on RoPE layers, every 4th layer NoPE', () => {
    assert.equal(findCatalogEntryStrict('meta-llama/Llama-4-Scout-17B-16E-Instruct')?.id, 'meta-llama/Llama-4-Scout-17B-16E-Instruct');
    const r = rope('meta-llama/Llama-4-Scout-17B-16E-Instruct');
    assert.equal(r.base.value, 500000);
    assert.equal(r.contextLength.value, 10485760);
    assert.equal(r.originalContextLength?.value, 8192);
    assert.equal(r.scaling?.type, 'llama3');
    assert.equal(r.scaling?.params['factor']?.value, 16);
    assert.equal(r.scaling?.params['high_freq_factor']?.value, 1);
    const chunked = r.groups?.find((g) => g.layerType === 'chunked_attention');
    const nope = r.groups?.find((g) => g.base === null);
    assert.equal(chunked?.window?.value, 8192);
    assert.equal(chunked?.layers, 36);
    assert.equal(nope?.layers, 12);
  });

  it('Llama-3.2-1B has head_dim 64; phi-2 rotates 40% of 80 channels; DeepSeek-V3 rotates 64', () => {
    assert.equal(rope('meta-llama/Llama-3.2-1B').rotaryDim.value, 64);
    assert.equal(rope('microsoft/phi-2').rotaryDim.value, 32);
    assert.equal(rope('deepseek-ai/DeepSeek-R1').rotaryDim.value, 64);
    assert.equal(rope('EleutherAI/pythia-1.4b').rotaryDim.value, 32); // 2048/16 × 0.25
  });

  it('finds re-uploads and checkpoint paths by name', () => {
    assert.equal(findCatalogEntry('unsloth/Meta-Llama-3.1-8B-bnb-4bit')?.id, 'meta-llama/Llama-3.1-8B');
    assert.equal(findCatalogEntry('checkpoints/meta-llama/Meta-Llama-3-8B')?.id, 'meta-llama/Meta-Llama-3-8B');
    assert.equal(findCatalogEntry('nobody/unknown-model'), undefined);
    assert.equal(findCatalogEntryStrict('/models/Qwen3-8B')?.id, 'Qwen/Qwen3-8B');
  });
});
