/**
 * Issue 41, item 2: LLaMA-Factory's configure_rope and axolotl's model_config overrides as their
 * current releases run them, on transformers 4.x and 5.x (fixtures: test/fixtures/training/released,
 * real public examples edited minimally; README there names each source and edit).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { parseDocumentText } from '../../shared/document/parse';
import { readTrainingConfig } from '../../shared/config/training';
import { llamaFactoryRopePlan } from '../../shared/config/trainers/llamaFactoryRope';
import { catalogResolver } from '../../shared/config/resolve';
import type { FileAnalysis } from '../../shared/service/types';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();
const dir = join(__dirname, '../fixtures/training/released');
const text = (name: string) => readFileSync(join(dir, name), 'utf8');
const run = (yaml: string, consumers?: string[], fileName = '/w/train.yaml'): FileAnalysis =>
  analyzeText(yaml, { fileName, oracle, verifyFixes: true, ...(consumers ? { consumers } : {}) });
const codes = (a: FileAnalysis) => a.diagnostics.map((d) => d.code).sort();
const one = (a: FileAnalysis, code: string) => {
  const d = a.diagnostics.filter((x) => x.code === code);
  assert.equal(d.length, 1, `${code} in ${JSON.stringify(a.diagnostics.map((x) => x.code))}`);
  return d[0];
};
const applied = (yaml: string, edits: Parameters<typeof applyTextEdits>[2]) => applyTextEdits(yaml, new LineIndex(yaml), edits);
const plan = (yaml: string) => {
  const t = readTrainingConfig(parseDocumentText(yaml, 'yaml'))!;
  const base = catalogResolver.resolve([t.baseModel!.value], '/w/train.yaml');
  return llamaFactoryRopePlan(t, base?.rope);
};

describe('LLaMA-Factory configure_rope, as the current release runs it', () => {
  const yarn200k = text('llamafactory-llama31-yarn-200k.yaml');
  const linear65k = text('llamafactory-llama31-linear-65k.yaml');
  const chat = text('llamafactory-llama31-chat-linear.yaml');

  it('Llama-3.1 with yarn at 200,000: factor 25.0 over the 8,192 of its llama3 block, not 2 over 131,072', () => {
    const a = run(yarn200k);
    const d = one(a, 'llama-factory/derived-factor');
    assert.match(d.message, /yarn scaling with factor 25\.0 over 8,192 .*covering 204,800 tokens/);
    assert.match(said(d), /ceil\(200,000 \/ 8,192\) = 25\.0/);
    assert.equal(a.rope!.contextLength.value, 204800);
    assert.equal(a.rope!.scaling!.type, 'yarn');
    assert.equal(a.rope!.scaling!.params.factor.value, 25);
    assert.equal(a.rope!.scaling!.params.original_max_position_embeddings.value, 8192);
  });

  it('Llama-3.1 with linear at 65,536: applied, linear factor 8.0 over 8,192 (no original key), not "disabled"', () => {
    const a = run(linear65k);
    assert.ok(!codes(a).includes('llama-factory/scaling-ignored'), JSON.stringify(codes(a)));
    assert.match(one(a, 'llama-factory/derived-factor').message, /linear scaling with factor 8\.0 over 8,192/);
    assert.equal(a.rope!.contextLength.value, 65536);
    assert.equal(a.rope!.scaling!.params.original_max_position_embeddings, undefined);
  });

  it('an inference YAML (no stage, no do_*): factor 2.0 over the old length, whatever cutoff_len says', () => {
    const a = run(chat);
    assert.match(one(a, 'llama-factory/inference-factor').message, /linear scaling of factor 2\.0 over 8,192, covering 16,384 tokens/);
    assert.equal(a.rope!.contextLength.value, 16384);
    // cutoff_len is not read by chat/api: the factor stays 2.0.
    const withCutoff = plan(`${chat}cutoff_len: 65536\n`);
    assert.equal(withCutoff.kind === 'applied' && withCutoff.factor, 2);
    // On a model without a scaling block the old length is max_position_embeddings (Llama-2: 4,096).
    const l2 = plan(chat.replace('meta-llama/Llama-3.1-8B-Instruct', 'meta-llama/Llama-2-7b-hf'));
    assert.deepEqual(l2.kind === 'applied' && [l2.old, l2.oldFrom, l2.newContext], [4096, 'max_position_embeddings', 8192]);
  });

  it('an export on CPU with a non-default cutoff_len derives the factor from it; with the default it is 2.0', () => {
    const exp = `${chat}export_dir: out\ncutoff_len: 32768\n`;
    const p = plan(exp);
    assert.deepEqual(p.kind === 'applied' && [p.mode, p.factor], ['train', 4]);
    const q = plan(`${chat}export_dir: out\ncutoff_len: 2048\n`);
    assert.deepEqual(q.kind === 'applied' && [q.mode, q.factor], ['inference', 2]);
    const gpu = plan(`${chat}export_dir: out\nexport_device: auto\ncutoff_len: 32768\n`);
    assert.deepEqual(gpu.kind === 'applied' && [gpu.mode, gpu.factor], ['inference', 2]);
  });

  it('a predict run (`train` with do_predict, do_train false) still uses cutoff_len', () => {
    const p = plan(yarn200k.replace('do_train: true', 'do_train: false\ndo_predict: true'));
    assert.deepEqual(p.kind === 'applied' && [p.mode, p.factor], ['train', 25]);
  });

  it('cutoff_len within the original length: disabled, against 8,192 on Llama-3.1, against mpe on Llama-3', () => {
    const within = run(yarn200k.replace('cutoff_len: 200000', 'cutoff_len: 8192'));
    assert.match(
      said(one(within, 'llama-factory/scaling-ignored')),
      /cutoff_len 8,192 is within the 8,192 it scales from\..*8,192 is the model's rope_scaling\.original_max_position_embeddings/s,
    );
    assert.ok(!codes(within).includes('llama-factory/fails-on-transformers-5'));
    // cutoff_len absent in a training YAML: LLaMA-Factory's default 2048.
    const absent = run(yarn200k.replace('meta-llama/Llama-3.1-8B-Instruct', 'meta-llama/Meta-Llama-3-8B-Instruct').replace(/^cutoff_len: .*\n/m, ''));
    assert.match(one(absent, 'llama-factory/scaling-ignored').message, /cutoff_len 2,048 is within the 8,192 it scales from/);
  });

  it('llama3 by name writes original = old, low 1.0, high 4.0', () => {
    const p = plan(yarn200k.replace('rope_scaling: yarn', 'rope_scaling: llama3'));
    assert.ok(p.kind === 'applied');
    assert.deepEqual(p.written, { rope_type: 'llama3', factor: 25, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 });
  });

  it('dynamic while training: the derived factor and the dynamic-scaling warning LLaMA-Factory logs', () => {
    const a = run(yarn200k.replace('rope_scaling: yarn', 'rope_scaling: dynamic'));
    assert.ok(codes(a).includes('training/dynamic-scaling'));
    assert.match(one(a, 'llama-factory/derived-factor').message, /dynamic scaling with factor 25\.0 over 8,192/);
  });

  it('a name outside the RopeScaling enum is refused', () => {
    const a = run(yarn200k.replace('rope_scaling: yarn', 'rope_scaling: ntk'));
    assert.ok(a.diagnostics.some((d) => d.severity === 'error' && /not a scaling it knows/.test(d.message)));
    assert.ok(!codes(a).includes('llama-factory/derived-factor'));
  });

  it('infer_backend vllm with rope_scaling: LLaMA-Factory refuses to start; the fix removes the key', () => {
    const yaml = chat.replace(/^infer_backend: huggingface.*$/m, 'infer_backend: vllm');
    const d = one(run(yaml), 'llama-factory/vllm-rope-scaling');
    assert.equal(d.severity, 'error');
    const fixed = applied(yaml, d.fixes[0].edits);
    assert.doesNotMatch(fixed, /rope_scaling/);
    assert.deepEqual(codes(run(fixed)), []);
  });

  it('transformers 5.x refuses every applied scaling: a warning with no pin, an error with a 5.x pin, nothing on 4.x', () => {
    for (const yaml of [yarn200k, linear65k, chat]) {
      assert.equal(one(run(yaml), 'llama-factory/fails-on-transformers-5').severity, 'warning');
      const pinned = one(run(yaml, ['transformers==5.17.0']), 'llama-factory/fails-on-transformers-5');
      assert.equal(pinned.severity, 'error');
      assert.match(said(pinned), /transformers 5\.17\.0/);
      assert.ok(!codes(run(yaml, ['transformers==4.51.3'])).includes('llama-factory/fails-on-transformers-5'));
    }
    assert.match(one(run(yarn200k), 'llama-factory/fails-on-transformers-5').message, /float 204,800\.0/);
  });
});

describe("axolotl model_config overrides, as axolotl's transformers 5 runs them", () => {
  const theta = text('axolotl-llama2-lora-theta.yml');
  const noTheta = text('axolotl-llama2-lora-yarn-no-theta.yml');

  it('rope_theta alone never reaches the model: judged at 10,000, extrapolating past 4,096; the fix writes rope_parameters', () => {
    const a = run(theta);
    const d = one(a, 'axolotl/theta-ignored');
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /training runs at the model's own base 10,000/);
    assert.equal(a.rope!.base.value, 10000);
    assert.match(one(a, 'training/context-exceeded').message, /Training at 16,384 tokens extrapolates positions past 4,096/);
    const fixed = applied(theta, d.fixes[0].edits);
    assert.match(fixed, /model_config:\n {2}rope_theta: 1000000\.0\n {2}rope_parameters:\n {4}rope_type: default\n {4}rope_theta: 1000000\n/);
    const after = run(fixed);
    assert.ok(!codes(after).includes('axolotl/theta-ignored'));
    assert.ok(!codes(after).includes('training/context-exceeded'));
    assert.equal(after.rope!.base.value, 1000000);
  });

  it('with a transformers 4.x pin the rope_theta lands (no finding); with a 5.x pin it is an error', () => {
    const four = run(theta, ['transformers==4.57.6']);
    assert.ok(!codes(four).includes('axolotl/theta-ignored'));
    assert.equal(four.rope!.base.value, 1000000);
    assert.equal(one(run(theta, ['transformers==5.18.0']), 'axolotl/theta-ignored').severity, 'error');
  });

  it("on a model with its own scaling the fix keeps it: Llama-3.1's llama3 block with the new base", () => {
    const yaml = theta.replace('NousResearch/Llama-2-7b-hf', 'meta-llama/Llama-3.1-8B').replace('sequence_len: 16384', 'sequence_len: 65536');
    const d = one(run(yaml), 'axolotl/theta-ignored');
    const fixed = applied(yaml, d.fixes[0].edits);
    assert.match(fixed, /rope_parameters:\n {4}rope_type: llama3\n {4}factor: 8\n.*\n.*\n {4}original_max_position_embeddings: 8192\n {4}rope_theta: 1000000/);
    const after = run(fixed);
    assert.ok(!codes(after).includes('training/stacked-scaling'), JSON.stringify(codes(after)));
    assert.ok(!codes(after).includes('axolotl/theta-ignored'));
  });

  it('a rope_theta equal to the model’s own base changes nothing: no finding', () => {
    const same = run(theta.replace('rope_theta: 1000000.0', 'rope_theta: 10000.0'));
    assert.ok(!codes(same).includes('axolotl/theta-ignored'));
  });

  it('rope_scaling without rope_theta fails when the model is built; the fix keeps the base in the dict', () => {
    const d = one(run(noTheta), 'axolotl/override-fails');
    assert.equal(d.severity, 'error');
    assert.match(d.message, /no rope_theta/);
    const fixed = applied(noTheta, d.fixes[0].edits);
    assert.match(fixed, /original_max_position_embeddings: 4096\n {4}rope_theta: 10000\n/);
    assert.ok(!codes(run(fixed)).includes('axolotl/override-fails'));
    // Beside the dict, rope_theta fills it: builds on transformers 5.
    const beside = noTheta.replace('overrides_of_model_config:\n', 'overrides_of_model_config:\n  rope_theta: 10000.0\n');
    assert.ok(!codes(run(beside)).includes('axolotl/override-fails'));
    // transformers 4.x reads config.rope_theta: nothing fails.
    assert.ok(!codes(run(noTheta, ['transformers==4.57.6'])).includes('axolotl/override-fails'));
  });

  it('the legacy `type` key and `rope_scaling: null` fail on transformers 5', () => {
    const legacy = noTheta.replace('rope_type: yarn', 'type: yarn');
    const d = one(run(legacy), 'axolotl/override-fails');
    assert.match(d.message, /`type` but lacks `rope_type`/);
    const fixed = applied(legacy, d.fixes[0].edits);
    assert.match(fixed, /rope_type: yarn/);
    assert.doesNotMatch(fixed, /\n {4}type: yarn/);
    assert.ok(!codes(run(fixed)).includes('axolotl/override-fails'));
    const cleared = theta.replace('  rope_theta: 1000000.0', '  rope_scaling: null');
    assert.match(one(run(cleared), 'axolotl/override-fails').message, /`rope_scaling: null` fails/);
  });

  it('the deprecated top-level rope_scaling is moved in the form transformers 5 builds (rope_type, the model base)', () => {
    const yaml = theta.replace('model_config:\n  rope_theta: 1000000.0\n', 'rope_scaling: {type: linear, factor: 2.0}\n');
    const d = one(run(yaml), 'axolotl/deprecated-rope-scaling');
    const fixed = applied(yaml, d.fixes[0].edits);
    const after = run(fixed);
    assert.ok(!codes(after).includes('axolotl/deprecated-rope-scaling'));
    assert.ok(!codes(after).includes('axolotl/override-fails'), fixed);
    assert.match(fixed, /rope_type: linear/);
    assert.match(fixed, /rope_theta: 10000/);
  });

  it("context-extension fixes on axolotl carry the model's base, so they build on transformers 5", () => {
    const plain = noTheta.replace(/overrides_of_model_config:\n( {2}.*\n)+/, '');
    const d = one(run(plain), 'training/context-exceeded');
    assert.ok(d.fixes.length > 0);
    for (const f of d.fixes) {
      const after = run(applied(plain, f.edits));
      assert.ok(!codes(after).includes('axolotl/override-fails'), `${f.title}: ${JSON.stringify(codes(after))}`);
      assert.ok(!codes(after).includes('axolotl/theta-ignored'), f.title);
    }
  });
});

describe('torchtune, as its current release runs it', () => {
  it("a sequence length above the builder's max_seq_len is refused (ValueError), not extrapolated; within it, nothing", () => {
    const yaml = readFileSync(join(__dirname, '../fixtures/training/torchtune-qwen2_5-7B-lora.yaml'), 'utf8');
    const a = run(yaml);
    const d = one(a, 'torchtune/beyond-max-seq-len');
    assert.equal(d.severity, 'error');
    assert.match(d.message, /longer than 32,768/);
    assert.ok(!codes(a).includes('training/context-exceeded'));
    const fixed = applied(yaml, d.fixes[0].edits);
    assert.match(fixed, /max_seq_len: 32768/);
    assert.deepEqual(codes(run(fixed)), []);
  });
});
