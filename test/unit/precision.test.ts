/**
 * Findings an expert would sign (issue 33), on real files and real catalog configs:
 *  - derivative or edit: Llama-3-8B's real config with max_position_embeddings 131,072 and rope_theta
 *    10,000 is an edit of the shipped model (situation 3: warning, fixes measured from what it shipped,
 *    the base put back), never milder than the same raise with the shipped base; values coherent for
 *    their context (a base that meets the bound there) stand, and nothing is stacked on them;
 *  - fixes ranked from what ships: plan keeps Llama-3.1's llama3 scaling at every stage, a 500k-token
 *    axolotl run on Llama-3.1 prefers llama3 ×61.25 over linear, a raised Llama-3 prefers llama3;
 *  - stock checkpoints: below-bound facts are hints; Qwen2.5-7B's declared 131,072 over a trained
 *    32,768 is information with its card's YaRN ×4 as the one fix;
 *  - continued pretraining (Llemma's GPT-NeoX config, loading Code Llama's weights) is situation 6.
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { buildPlan } from '../../shared/planner/plan';
import { catalogConfigText, findCatalogEntry } from '../../shared/config/catalog';
import type { Finding } from '../../shared/core/findings';

const service = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver });
const FIXTURES = join(__dirname, '..', 'fixtures');
const MODELS = join(FIXTURES, 'corpus', 'models');
const json = (p: string): Record<string, unknown> => JSON.parse(readFileSync(p, 'utf8'));
// The file's transformers_version stamp is left out: which readers count is another deliverable's question.
const llama3 = (changes: Record<string, unknown>) => {
  const { transformers_version: _v, ...cfg } = json(join(MODELS, 'meta-llama-3-8b.json'));
  return JSON.stringify({ ...cfg, ...changes }, null, 2);
};
const analyze = (text: string, fileName = '/models/llama/config.json') => service.analyze(text, { fileName });
const byCode = (ds: Finding[], code: string) => ds.filter((d) => d.code === code);
const preferred = (d: Finding | undefined) => d?.fixes.find((f) => f.preferred);

describe('derivative or edit (issue 33, deliverable 2)', () => {
  it("Llama-3-8B's config at 131,072 with rope_theta 10,000 and no scaling is an edit: a warning with fixes that put 500,000 back", () => {
    const text = llama3({ max_position_embeddings: 131072, rope_theta: 10000.0 });
    const a = analyze(text);
    assert.equal(a.rope?.identity?.id, 'meta-llama/Meta-Llama-3-8B');
    assert.deepEqual(a.rope?.identity?.edit, ['rope_theta 10,000 (shipped 500,000)']);
    assert.equal(a.rope?.trainedContext?.value, 8192);
    const [d] = byCode(a.diagnostics, 'rope/context-extended');
    assert.equal(d?.severity, 'warning');
    assert.match(said(d), /Assumed an edit of meta-llama\/Meta-Llama-3-8B: its rope_theta 10,000 \(shipped 500,000\) fails the bound at 131,072/);
    assert.equal(byCode(a.diagnostics, 'rope/base-below-bound').length, 0, 'one mistake, one finding');
    const fix = preferred(d)!;
    assert.equal(fix.kind, 'llama3', "the Llama 3 line's own scaling is preferred");
    const fixed = JSON.parse(applyTextEdits(text, new LineIndex(text), fix.edits));
    assert.equal(fixed.rope_theta, 500000);
    assert.equal(fixed.rope_scaling.rope_type, 'llama3');
    assert.equal(fixed.rope_scaling.factor, 16);
    assert.equal(fixed.rope_scaling.original_max_position_embeddings, 8192);
    // Applied, the file is Llama-3-8B extended by its family's scaling: no warning left.
    const after = analyze(JSON.stringify(fixed, null, 2));
    assert.deepEqual(
      after.diagnostics.filter((x) => x.severity === 'warning' || x.severity === 'error').map((x) => x.code),
      [],
    );
  });

  it('the worse the edit, never the milder verdict: the shipped base at 131,072 gets the same warning', () => {
    const edited = byCode(analyze(llama3({ max_position_embeddings: 131072, rope_theta: 10000.0 })).diagnostics, 'rope/context-extended')[0];
    const raised = byCode(analyze(llama3({ max_position_embeddings: 131072 })).diagnostics, 'rope/context-extended')[0];
    assert.equal(edited?.severity, 'warning');
    assert.equal(raised?.severity, 'warning');
  });

  it('values coherent for their context stand: a base that meets the bound at 32,768 is no edit, and nothing is stacked on it', () => {
    const a = analyze(llama3({ max_position_embeddings: 32768, rope_theta: 8000000.0 }));
    assert.equal(a.rope?.identity, null);
    assert.equal(a.rope?.derivativeOf?.candidates[0], 'meta-llama/Meta-Llama-3-8B');
    assert.equal(a.rope?.trainedContext?.value, 32768);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.fixes.length).map((d) => d.code),
      [],
    );
  });

  it('a raised base short of the bound is an extension the user chose (as the NTK fix writes), judged on its own values', () => {
    const a = analyze(llama3({ max_position_embeddings: 131072, rope_theta: 8359936.96 }));
    assert.equal(a.rope?.identity, null);
    assert.equal(byCode(a.diagnostics, 'rope/context-extended').length, 0);
  });
});

describe('fixes ranked from what ships (issue 33, deliverable 3)', () => {
  it('plan for Llama-3.1-8B, axolotl, 32k → 64k: as shipped at both stages, never rope_scaling: null', () => {
    const e = findCatalogEntry('meta-llama/Llama-3.1-8B')!;
    const a = service.describe(catalogConfigText(e), { fileName: '/models/llama/config.json', asModelConfig: true });
    const plan = buildPlan({ label: e.id, from: 'catalog', rope: a.rope! }, { target: 65536, stages: [32768, 65536], trainers: ['axolotl'] });
    assert.deepEqual(
      plan.stages.map((s) => s.recommended),
      ['as-shipped', 'as-shipped'],
    );
    for (const s of plan.stages) {
      assert.doesNotMatch(s.snippets.axolotl ?? '', /rope_scaling: null/);
      assert.equal(s.options.find((o) => o.method === 'as-shipped')?.change, 0, 'the shipped llama3 ×8 is no change');
    }
  });

  it('a 500k-token axolotl run on Llama-3.1-8B prefers llama3 ×61.25 over 8,192, not linear', () => {
    const yaml = [
      'base_model: meta-llama/Llama-3.1-8B',
      'load_in_8bit: false',
      'sequence_len: 500000',
      'sample_packing: true',
      'datasets:',
      '  - path: some/dataset',
      '    type: completion',
      'micro_batch_size: 1',
      'num_epochs: 1',
      'learning_rate: 0.0002',
      '',
    ].join('\n');
    const a = service.analyze(yaml, { fileName: '/runs/axolotl.yaml' });
    const [d] = byCode(a.diagnostics, 'training/context-exceeded');
    assert.equal(d?.severity, 'warning');
    const fix = preferred(d)!;
    assert.equal(fix.kind, 'llama3');
    assert.match(fix.title, /^Add llama3 scaling \(factor 61\.25, low_freq_factor 1\.0, high_freq_factor 4\.0, original_max_position_embeddings 8192\)/);
    assert.equal(fix.rewrite?.original, 8192);
    assert.ok(
      d.fixes.some((f) => f.kind === 'linear' && !f.preferred),
      'linear is still offered, not preferred',
    );
  });
});

describe('stock checkpoints (issue 33, deliverable 5)', () => {
  it("Qwen2.5-7B's real config: the declared 131,072 is information with Qwen's YaRN ×4 as its one fix; no below-bound hint beside it", () => {
    const text = readFileSync(join(MODELS, 'qwen2.5-7b.json'), 'utf8');
    const a = analyze(text, '/models/qwen/config.json');
    const [d] = byCode(a.diagnostics, 'rope/context-extended');
    assert.equal(d?.severity, 'information');
    assert.match(said(d), /vendor's claim with YaRN ×4 over 32,768/);
    assert.equal(d.fixes.length, 1);
    const fixed = JSON.parse(applyTextEdits(text, new LineIndex(text), d.fixes[0].edits));
    assert.deepEqual(fixed.rope_scaling, { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 });
    assert.equal(fixed.max_position_embeddings, 131072);
    // One finding for one fact: a below-bound hint at the declared 131,072 ("adding scaling would degrade
    // it") would contradict the recipe the information finding offers, so the vendor's claim stands alone.
    assert.deepEqual(byCode(a.diagnostics, 'rope/base-below-bound'), []);
  });

  it('stock configs with no vendor claim get hints only (Llama-2-7B, Qwen3-8B, Mistral-7B-v0.1)', () => {
    for (const name of ['llama-2-7b-hf.json', 'qwen3-8b.json', 'mistral-7b-v0.1.json']) {
      const a = analyze(readFileSync(join(MODELS, name), 'utf8'), `/models/${name}`);
      const ropeFindings = a.diagnostics.filter((d) => d.code.startsWith('rope/'));
      assert.ok(
        ropeFindings.every((d) => d.severity === 'hint'),
        `${name}: ${ropeFindings.map((d) => `${d.severity} ${d.code}`).join(', ')}`,
      );
    }
  });
});

describe('continued pretraining (issue 33, deliverable 6)', () => {
  const LLEMMA = join(FIXTURES, 'training', 'gptneox-llemma-7b-continued.yml');

  it("Llemma's GPT-NeoX config (finetune: true, loading Code Llama's weights) is situation 6: information, no base to choose", () => {
    const a = service.analyze(readFileSync(LLEMMA, 'utf8'), { fileName: LLEMMA });
    assert.equal(a.training?.continuesFrom, '/path/to/converted/codellama_7b_weights_with_mp2');
    const [d] = byCode(a.diagnostics, 'rope/base-below-bound');
    assert.equal(d?.severity, 'information');
    assert.match(said(d), /continues pretraining from \/path\/to\/converted\/codellama_7b_weights_with_mp2 \(load\)/);
    assert.deepEqual(d.fixes, []);
  });

  it('the same model from scratch (no load, no finetune) is situation 5: a warning with a robust base', () => {
    const scratch = readFileSync(LLEMMA, 'utf8')
      .split('\n')
      .filter((l) => !/^\s*"(load|finetune)"/.test(l))
      .join('\n');
    const a = service.analyze(scratch, { fileName: '/runs/neox.yml' });
    assert.equal(a.training?.continuesFrom, undefined);
    const [d] = byCode(a.diagnostics, 'rope/base-below-bound');
    assert.equal(d?.severity, 'warning');
    assert.equal(preferred(d)?.kind, 'raise-base');
  });

  it('a load equal to save resumes this run: still its own base choice', () => {
    const resumed = readFileSync(LLEMMA, 'utf8')
      .replace('"/path/to/converted/codellama_7b_weights_with_mp2"', '"/path/to/save/llema-replication"')
      .replace('"finetune": true', '"finetune": false');
    const a = service.analyze(resumed, { fileName: '/runs/neox.yml' });
    assert.equal(a.training?.continuesFrom, undefined);
    assert.equal(byCode(a.diagnostics, 'rope/base-below-bound')[0]?.severity, 'warning');
  });
});
