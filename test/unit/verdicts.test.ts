/**
 * Issue 26, point 4: verdicts on real files (test/fixtures/verdicts/README.md, the corpus).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { trainedContextOf } from '../../shared/config/trainedContext';
import { inspectorInputFromAnalysis } from '../../shared/inspector/fromConfig';
import { ENGINE_NAMES, servingInput, servingPlan } from '../../shared/serving/index';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { shellFileOf } from './helpers/invocation';
import { buildPlan } from '../../shared/planner/plan';
import { catalogConfigText, findCatalogEntry } from '../../shared/config/catalog';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();
const service = createRopeLensService({ oracle, resolver: catalogResolver });
const VERDICTS = join(__dirname, '..', 'fixtures', 'verdicts');
const MODELS = join(__dirname, '..', 'fixtures', 'corpus', 'models');
const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8');
const launch = (text: string, fileName = '/srv/run.sh') =>
  analyzeLaunchFile(shellFileOf(text), text, { fileName, resolver: catalogResolver, oracle, variant: 'v5', reparse: (t) => shellFileOf(t) });

describe('verdicts on real files (issue 26)', () => {
  it('a Llama-3.1-8B config that lost its rope_scaling is Llama-3.1, and the fix restores llama3 ×8 (not YaRN ×16)', () => {
    const text = read(VERDICTS, 'llama-3.1-8b-lost-rope-scaling.config.json');
    const a = service.analyze(text, { fileName: '/models/llama/config.json' });
    assert.equal(a.rope?.identity?.id, 'meta-llama/Llama-3.1-8B');
    assert.equal(a.rope?.identity?.lostScaling, 'llama3');
    assert.equal(trainedContextOf(a.rope!).value, 8192);
    const d = a.diagnostics.find((x) => x.code === 'rope/context-extended');
    assert.ok(d, JSON.stringify(a.diagnostics.map((x) => x.code)));
    assert.match(said(d!), /what meta-llama\/Llama-3\.1-8B ships with its llama3 scaling/);
    const fix = d!.fixes.find((f) => f.preferred)!;
    assert.equal(fix.kind, 'llama3');
    assert.deepEqual(fix.rewrite, { factor: 8, original: 8192, recipe: true });
    const fixed = applyTextEdits(text, new LineIndex(text), fix.edits);
    const scaling = JSON.parse(fixed).rope_scaling;
    assert.deepEqual(scaling, { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 });
    assert.match(fixed, /"factor": 8\.0/);
    assert.ok(!service.analyze(fixed, { fileName: '/models/llama/config.json' }).diagnostics.some((x) => x.code === 'rope/context-extended'));
    // The Inspector judges it from the same 8,192, and recommends the same restore.
    const insp = inspectorInputFromAnalysis(a, 'llama', undefined, 'v5', 131072);
    assert.equal(insp.originalLength, 8192);
    assert.equal(insp.recommended?.kind, 'llama3');
    assert.equal(insp.recommended?.factor, 8);
    // serve writes the same restore for vLLM.
    const plan = servingPlan('vllm', servingInput(a.rope!, { model: 'meta-llama/Llama-3.1-8B', context: 131072 }));
    assert.deepEqual((plan.overrides as { rope_scaling: unknown }).rope_scaling, {
      rope_type: 'llama3',
      factor: 8,
      low_freq_factor: 1,
      high_freq_factor: 4,
      original_max_position_embeddings: 8192,
    });
  });

  it("ms-swift's --rope_scaling yarn with --max_model_len on a model not found offline is no error (ms-swift derives the factor)", () => {
    const text = read(VERDICTS, 'swift-sft-local-model-yarn.sh');
    const a = launch(text, '/work/train/qwen3-coder.sh');
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message]),
      [],
    );
    assert.ok(!a.diagnostics.some((d) => d.code === 'rope/scaling-missing-key'));
    // The folder names Qwen3-Coder-30B-A3B-Instruct, now known by its family (trained at 262,144): ms-swift's
    // YaRN ×1 at 32,000 leaves the trained frequencies, so nothing above information.
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'warning').map((d) => [d.code, d.message]),
      [],
    );
    // With the model known, the derived factor is judged (ceil(32,000 / 32,768) = 1 → nothing is missing).
    const known = text.replace('/mnt/filesystem-n3/khoroshilov/models/qwen3-coder-30b-a3b-instruct', 'Qwen/Qwen3-30B-A3B');
    assert.ok(!launch(known).diagnostics.some((d) => d.code === 'rope/scaling-missing-key'));
  });

  it("DeepSeek's native YaRN (factor 40 over 4,096) is never advised away; a YaRN the user added within the trained context still is", () => {
    // deepseek-v3.json: DeepSeek-V3's published config; DeepSeek-R1 ships the same rope_scaling block.
    const text = read(MODELS, 'deepseek-v3.json');
    const a = service.describe(text, { fileName: '/models/deepseek/config.json', asModelConfig: true });
    for (const engine of ENGINE_NAMES) {
      const plan = servingPlan(engine, servingInput(a.rope!, { model: 'deepseek-ai/DeepSeek-R1', context: 4096 }));
      assert.ok(!plan.notes.some((n) => /Leave rope_scaling out/.test(n)), `${engine}: ${plan.notes.join(' | ')}`);
    }
    assert.ok(!launch('vllm serve deepseek-ai/DeepSeek-V3 --max-model-len 4096\n').diagnostics.some((d) => d.code === 'vllm/static-yarn-within-trained'));
    // Qwen's card snippet (YaRN ×4 kept at max_position_embeddings 32,768), served at 32,768: Qwen's own advice, leave it out.
    const qwen = service.describe(read(MODELS, 'qwen2.5-7b-instruct-yarn.json'), { fileName: '/models/qwen/config.json', asModelConfig: true });
    const q = servingPlan('vllm', servingInput(qwen.rope!, { context: 32768 }));
    assert.ok(
      q.notes.some((n) => /Leave rope_scaling out/.test(n)),
      q.notes.join(' | '),
    );
  });

  it('plan on Mistral-7B-v0.1 (a 4,096 window on every layer) says there are no full-attention frequencies to judge', () => {
    const e = findCatalogEntry('mistralai/Mistral-7B-v0.1')!;
    const a = service.describe(catalogConfigText(e), { fileName: '/models/mistral/config.json', asModelConfig: true });
    const plan = buildPlan({ label: e.id, from: 'catalog', rope: a.rope! }, { target: 32768 });
    assert.match(plan.noFullAttention ?? '', /no full-attention frequencies to judge/);
    assert.equal(plan.withoutTraining, null);
    assert.ok(plan.stages.every((s) => s.recommended === null && /no full-attention frequencies/.test(s.recommendedReason)));
    assert.match(plan.question, /^Training at 32,768/);
  });

  it("plan's no-training answer is check's: Qwen2.5-7B-Instruct at 65,536 gets Qwen's YaRN ×4", () => {
    const e = findCatalogEntry('Qwen/Qwen2.5-7B-Instruct')!;
    const a = service.describe(catalogConfigText(e), { fileName: '/models/qwen/config.json', asModelConfig: true });
    const plan = buildPlan({ label: e.id, from: 'catalog', rope: a.rope! }, { target: 65536 });
    assert.equal(plan.withoutTraining?.kind, 'yarn');
    assert.equal(plan.withoutTraining?.factor, 4);
    assert.equal(plan.withoutTraining?.recipe, true);
    const checked = launch('vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 65536\n');
    const preferred = checked.diagnostics.flatMap((d) => d.fixes).find((f) => f.preferred && f.rewrite);
    assert.deepEqual(preferred?.rewrite, { factor: 4, original: 32768, recipe: true });
  });

  it("a consumer finding resting only on the file's transformers_version stamp is no warning on the publisher's own config (Meta's Llama-3.1-405B, 4.42.3)", () => {
    const text = read(VERDICTS, 'llama-3.1-405b.config.json');
    const a = service.analyze(text, { fileName: '/models/llama-405b/config.json' });
    // Every architecture value names it: the publisher's file as shipped, its stamp the vendor's build.
    assert.equal(a.rope?.identity?.id, 'meta-llama/Llama-3.1-405B');
    assert.ok(
      !a.diagnostics.some((d) => d.severity === 'warning' || d.severity === 'error'),
      JSON.stringify(a.diagnostics.map((d) => [d.code, d.severity, d.message])),
    );
    assert.ok(a.diagnostics.filter((d) => d.code === 'consumer/refused').every((d) => d.severity === 'information'));
    // A pin in the workspace still makes it an error.
    const pinned = service.analyze(text, { fileName: '/models/llama-405b/config.json', settings: { consumers: ['transformers==4.41.0'] } });
    assert.ok(
      pinned.diagnostics.some((d) => d.code === 'consumer/refused' && d.severity === 'error'),
      JSON.stringify(pinned.diagnostics.map((d) => [d.code, d.severity])),
    );
  });
});
