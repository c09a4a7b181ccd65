/**
 * Derivatives keep their own identity, and lengths are judged by the model's reach (issue 22):
 *  - a fine-tune that raised rope_theta and the context (gradientai's Llama-3-8B 262k: rope_theta
 *    283,461,213 at 262,144, Llama-3-8B's architecture) is not Meta-Llama-3-8B: no identity, its
 *    own T, nothing stacked when served at its own context, plan from its own context;
 *  - a linear-scaled checkpoint whose max_position_embeddings already includes the factor
 *    (togethercomputer/LLaMA-2-7B-32K, 4,096 × 8 = 32,768, real config) reaches 32,768: vLLM's
 *    262,144 is what vLLM accepts, a length between the two is a warning, training at 65,536 is flagged;
 *  - sliding windows decide the reach (Mistral-7B-v0.1: 4,096 on every layer): no YaRN is proposed;
 *    vLLM's --disable-sliding-window caps its derived length at the window;
 *  - static YaRN served within the trained context is information.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import { modelReach, ropeReachAt } from '../../shared/config/reach';
import { contextKeysOf } from '../../shared/serving/contextKeys';
import { servingInput, servingPlan } from '../../shared/serving/index';
import { vllmDerivedMaxLen } from '../../shared/serving/vllm';
import { sglangDerivedContext } from '../../shared/serving/sglang';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { createNodeResolver, nodeFileReader } from '../../shared/node/resolveNode';
import { buildPlan } from '../../shared/planner/plan';
import { loadPlanModel } from '../../shared/planner/modelSource';
import { loadShellParser } from '../../shared/node/shellParser';
import type { ShellParser } from '../../shared/launch/types';
import { said } from './helpers/findingText';

const FIXTURES = join(__dirname, '..', 'fixtures');
const GRADIENT = join(FIXTURES, 'models', 'derivatives', 'llama-3-8b-instruct-262k', 'config.json');
const LLAMA2_32K = join(FIXTURES, 'corpus', 'models', 'llama-2-7b-32k-linear.json');
const MISTRAL = join(FIXTURES, 'corpus', 'models', 'mistral-7b-v0.1.json');
const QWEN_YARN = join(FIXTURES, 'models', 'qwen2.5-7b-instruct-yarn.json');
const oracle = createSyncOracle();

const json = (p: string): Record<string, unknown> => JSON.parse(readFileSync(p, 'utf8'));
function ropeOf(config: Record<string, unknown>) {
  const doc = parseJsonDocument(JSON.stringify(config, null, 2));
  const rope = readModelRope(doc);
  assert.ok(rope);
  return { rope: rope!, contextKeys: contextKeysOf(doc) };
}
const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe('derivatives keep their own identity', () => {
  it('gradient 262k (real values): no identity, a derivative of Meta-Llama-3-8B, T = its own 262,144', () => {
    const { rope } = ropeOf(json(GRADIENT));
    assert.equal(rope.identity, null);
    assert.equal(rope.derivativeOf?.candidates[0], 'meta-llama/Meta-Llama-3-8B');
    assert.deepEqual(rope.derivativeOf?.differences, ['rope_theta 283,461,213 (shipped 500,000)']);
    assert.deepEqual(rope.derivativeOf?.candidates.slice(0, 2), ['meta-llama/Meta-Llama-3-8B', 'meta-llama/Meta-Llama-3-8B-Instruct']);
    assert.equal(rope.derivativeOf?.baseTrainedContext, 8192);
    assert.equal(rope.trainedContext?.value, 262144);
    assert.equal(rope.trainedContext?.source, 'assumed:max_position_embeddings');
  });

  it('gradient 262k served at 262,144: no YaRN stacked by any engine; at 524,288 YaRN ×2 from its own 262,144', () => {
    const { rope, contextKeys } = ropeOf(json(GRADIENT));
    for (const engine of ['vllm', 'sglang', 'llama.cpp', 'tgi', 'ollama'] as const) {
      const p = servingPlan(engine, servingInput(rope, { model: './llama-3-8b-instruct-262k', contextKeys, context: 262144 }));
      assert.equal(p.overrides, null, engine);
      assert.ok(!p.args.some((a) => /yarn|dynamic|rope-scal/.test(a)), `${engine}: ${p.args.join(' ')}`);
    }
    const far = servingPlan('vllm', servingInput(rope, { model: 'x', contextKeys, context: 524288 }));
    assert.deepEqual(far.overrides, { rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 262144 } });
    assert.ok(
      far.notes.some((n) => /derivative on its own values, not as meta-llama\/Meta-Llama-3-8B/.test(n)),
      far.notes.join('\n'),
    );
  });

  it('the same body named after its base (_name_or_path Meta-Llama-3-8B-Instruct): its own rope_theta reaches 262,144, nothing stacked', () => {
    const { rope, contextKeys } = ropeOf({ ...json(GRADIENT), _name_or_path: 'meta-llama/Meta-Llama-3-8B-Instruct' });
    assert.equal(rope.identity?.id, 'meta-llama/Meta-Llama-3-8B');
    assert.equal(modelReach(rope).value, 262144);
    const p = servingPlan('vllm', servingInput(rope, { model: 'x', contextKeys, context: 262144 }));
    assert.equal(p.overrides, null);
  });

  it('plan: the derivative is planned from 262,144, never with an NTK base from 8,192', () => {
    const model = loadPlanModel(join(FIXTURES, 'models', 'derivatives', 'llama-3-8b-instruct-262k'), nodeFileReader, createNodeResolver());
    const plan = buildPlan(model, { target: 524288 });
    assert.equal(plan.trainedContext, 262144);
    assert.equal(plan.stages[0].factor, 2);
    assert.ok(
      plan.notes.some((n) => /derivative on its own values/.test(n)),
      plan.notes.join('\n'),
    );
  });

  it('a _name_or_path naming a hub model the catalog does not know wins over the fingerprint (LongChat-style linear ×8 at 16,384)', () => {
    const llama2 = without(json(join(FIXTURES, 'corpus', 'models', 'llama-2-7b-hf.json')), '_name_or_path');
    const longchat = { ...llama2, _name_or_path: 'lmsys/longchat-7b-16k', max_position_embeddings: 16384, rope_scaling: { type: 'linear', factor: 8.0 } };
    const named = ropeOf(longchat).rope;
    assert.equal(named.identity, null, 'not LLaMA-2-7B-32K, whose RoPE values it shares');
    assert.equal(modelReach(named).value, 16384);
    // A local path says nothing about the model: the fingerprint keeps its say.
    const local = ropeOf({ ...longchat, _name_or_path: '/data/ckpt/checkpoint-500' }).rope;
    assert.equal(local.identity?.via, 'fingerprint');
  });

  // Issue 33 (deliverable 2) changed this verdict: a raised context with the shipped base and nothing
  // else is not a trained derivative but an edit of the shipped model (situation 3), while the same
  // values under a name of their own stay a derivative judged on its own values.
  it('Gemma-7B with only its context raised to 32,768 is an edit of google/gemma-7b: a warning with fixes from 8,192', () => {
    const gemma = { ...without(json(join(FIXTURES, 'corpus', 'models', 'gemma-7b.json')), '_name_or_path'), max_position_embeddings: 32768 };
    const a = analyzeText(JSON.stringify(gemma, null, 2), { fileName: 'config.json', oracle });
    assert.equal(a.rope?.identity?.id, 'google/gemma-7b');
    assert.deepEqual(a.rope?.identity?.edit, ['max_position_embeddings 32,768 (shipped 8,192)']);
    assert.equal(a.rope?.trainedContext?.value, 8192);
    const d = a.diagnostics.find((x) => x.code === 'rope/context-extended')!;
    assert.equal(d.severity, 'warning');
    assert.match(said(d), /Assumed an edit of google\/gemma-7b/);
    assert.ok(
      d.fixes.some((f) => f.preferred && f.rewrite?.factor === 4),
      'a preferred rewrite by s = 32,768 / 8,192',
    );
    assert.equal(a.diagnostics.filter((x) => x.code === 'rope/base-below-bound').length, 0);
  });

  it('the same values named as another hub model stay a derivative, judged on its own values', () => {
    const gemma = { ...json(join(FIXTURES, 'corpus', 'models', 'gemma-7b.json')), _name_or_path: 'someorg/gemma-7b-32k', max_position_embeddings: 32768 };
    const a = analyzeText(JSON.stringify(gemma, null, 2), { fileName: 'config.json', oracle });
    assert.equal(a.rope?.identity, null);
    const d = a.diagnostics.find((x) => x.code === 'rope/base-below-bound')!;
    // Its own T is its context (C ≤ T): a fact about how it was trained, a hint.
    assert.equal(d.severity, 'hint');
    assert.match(said(d), /judged as a derivative on its own values, not as google\/gemma-7b \(trained at 8,192\)/);
  });

  it('official configs keep their identity: LLaMA-2-7B-32K by name and by fingerprint alone', () => {
    const named = ropeOf(json(LLAMA2_32K)).rope;
    assert.equal(named.identity?.id, 'togethercomputer/LLaMA-2-7B-32K');
    const anonymous = ropeOf(without(json(LLAMA2_32K), '_name_or_path')).rope;
    assert.equal(anonymous.identity?.id, 'togethercomputer/LLaMA-2-7B-32K');
    assert.equal(anonymous.identity?.via, 'fingerprint');
    assert.equal(anonymous.trainedContext?.value, 32768);
  });
});

describe("lengths by the model reach, engines' numbers as what they accept", () => {
  it('LLaMA-2-7B-32K (linear ×8 already in max_position_embeddings): reaches 32,768; vLLM accepts 262,144', () => {
    const { rope, contextKeys } = ropeOf(json(LLAMA2_32K));
    assert.equal(modelReach(rope).value, 32768);
    const input = servingInput(rope, { model: 'x', contextKeys });
    assert.equal(vllmDerivedMaxLen(input), 262144);
    assert.equal(sglangDerivedContext(input), 262144);
    const p = servingPlan('vllm', input);
    assert.equal(p.context, 32768, "the default served length is the reach, not vLLM's double-counted 262,144");
    const between = servingPlan('vllm', servingInput(rope, { model: 'x', contextKeys, context: 65536 }));
    assert.deepEqual(between.env, {});
    assert.ok(
      between.notes.some((n) => /65,536 is beyond the 32,768 tokens the model reaches .*vLLM accepts up to 262,144/.test(n)),
      between.notes.join('\n'),
    );
  });

  it('Gemma-3 27B (text_config without max_position_embeddings): vLLM reads the class default 131,072, not 2,048', () => {
    const { rope, contextKeys } = ropeOf(json(join(FIXTURES, 'corpus', 'models', 'gemma-3-27b-it-multimodal.json')));
    assert.equal(vllmDerivedMaxLen(servingInput(rope, { contextKeys })), 131072);
    assert.equal(servingPlan('vllm', servingInput(rope, { model: 'x', contextKeys })).context, 131072);
  });

  it('Llama-2 with linear ×4 added and 4,096 kept (Vicuna-v1.5-16k style) reaches 16,384; with its base raised too, a derivative, still 16,384', () => {
    const llama2 = without(json(join(FIXTURES, 'corpus', 'models', 'llama-2-7b-hf.json')), '_name_or_path');
    const added = ropeOf({ ...llama2, rope_scaling: { type: 'linear', factor: 4.0 } }).rope;
    assert.equal(added.identity?.id, 'meta-llama/Llama-2-7b-hf');
    assert.equal(modelReach(added).value, 16384);
    const own = ropeOf({ ...llama2, rope_theta: 20000.0, rope_scaling: { type: 'linear', factor: 4.0 } }).rope;
    assert.equal(own.identity, null);
    assert.equal(own.derivativeOf?.unscaledTrainedContext, 4096);
    assert.equal(modelReach(own).value, 16384);
  });

  it('Mistral-7B-v0.1 (a 4,096 window on every layer): where the engine applies the window, no YaRN; where it does not, YaRN', () => {
    const { rope, contextKeys } = ropeOf(json(MISTRAL));
    assert.equal(ropeReachAt(rope, 32768), 4096);
    for (const engine of ['vllm', 'tgi'] as const) {
      const p = servingPlan(engine, servingInput(rope, { model: 'x', contextKeys, context: 32768 }));
      assert.equal(p.overrides, null, engine);
      assert.ok(!p.args.some((a) => /yarn|dynamic/.test(a)), `${engine}: ${p.args.join(' ')}`);
      assert.ok(
        p.notes.some((n) => /attends within a 4,096-token sliding window/.test(n)),
        `${engine}: ${p.notes.join('\n')}`,
      );
    }
    // SGLang's Llama/Mistral attention and llama.cpp's LLM_ARCH_LLAMA take no window: every layer sees 32,768.
    for (const engine of ['sglang', 'llama.cpp'] as const) {
      const p = servingPlan(engine, servingInput(rope, { model: 'x', contextKeys, context: 32768 }));
      assert.ok(
        p.args.some((a) => /yarn/.test(a)),
        `${engine}: ${p.args.join(' ')}`,
      );
      assert.ok(
        p.notes.some((n) => /without its 4,096-token sliding window/.test(n)),
        `${engine}: ${p.notes.join('\n')}`,
      );
    }
    // With the windows off the full-attention layers would see 32,768: --disable-sliding-window caps vLLM at the window.
    assert.equal(vllmDerivedMaxLen(servingInput(rope, { contextKeys }), undefined, { disableSlidingWindow: true }), 4096);
    assert.equal(vllmDerivedMaxLen(servingInput(rope, { contextKeys }), undefined, { disableSlidingWindow: false }), 32768);
  });

  it('a model without windows (Qwen2: use_sliding_window false) is unaffected by --disable-sliding-window', () => {
    const { rope, contextKeys } = ropeOf(json(join(FIXTURES, 'corpus', 'models', 'qwen2.5-7b.json')));
    assert.equal(vllmDerivedMaxLen(servingInput(rope, { contextKeys }), undefined, { disableSlidingWindow: true }), 131072);
  });

  it('static YaRN within the trained context: vLLM, SGLang and llama.cpp say what it costs; beyond it, they do not', () => {
    const { rope, contextKeys } = ropeOf(json(QWEN_YARN));
    for (const engine of ['vllm', 'sglang', 'llama.cpp'] as const) {
      const short = servingPlan(engine, servingInput(rope, { model: 'x', contextKeys, context: 32768 }));
      assert.ok(
        short.notes.some((n) => /applies YaRN at every length/.test(n)),
        `${engine}: ${short.notes.join('\n')}`,
      );
      const long = servingPlan(engine, servingInput(rope, { model: 'x', contextKeys, context: 131072 }));
      assert.ok(!long.notes.some((n) => /applies YaRN at every length/.test(n)), engine);
    }
  });
});

describe('serving and training configs judged by the reach', () => {
  let tmp: string;
  let shellParser: ShellParser | undefined;
  before(async () => {
    shellParser = await loadShellParser();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-derivatives-'));
    for (const [name, file] of [
      ['llama-2-7b-32k', LLAMA2_32K],
      ['mistral-7b', MISTRAL],
      ['qwen-yarn', QWEN_YARN],
      ['gradient-262k', GRADIENT],
    ]) {
      mkdirSync(join(tmp, name));
      writeFileSync(join(tmp, name, 'config.json'), readFileSync(file, 'utf8'));
    }
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));
  const analyze = (name: string, text: string) => analyzeText(text, { fileName: join(tmp, name), oracle, resolver: createNodeResolver(), shellParser });
  const codes = (a: { diagnostics: { code: string; severity: string }[] }) => a.diagnostics.map((d) => `${d.severity} ${d.code}`);

  it('vLLM YAML on LLaMA-2-7B-32K: 32,768 clean, 65,536 a warning (accepted, not trained), 300,000 an error', () => {
    assert.deepEqual(codes(analyze('a.yaml', 'model: ./llama-2-7b-32k\nmax-model-len: 32768\n')), []);
    const mid = analyze('b.yaml', 'model: ./llama-2-7b-32k\nmax-model-len: 65536\n');
    assert.deepEqual(codes(mid), ['warning vllm/context-beyond-trained']);
    assert.match(said(mid.diagnostics[0]), /beyond the 32,768 tokens .* reaches .*vLLM accepts up to 262,144/);
    assert.deepEqual(codes(analyze('c.yaml', 'model: ./llama-2-7b-32k\nmax-model-len: 300000\n')), ['error vllm/max-model-len-exceeds']);
  });

  it('vLLM YAML on Mistral-7B-v0.1 at 32,768: windows keep every layer within reach; disable-sliding-window makes it an error', () => {
    assert.deepEqual(codes(analyze('d.yaml', 'model: ./mistral-7b\nmax-model-len: 32768\n')), []);
    const off = analyze('e.yaml', 'model: ./mistral-7b\nmax-model-len: 32768\ndisable-sliding-window: true\n');
    assert.deepEqual(codes(off), ['error vllm/max-model-len-exceeds']);
    assert.match(said(off.diagnostics[0]), /vLLM derives 4,096 .*disable-sliding-window caps it at the sliding window 4,096/);
  });

  it('vLLM YAML with YaRN served within the trained 32,768: information; at 65,536 none', () => {
    const short = analyze('f.yaml', 'model: ./qwen-yarn\nmax-model-len: 32768\n');
    assert.deepEqual(codes(short), ['information vllm/static-yarn-within-trained']);
    assert.deepEqual(codes(analyze('g.yaml', 'model: ./qwen-yarn\nmax-model-len: 65536\n')), []);
  });

  it('vLLM YAML on the gradient derivative at 262,144: clean (its own context)', () => {
    assert.deepEqual(codes(analyze('h.yaml', 'model: ./gradient-262k\nmax-model-len: 262144\n')), []);
  });

  it('launch commands: the 262k derivative at its own context is clean; Mistral under SGLang (no window applied) is not', () => {
    const own = analyze('serve.sh', '#!/bin/sh\npython -m sglang.launch_server --model-path ./gradient-262k --context-length 262144\n');
    assert.equal(own.kind, 'launch');
    assert.deepEqual(
      codes(own).filter((c) => !c.startsWith('information')),
      [],
    );
    const vllm = analyze('serve2.sh', '#!/bin/sh\nvllm serve ./gradient-262k --max-model-len 262144\n');
    assert.deepEqual(
      codes(vllm).filter((c) => !c.startsWith('information')),
      [],
    );
    const mistral = analyze('serve3.sh', '#!/bin/sh\npython -m sglang.launch_server --model-path ./mistral-7b --context-length 32768\n');
    assert.ok(codes(mistral).includes('warning launch/beyond-trained'), codes(mistral).join(', '));
    const mistralVllm = analyze('serve4.sh', '#!/bin/sh\nvllm serve ./mistral-7b --max-model-len 32768\n');
    assert.deepEqual(
      codes(mistralVllm).filter((c) => !c.startsWith('information')),
      [],
    );
  });

  it('axolotl at 65,536 on LLaMA-2-7B-32K: beyond what its linear scaling reaches (counted once)', () => {
    const a = analyze('train.yaml', 'base_model: ./llama-2-7b-32k\nsequence_len: 65536\nadapter: lora\ndatasets:\n  - path: x\n    type: completion\n');
    assert.ok(codes(a).includes('warning training/context-exceeded'), codes(a).join(', '));
    const d = a.diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    assert.match(said(d), /It covers 32,768 tokens \(shipped with linear ×8.*Scale from the unscaled context 4,096 by factor 16/);
    const ok = analyze('train2.yaml', 'base_model: ./llama-2-7b-32k\nsequence_len: 32768\nadapter: lora\ndatasets:\n  - path: x\n    type: completion\n');
    assert.ok(!codes(ok).includes('warning training/context-exceeded'), codes(ok).join(', '));
  });

  it('axolotl at 32,768 on Mistral-7B-v0.1: every layer windowed at 4,096, nothing extrapolated', () => {
    const a = analyze('train3.yaml', 'base_model: ./mistral-7b\nsequence_len: 32768\nadapter: lora\ndatasets:\n  - path: x\n    type: completion\n');
    assert.ok(!codes(a).includes('warning training/context-exceeded'), codes(a).join(', '));
  });
});
