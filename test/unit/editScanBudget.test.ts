/**
 * The edit-or-derivative question scans f_b up to the context (shared/config/editOrDerivative.ts).
 * The service fuzz hung for hours there (seed 1888554430, stack: baseMeetsBoundAtContext →
 * firstNegative): a mutated rotary dimension of millions made the scan ~10^12 cosines. Such a scan
 * is now skipped (no answer, the values get the benefit of the doubt), as a reach past its cap is.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { baseMeetsBoundAtContext } from '../../shared/config/editOrDerivative';
import { readModelConfig } from '../../shared/config/modelConfig';
import { parseDocumentText } from '../../shared/document/parse';

function llama3(edit: (c: Record<string, unknown>) => void) {
  const config = JSON.parse(readFileSync('examples/llama-3-8b.config.json', 'utf8'));
  edit(config);
  const rope = readModelConfig(parseDocumentText(JSON.stringify(config), 'json'))?.rope;
  assert.ok(rope);
  return rope;
}

describe('edit or derivative: the f_b scan has a work budget', () => {
  it('a rotary dimension of 2,000,000 at 1,000,000 positions is not scanned (was hours of CPU)', () => {
    const rope = llama3((c) => {
      c.max_position_embeddings = 1_000_000;
    });
    rope.rotaryDim.value = 2_000_000;
    const t0 = process.cpuUsage();
    assert.equal(baseMeetsBoundAtContext(rope), undefined);
    const used = process.cpuUsage(t0);
    assert.ok((used.user + used.system) / 1e6 < 5, `${(used.user + used.system) / 1e6} s of CPU`);
  });

  it('a real model is still scanned: Llama-3-8B at 65,536 positions with its 500,000 base fails the bound there', () => {
    const rope = llama3((c) => {
      c.max_position_embeddings = 65_536;
    });
    assert.equal(baseMeetsBoundAtContext(rope), false);
  });
});
