/**
 * What a shipped scaling covers when the file keeps it (advice.md situation 4, issue 40): the shipped
 * context, not whatever max_position_embeddings was raised to; a re-sized block covers original ×
 * factor. And LitGPT's built-in architectures, looked up by name.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import { modelReach } from '../../shared/config/reach';
import { litGptBuiltin } from '../../shared/config/trainers/litgptBuiltins';

const CORPUS = join(__dirname, '..', 'fixtures', 'corpus', 'models');

function llama31(edit: (text: string) => string) {
  const text = edit(readFileSync(join(CORPUS, 'meta-llama-3.1-8b-instruct.json'), 'utf8'));
  const rope = readModelRope(parseJsonDocument(text));
  assert.ok(rope);
  return rope!;
}

describe('shipped scaling reach (issue 40)', () => {
  it('Llama-3.1-8B as shipped reaches 131,072', () => {
    const r = modelReach(llama31((t) => t));
    assert.equal(r.value, 131072);
    assert.equal(r.shippedScaling, undefined);
  });

  it('raised to 262,144 with llama3 ×8 kept, it still reaches 131,072 (the shipped scaling)', () => {
    const r = modelReach(llama31((t) => t.replace('"max_position_embeddings": 131072', '"max_position_embeddings": 262144')));
    assert.equal(r.value, 131072);
    assert.equal(r.shippedScaling, true);
    assert.match(r.basis, /llama3 ×8 as meta-llama\/Llama-3\.1-8B ships it/);
  });

  it('re-sized to llama3 ×32 over 8,192 it reaches 262,144', () => {
    const rope = llama31((t) => t.replace('"max_position_embeddings": 131072', '"max_position_embeddings": 262144').replace('"factor": 8.0', '"factor": 32.0'));
    assert.equal(modelReach(rope).value, 262144);
  });

  it("LitGPT's built-in names resolve to their architecture; other names do not", () => {
    assert.deepEqual(litGptBuiltin('micro-llama-300M'), { blockSize: 2048, nEmbd: 1024, nHead: 16, rotaryPercentage: 1, ropeBase: 10000 });
    // Pythia keeps LitGPT's default rotary_percentage 0.25; the deduped variant shares its values.
    assert.equal(litGptBuiltin('pythia-160m-deduped')?.rotaryPercentage, 0.25);
    assert.equal(litGptBuiltin('pythia-160m-deduped')?.nHead, 12);
    assert.equal(litGptBuiltin('meta-llama/Llama-3.1-8B'), undefined);
  });
});
