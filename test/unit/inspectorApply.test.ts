/**
 * "Apply to config" writes the quick fix's edit: the file keeps everything but the rewritten keys,
 * and the written values are the published recipe (rounded as the quick fixes round them).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocumentText } from '../../shared/document/parse';
import { toPlain } from '../../shared/document/configNode';
import { readModelRope } from '../../shared/config/modelConfig';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { applicableRewrites, inspectorFix } from '../../shared/inspector/apply';
import type { RewriteMethod } from '../../shared/inspector/types';

const FIX = join(__dirname, '..', 'fixtures', 'inspector');

function applyTo(text: string, format: 'json' | 'yaml', method: RewriteMethod, target: number) {
  const doc = parseDocumentText(text, format);
  const rope = readModelRope(doc)!;
  const fix = inspectorFix(doc, rope, method, target);
  if (!fix) return undefined;
  const out = applyTextEdits(text, doc.lines, fix.edits);
  return { fix, out, plain: toPlain(parseDocumentText(out, format).root) as Record<string, unknown> };
}

describe('inspector apply to config', () => {
  const llama2 = readFileSync(join(FIX, 'llama-2-7b.json'), 'utf8');
  const before = toPlain(parseDocumentText(llama2, 'json').root) as Record<string, unknown>;

  it('YaRN ×4 on Llama-2 writes rope_scaling with the published keys and raises the declared context', () => {
    const r = applyTo(llama2, 'json', 'yarn', 16384)!;
    assert.deepEqual(r.plain.rope_scaling, { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 });
    // transformers checks factor = max_position_embeddings / original: 16384 / 4096 = 4.
    assert.equal(r.plain.max_position_embeddings, 16384);
    assert.deepEqual({ ...r.plain, rope_scaling: null, max_position_embeddings: 4096 }, before, 'nothing else changed');
    assert.match(r.fix.title, /max_position_embeddings 4096 → 16384/);
    assert.match(r.out, /"factor": 4\.0/, 'factor written as a float, as transformers writes it');
    assert.match(r.fix.title, /YaRN/);
  });

  it('NTK-aware ×4 on Llama-2 sets rope_theta to 40889.94 (inserted: the file has none)', () => {
    const r = applyTo(llama2, 'json', 'ntk', 16384)!;
    assert.equal(r.plain.rope_theta, 40889.94);
    assert.equal(r.plain.max_position_embeddings, 16384);
    assert.deepEqual({ ...r.plain, rope_theta: undefined, max_position_embeddings: 4096 }, { ...before, rope_theta: undefined });
  });

  it('rounds a non-quarter factor up, so factor × original covers the target', () => {
    const r = applyTo(llama2, 'json', 'pi', 10000)!;
    // 10000 / 4096 = 2.44 → 2.5
    assert.deepEqual(r.plain.rope_scaling, { rope_type: 'linear', factor: 2.5 });
    // Linear keeps the declared context: vLLM derives max_position_embeddings × factor itself.
    assert.equal(r.plain.max_position_embeddings, 4096);
  });

  it('keeps YAML comments and layout', () => {
    const yaml = '# my model\nmodel_type: llama  # family\nmax_position_embeddings: 4096\nrope_theta: 10000.0\nhidden_size: 4096\nnum_attention_heads: 32\n';
    const r = applyTo(yaml, 'yaml', 'llama3', 32768)!;
    assert.ok(r.out.startsWith('# my model\nmodel_type: llama  # family\n'));
    assert.deepEqual(r.plain.rope_scaling, { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 4096 });
  });

  it("offers no edit for the file's own scaling, NTK-by-parts or longrope, and none at factor 1", () => {
    for (const m of ['configured', 'ntk-by-parts', 'longrope'] as const) assert.equal(applyTo(llama2, 'json', m, 16384), undefined);
    assert.equal(applyTo(llama2, 'json', 'yarn', 4096), undefined);
    const doc = parseDocumentText(llama2, 'json');
    const methods = applicableRewrites(doc, readModelRope(doc)!, 16384).map((a) => a.method);
    assert.deepEqual(methods, ['pi', 'ntk', 'yarn', 'llama3', 'dynamic', 'gradient']);
  });

  it('replaces an existing scaling block (Llama-3.1 llama3 → YaRN ×16)', () => {
    const text = readFileSync(join(FIX, 'llama-3.1-8b.json'), 'utf8');
    const r = applyTo(text, 'json', 'yarn', 131072)!;
    assert.deepEqual(r.plain.rope_scaling, { rope_type: 'yarn', factor: 16, original_max_position_embeddings: 8192 });
  });
});
