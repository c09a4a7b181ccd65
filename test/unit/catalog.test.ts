import { strict as assert } from 'node:assert';
import { CATALOG, catalogConfigText, findCatalogEntry } from '../../shared/config/catalog';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';

const rope = (id: string) => {
  const e = findCatalogEntry(id);
  assert.ok(e, `no catalog entry for ${id}`);
  return readModelRope(parseJsonDocument(catalogConfigText(e)))!;
};

describe('built-in catalog', () => {
  it('has at least 25 entries, each with a source and a readable config', () => {
    assert.ok(CATALOG.length >= 25);
    const ids = new Set<string>();
    for (const e of CATALOG) {
      assert.match(e.source, /^https:\/\//);
      assert.ok(!ids.has(e.id), `duplicate ${e.id}`);
      ids.add(e.id);
      const r = readModelRope(parseJsonDocument(catalogConfigText(e)));
      assert.ok(r, `${e.id} is not read as a model config`);
      assert.ok(r!.base.value > 1 && r!.rotaryDim.value >= 2 && r!.contextLength.value >= 1024, e.id);
    }
  });

  it('Llama-3.1-8B: base 500000, 128 rotary channels (4096/32), llama3 ×8 from 8192 to 131072', () => {
    const r = rope('meta-llama/Meta-Llama-3.1-8B-Instruct');
    assert.equal(r.base.value, 500000);
    assert.equal(r.rotaryDim.value, 128);
    assert.equal(r.contextLength.value, 131072);
    assert.equal(r.originalContextLength?.value, 8192);
    assert.equal(r.scaling?.type, 'llama3');
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
  });
});
