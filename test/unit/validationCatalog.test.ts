/**
 * The built-in catalog against independent data: every catalog entry that a real config in the
 * corpus (test/fixtures/corpus/models, sources in SOURCES.md) also describes must agree with it on
 * base, rotary dim, context, original context and scaling type, as the config reader reads both.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, catalogConfigText, findCatalogEntry } from '../../shared/config/catalog';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import type { ModelRope } from '../../shared/config/modelRope';

const MODELS = join(__dirname, '../fixtures/corpus/models');

/** Hub id (as a training YAML would name it) → the corpus file holding that model's real config. */
const OVERLAP: Record<string, string> = {
  'meta-llama/Llama-2-7b-hf': 'llama-2-7b-hf.json',
  'codellama/CodeLlama-7b-hf': 'codellama-7b-hf.json',
  'meta-llama/Meta-Llama-3-8B': 'meta-llama-3-8b.json',
  'meta-llama/Llama-3.1-8B-Instruct': 'meta-llama-3.1-8b-instruct.json',
  'meta-llama/Llama-3.1-8B': 'llama-3.1-8b-v5-rope-parameters.json',
  'meta-llama/Llama-3.2-1B-Instruct': 'llama-3.2-1b-instruct.json',
  'meta-llama/Llama-3.2-3B-Instruct': 'llama-3.2-3b-instruct-tabs-crlf.json',
  'mistralai/Mistral-7B-v0.1': 'mistral-7b-v0.1.json',
  'mistralai/Mistral-7B-Instruct-v0.3': 'mistral-7b-instruct-v0.3-oneline.json',
  'mistralai/Mixtral-8x7B-v0.1': 'mixtral-8x7b-v0.1.json',
  'Qwen/Qwen2.5-7B': 'qwen2.5-7b.json',
  'Qwen/Qwen3-8B': 'qwen3-8b.json',
  'Qwen/Qwen3-30B-A3B': 'qwen3-30b-a3b.json',
  'Qwen/Qwen1.5-7B': 'qwen1.5-7b.json',
  'google/gemma-7b': 'gemma-7b.json',
  'google/gemma-2-9b': 'gemma-2-9b.json',
  'google/gemma-3-1b-it': 'gemma-3-1b-it.json',
  'google/gemma-3-27b-it': 'gemma-3-27b-it-multimodal.json',
  'microsoft/phi-1': 'phi-1.json',
  'microsoft/phi-2': 'phi-2.json',
  'microsoft/phi-4': 'phi-4.json',
  'microsoft/Phi-3-mini-4k-instruct': 'phi-3-mini-4k-instruct.json',
  'microsoft/Phi-3-mini-128k-instruct': 'phi-3-mini-128k-instruct.json',
  'deepseek-ai/DeepSeek-V3': 'deepseek-v3.json',
  'deepseek-ai/DeepSeek-V2-Lite': 'deepseek-v2-lite.json',
  'allenai/OLMo-2-1124-7B': 'olmo-2-1124-7b.json',
  'THUDM/chatglm3-6b': 'chatglm3-6b.json',
  'THUDM/glm-4-9b': 'glm-4-9b.json',
  'openai/gpt-oss-20b': 'gpt-oss-20b.json',
  'EleutherAI/pythia-410m': 'pythia-410m.json',
  '01-ai/Yi-6B-200K': 'yi-6b-200k.json',
  'internlm/internlm2_5-7b-chat': 'internlm2_5-7b-chat-dynamic.json',
  'stabilityai/stablelm-3b-4e1t': 'stablelm-3b-4e1t.json',
};

function fields(r: ModelRope) {
  return {
    base: r.base.value,
    rotaryDim: r.rotaryDim.value,
    contextLength: r.contextLength.value,
    originalContextLength: r.originalContextLength?.value ?? null,
    scaling: r.scaling?.type && r.scaling.type !== 'default' ? r.scaling.type : null,
  };
}

const fromCatalog = (id: string) => {
  const e = findCatalogEntry(id);
  return e && e.id.toLowerCase() !== '' ? readModelRope(parseJsonDocument(catalogConfigText(e))) : undefined;
};

describe('catalog cross-checked against the real-config corpus', () => {
  const present = Object.keys(OVERLAP).filter((id) => fromCatalog(id));

  it('covers at least 25 corpus models', () => {
    assert.ok(
      present.length >= 25,
      `only ${present.length}: ${Object.keys(OVERLAP)
        .filter((id) => !fromCatalog(id))
        .join(', ')} missing`,
    );
  });

  for (const id of Object.keys(OVERLAP)) {
    it(`${id} = ${OVERLAP[id]}`, function () {
      const cat = fromCatalog(id);
      if (!cat) this.skip();
      // The id must resolve to an entry for that very model, not a look-alike by name.
      const e = findCatalogEntry(id)!;
      assert.ok(
        [e.id, ...(e.aliases ?? [])].some((x) => x.toLowerCase() === id.toLowerCase()),
        `${id} resolved to ${e.id}`,
      );
      const real = readModelRope(parseJsonDocument(readFileSync(join(MODELS, OVERLAP[id]), 'utf8')))!;
      assert.deepEqual(fields(cat!), fields(real));
    });
  }

  it('every entry marked verified against a corpus file agrees with that file', () => {
    let n = 0;
    for (const e of CATALOG) {
      const file = e.verified?.startsWith('corpus:') ? e.verified.slice('corpus:'.length) : undefined;
      if (!file) continue;
      n++;
      const real = readModelRope(parseJsonDocument(readFileSync(join(MODELS, file), 'utf8')))!;
      const cat = readModelRope(parseJsonDocument(catalogConfigText(e)))!;
      assert.deepEqual(fields(cat), fields(real), `${e.id} vs ${file}`);
    }
    // Most corpus models are sourced from their corpus file itself (catalog.test.ts compares those key by key).
    assert.ok(n >= 5, `${n} entries verified against the corpus`);
  });

  it('Phi-3-mini-128k: longrope lists of rotary dim / 2 = 48 entries, long factors rising from 1.07 to 64.76', () => {
    const r = fromCatalog('microsoft/Phi-3-mini-128k-instruct')!;
    const long = r.scaling!.params['long_factor'].value as number[];
    const short = r.scaling!.params['short_factor'].value as number[];
    assert.equal(r.rotaryDim.value, 3072 / 32);
    assert.equal(long.length, r.rotaryDim.value / 2);
    assert.equal(short.length, r.rotaryDim.value / 2);
    assert.equal(long[0], 1.0700000524520874);
    assert.equal(long[47], 64.76000213623047);
    for (let i = 1; i < long.length; i++) assert.ok(long[i] >= long[i - 1], `long_factor non-decreasing at ${i}`);
  });

  it('every entry records a source and ids are unique across entries and aliases', () => {
    const seen = new Set<string>();
    for (const e of CATALOG) {
      assert.match(e.source, /^https:\/\/|^(github|corpus):/);
      for (const id of [e.id, ...(e.aliases ?? [])]) {
        assert.ok(!seen.has(id.toLowerCase()), `duplicate id ${id}`);
        seen.add(id.toLowerCase());
      }
    }
  });
});
