import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildPlan, PlanModel } from '../../shared/planner/plan';
import { planStages, stagedGradientBases, stagedNtkAwareBases } from '../../shared/planner/stages';
import { trainedContextOf } from '../../shared/config/trainedContext';
import { loadPlanModel } from '../../shared/planner/modelSource';
import { lmaxOfFrequencies, lmax, robustNeighbourhood } from '../../shared/bstar/index';
import { planProofs } from '../../shared/planner/options';
import { fAt } from '../../shared/rope/fb';
import { gradientThetaBase, ntkAwareBase, ntkMixedA, ntkMixedInvFreq } from '../../shared/rope/seedMethods';
import { computeFrequencies, defaultInvFreq } from '../../shared/rope/invFreq';
import { criticalDimension } from '../../shared/rope/analysis';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import { catalogResolver, FileReader } from '../../shared/config/resolve';
import { nodeFileReader } from '../../shared/node/resolveNode';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { RopeError } from '../../shared/core/errors';
import type { Plan, Trainer } from '../../shared/planner/types';

const FIX = join(__dirname, '..', 'fixtures');

function close(actual: number, expected: number, tol: number, what = ''): void {
  const err = Math.abs(actual - expected) / Math.abs(expected);
  assert.ok(err <= tol, `${what}: got ${actual}, expected ${expected} (rel err ${err})`);
}

function modelFrom(path: string, label: string): PlanModel {
  const text = readFileSync(path, 'utf8');
  const rope = readModelRope(parseJsonDocument(text))!;
  return { label, from: path, rope, config: JSON.parse(text) };
}

const llama3 = () => modelFrom(join(FIX, 'corpus/models/meta-llama-3-8b.json'), 'meta-llama/Meta-Llama-3-8B');
const llama2 = () => modelFrom(join(FIX, 'corpus/models/llama-2-7b-hf.json'), 'meta-llama/Llama-2-7b-hf');

const noFiles: FileReader = { readText: () => undefined, listDir: () => undefined };

describe('planner: formulas against the seeds', () => {
  it('NTK-aware staged base telescopes to b·s^(d/(d−2)); 40889.94 for (1e4, s = 4, d = 128)', () => {
    const [one] = stagedNtkAwareBases(10000, 4096, [16384], 128);
    assert.equal(Math.round(one * 100) / 100, 40889.94);
    const staged = stagedNtkAwareBases(10000, 4096, [8192, 12288, 16384], 128);
    close(staged[2], ntkAwareBase(10000, 4, 128), 1e-9, 'three stages vs one');
    close(staged[1], ntkAwareBase(10000, 3, 128), 1e-9, 'middle stage');
  });

  it("Gradient's law staged from the previous stage gives their Llama-3-8B bases (283,461,213.5 and 3,580,165,449)", () => {
    const [b65k, b262k, b1m] = stagedGradientBases(5e5, 8192, [65536, 262144, 1048576]);
    close(b262k, 283461213.5, 1e-9, '262k');
    close(b1m, 3580165449, 1e-9, '1048k');
    close(b65k, gradientThetaBase(5e5, 8192, 65536), 1e-9, '65k');
    close(b1m, gradientThetaBase(5e5, 8192, 1048576), 1e-9, 'telescopes');
  });

  it('stages: increasing, ending at the target; bad stages are refused with a clear message', () => {
    assert.deepEqual(planStages(8192, 131072), [131072]);
    assert.deepEqual(planStages(8192, 131072, [32768]), [32768, 131072]);
    assert.throws(
      () => planStages(8192, 131072, [65536, 32768]),
      (e: unknown) => e instanceof RopeError && /increase/.test(e.message),
    );
    assert.throws(
      () => planStages(8192, 4096),
      (e: unknown) => e instanceof RopeError && /does not exceed/.test(e.message),
    );
    assert.throws(
      () => planStages(8192, 1.5e9),
      (e: unknown) => e instanceof RopeError && e.code === 'unsupported-length',
    );
  });

  it("trained context: the reader's value first, then original_max_position_embeddings, then max_position_embeddings", () => {
    const rope = llama3().rope;
    assert.equal(trainedContextOf(rope).value, 8192);
    assert.match(trainedContextOf(rope).source, /^(assumed:max_position_embeddings|catalog:meta-llama\/Meta-Llama-3-8B)/);
    const l31 = modelFrom(join(FIX, 'models/llama-3.1-8b.json'), 'x').rope;
    assert.equal(trainedContextOf(l31).value, 8192);
    assert.match(trainedContextOf(l31).source, /^config:.*original_max_position_embeddings/);
    assert.equal(trainedContextOf({ ...rope, trainedContext: { value: 4096, source: 'catalog:x' } }).source, 'catalog:x');
  });
});

describe('planner: generalised bound', () => {
  it('lmaxOfFrequencies equals lmax for a plain base and is the first m with Σcos < 0 on any frequency set', () => {
    for (const [b, L] of [
      [10000, 8192],
      [5e5, 65536],
      [2e6, 131072],
    ] as const) {
      assert.equal(lmaxOfFrequencies(defaultInvFreq(b, 128), L), lmax(b, 128, L), `b=${b}`);
    }
    const yarn = computeFrequencies({
      ropeType: 'yarn',
      base: 5e5,
      rotaryDim: 128,
      factor: 32,
      originalMaxPositionEmbeddings: 8192,
      maxPositionEmbeddings: 262144,
    }).invFreq;
    const m = lmaxOfFrequencies(yarn, 262144);
    assert.ok(m !== null);
    assert.ok(fAt(yarn, m) < -1e-7, 'negative at lmax');
    for (let k = Math.max(0, m - 3000); k < m; k++) assert.ok(fAt(yarn, k) >= -1e-7, `non-negative before lmax (m=${k})`);
    // Order of the frequencies does not matter (the scan sorts them).
    assert.equal(lmaxOfFrequencies(Float64Array.from(yarn).reverse(), 262144), m);
    assert.throws(() => lmaxOfFrequencies([], 10), RopeError);
    assert.throws(() => lmaxOfFrequencies([NaN], 10), RopeError);
  });
});

function option(plan: Plan, stage: number, method: string) {
  const o = plan.stages[stage].options.find((x) => x.method === method);
  assert.ok(o, `option ${method} in stage ${stage}`);
  return o!;
}

describe('planner: plans for real models', () => {
  let plan: Plan;
  before(() => {
    plan = buildPlan(llama3(), { target: 1048576, stages: [65536, 262144] });
  });

  it('Llama-3-8B staged 65k → 262k → 1M: the seed formulas to 1e-9', () => {
    assert.equal(plan.trainedContext, 8192);
    assert.deepEqual(
      plan.stages.map((s) => s.length),
      [65536, 262144, 1048576],
    );
    close(option(plan, 1, 'gradient').ropeTheta!, 283461213.5, 1e-9, 'Gradient 262k');
    close(option(plan, 2, 'gradient').ropeTheta!, 3580165449, 1e-9, 'Gradient 1M');
    plan.stages.forEach((st, k) => {
      const s = st.length / 8192;
      close(option(plan, k, 'ntk-aware').ropeTheta!, 5e5 * Math.pow(s, 128 / 126), 1e-9, `NTK-aware stage ${k}`);
      const mixed = option(plan, k, 'ntk-mixed');
      const a = ntkMixedA(s, 128);
      mixed.perDimensionFactors!.forEach((f, i) => close(f, Math.exp(a * Math.pow(i + 1, 0.625)), 1e-9, `mixed factor ${i}`));
      close(mixed.perDimensionFactors![63], s, 1e-9, 'mixed: the last digit carries the whole factor');
      const yarn = option(plan, k, 'yarn');
      assert.deepEqual(yarn.ropeScaling, { rope_type: 'yarn', factor: s, original_max_position_embeddings: 8192 });
      close(yarn.attentionFactor, 0.1 * Math.log(s) + 1, 1e-12, 'YaRN attention factor');
      close(mixed.lognScale!, Math.log(st.length) / Math.log(8192), 1e-12, 'log-n scale');
      assert.equal(option(plan, k, 'dynamic').trainable, false);
      assert.equal(option(plan, k, 'ntk-fixed').expressible, false);
      // Gradient's law keeps Liu et al.'s critical dimension of T.
      assert.equal(option(plan, k, 'gradient').criticalDim, criticalDimension(5e5, 128, 8192));
    });
  });

  it("every option's verdict is the generalised bound on its own frequencies, recomputed independently", () => {
    const st = plan.stages[1];
    const yarn = computeFrequencies({
      ropeType: 'yarn',
      base: 5e5,
      rotaryDim: 128,
      factor: 32,
      originalMaxPositionEmbeddings: 8192,
      maxPositionEmbeddings: 262144,
    }).invFreq;
    const hit = lmaxOfFrequencies(yarn, 262144);
    assert.equal(option(plan, 1, 'yarn').meetsBound, hit === null);
    assert.equal(option(plan, 1, 'yarn').lmax, hit ?? 262144);
    const mixedHit = lmaxOfFrequencies(ntkMixedInvFreq(5e5, 128, 32), 262144);
    assert.equal(option(plan, 1, 'ntk-mixed').lmax, mixedHit ?? 262144);
    assert.equal(st.options.find((o) => o.method === 'as-shipped')!.lmax, lmax(5e5, 128, 262144));
  });

  it('every recommended option meets the bound at its stage length, is trainable and the least change among those', () => {
    for (const p of [plan, buildPlan(llama2(), { target: 32768 }), buildPlan(llama2(), { target: 131072, stages: [16384, 65536] })]) {
      for (const st of p.stages) {
        assert.ok(st.recommended, `stage ${st.length}: ${st.recommendedReason}`);
        const rec = st.options.find((o) => o.method === st.recommended)!;
        assert.ok(rec.meetsBound && rec.trainable && rec.expressible, `${rec.method} at ${st.length}`);
        // Recomputed from the written setting alone, not from the plan's own frequencies.
        const sc = rec.ropeScaling;
        const freqs =
          rec.ropeTheta !== undefined
            ? defaultInvFreq(rec.ropeTheta, 128)
            : computeFrequencies({
                ropeType: sc!.rope_type as 'yarn',
                base: p.base,
                rotaryDim: 128,
                factor: sc!.factor as number,
                maxPositionEmbeddings: st.length,
                originalMaxPositionEmbeddings: sc!.original_max_position_embeddings as number | undefined,
                lowFreqFactor: sc!.low_freq_factor as number | undefined,
                highFreqFactor: sc!.high_freq_factor as number | undefined,
              }).invFreq;
        assert.equal(lmaxOfFrequencies(freqs, st.length), null, `${rec.method} at ${st.length} recomputed`);
        // A base is recommended only with its whole ±10% proven valid (the robust base is by construction).
        if (rec.ropeTheta !== undefined && rec.method !== 'robust-base') assert.equal(rec.neighbourhood, 'proven', `${rec.method} at ${st.length}`);
        for (const o of st.options) {
          const provenOrNotBase = o.neighbourhood === undefined || o.neighbourhood === 'proven';
          if (o.meetsBound && o.trainable && o.expressible && o.method !== 'as-shipped' && provenOrNotBase)
            assert.ok(o.change >= rec.change, `${o.method} changes less than ${rec.method}`);
        }
        assert.match(st.recommendedReason, /meets the bound/);
      }
    }
  });

  it('says why when no option can meet the bound (rotary dim 4: cos m alone reaches −1)', () => {
    const text = JSON.stringify({ model_type: 'llama', hidden_size: 16, num_attention_heads: 4, max_position_embeddings: 4096, rope_theta: 10000 });
    const p = buildPlan({ label: 'tiny', from: 'tiny.json', rope: readModelRope(parseJsonDocument(text))! }, { target: 65536 });
    const st = p.stages[0];
    assert.equal(st.recommended, null);
    assert.ok(
      st.options.every((o) => !o.meetsBound || !o.expressible || !o.trainable),
      'no trainable option meets it',
    );
    assert.match(st.recommendedReason, /No option a trainer can write meets the bound at 65,536; the closest, .* holds to [\d,]+ of 65,536/);
    assert.match(st.snippetNotes.axolotl!, /No option axolotl can write meets the bound/);
  });

  it('a model that ships llama3 scaling: options on the unscaled base relative to T, base changes ranked before new scaling', () => {
    const l31 = modelFrom(join(FIX, 'models/llama-3.1-8b.json'), 'meta-llama/Llama-3.1-8B');
    // Proofs at every length (as the CLI), on this thread.
    const p = buildPlan(l31, { target: 262144 }, planProofs(robustNeighbourhood));
    assert.equal(p.trainedContext, 8192);
    assert.equal(p.shippedScaling, 'llama3');
    const st = p.stages[0];
    const rec = st.options.find((o) => o.method === st.recommended)!;
    assert.ok(rec.ropeTheta !== undefined, `recommended ${rec.method}`);
    assert.equal(rec.method, 'robust-base');
    // axolotl runs transformers 5: the plain base is written as rope_parameters (null would fail to build).
    assert.match(st.snippets.axolotl!, /rope_parameters:\n {4}rope_type: default\n {4}rope_theta: /);
    assert.doesNotMatch(st.snippets.axolotl!, /rope_scaling: null/);
  });

  it("a base option valid at its own value but not over its ±10% is not recommended (Mistral-7B-v0.3 → 131,072: Gradient's law base)", () => {
    const p = buildPlan(loadPlanModel('mistralai/Mistral-7B-v0.3', nodeFileReader, catalogResolver, '.'), { target: 131072 });
    const st = p.stages[0];
    const gradient = st.options.find((o) => o.method === 'gradient')!;
    const robust = st.options.find((o) => o.method === 'robust-base')!;
    // Gradient's law changes the frequencies least of the options that meet the bound, so it was asked first.
    assert.ok(gradient.meetsBound && gradient.change < robust.change);
    assert.equal(typeof gradient.neighbourhood, 'object', JSON.stringify(gradient.neighbourhood));
    const invalidAt = (gradient.neighbourhood as { invalidAt: number }).invalidAt;
    assert.ok(Math.abs(invalidAt / gradient.ropeTheta! - 1) <= 0.1 + 1e-12, `${invalidAt} outside ±10% of ${gradient.ropeTheta}`);
    assert.ok(directlyInvalid(invalidAt, 128, 131072), `${invalidAt} is valid by direct cosines`);
    assert.equal(st.recommended, 'robust-base');
    assert.match(gradient.notes.join(' '), /not every base within ±10% is .*not recommended/);
  });
});

/** Some m < L with Σ cos(m·b^(−2i/d)) < −1e-7, by direct cosines (Math.pow and Math.cos only). */
function directlyInvalid(base: number, d: number, L: number): boolean {
  const th = Array.from({ length: d / 2 }, (_, i) => Math.pow(base, (-2 * i) / d));
  for (let m = 0; m < L; m++) {
    let f = 0;
    for (const t of th) f += Math.cos(m * t);
    if (f < -1e-7) return true;
  }
  return false;
}

const oracle = createSyncOracle();
const ROPE_CODES = /^(rope|training|axolotl|llama-factory)\//;

function fullYaml(trainer: Trainer, modelRef: string, snippet: string): string {
  if (trainer === 'axolotl') return `base_model: ${modelRef}\n${snippet}`;
  if (trainer === 'llama-factory') return `model_name_or_path: ${modelRef}\nstage: sft\ndo_train: true\nfinetuning_type: lora\n${snippet}`;
  return `checkpointer:\n  _component_: torchtune.training.FullModelHFCheckpointer\n  checkpoint_dir: ${modelRef}\n${snippet}`;
}

describe('planner: trainer snippets', () => {
  const cases: { id: string; target: number; stages?: number[] }[] = [
    { id: 'meta-llama/Meta-Llama-3-8B', target: 1048576, stages: [65536, 262144] },
    { id: 'meta-llama/Llama-2-7b-hf', target: 32768 },
    { id: 'mistralai/Mistral-7B-v0.3', target: 131072 },
    { id: 'Qwen/Qwen2.5-7B-Instruct', target: 131072, stages: [65536] },
    { id: 'google/gemma-7b', target: 32768 },
    { id: 'meta-llama/Llama-3.1-8B', target: 262144 },
  ];
  for (const c of cases) {
    it(`${c.id} → ${c.target}: each snippet parses as YAML and, with the base model named, check raises no RoPE warning or error`, () => {
      const model = loadPlanModel(c.id, noFiles, catalogResolver);
      const p = buildPlan(model, { target: c.target, stages: c.stages });
      let checked = 0;
      for (const st of p.stages) {
        for (const [trainer, snippet] of Object.entries(st.snippets) as [Trainer, string][]) {
          const parsed = parseYaml(snippet);
          assert.equal(typeof parsed, 'object', `${trainer} snippet parses`);
          const text = fullYaml(trainer, c.id, snippet);
          // LLaMA-Factory's scaling loads on transformers 4.x only (its snippet note says so): checked with that pin.
          const consumers = trainer === 'llama-factory' ? ['transformers==4.51.3'] : undefined;
          const a = analyzeText(text, { fileName: `plan-${trainer}.yaml`, oracle, resolver: catalogResolver, ...(consumers ? { consumers } : {}) });
          assert.equal(a.kind, 'training-config', `${trainer} at ${st.length} is read as a training config:\n${text}`);
          assert.equal(a.training?.resolvedFrom?.startsWith('catalog:'), true, `${trainer}: base model resolved`);
          const bad = a.diagnostics.filter((d) => ROPE_CODES.test(d.code) && (d.severity === 'warning' || d.severity === 'error'));
          const rec = st.options.find((o) => o.method === st.recommended);
          const expectClean = trainer !== 'llama-factory' || !p.shippedScaling;
          if (expectClean)
            assert.deepEqual(
              bad.map((d) => `${d.code}: ${d.message}`),
              [],
              `${trainer} at ${st.length} (${rec?.method}):\n${text}`,
            );
          checked++;
        }
      }
      assert.ok(checked >= p.stages.length, 'at least one snippet per stage');
    });
  }

  it('axolotl writes the recommended setting under overrides_of_model_config; LLaMA-Factory names a scaling and explains what it derives', () => {
    const p = buildPlan(llama3(), { target: 65536 });
    const st = p.stages[0];
    const ax = parseYaml(st.snippets.axolotl!);
    assert.equal(ax.sequence_len, 65536);
    const rec = st.options.find((o) => o.method === st.recommended)!;
    if (rec.ropeTheta !== undefined) close(ax.overrides_of_model_config.rope_theta, rec.ropeTheta, 1e-10, 'rope_theta');
    else assert.equal(ax.overrides_of_model_config.rope_scaling.rope_type, rec.ropeScaling!.rope_type);
    const lf = parseYaml(st.snippets['llama-factory']!);
    assert.equal(lf.cutoff_len, 65536);
    assert.ok(['yarn', 'linear', 'llama3'].includes(lf.rope_scaling));
    assert.match(st.snippetNotes['llama-factory']!, /ceil\(65,536 \/ 8,192\) = 8/);
    const tt = parseYaml(st.snippets.torchtune!);
    assert.equal(tt.model._component_, 'torchtune.models.llama3.llama3');
    assert.equal(tt.model.max_seq_len, 65536);
    assert.equal(tt.tokenizer.max_seq_len, 65536);
    assert.equal(tt.model.num_kv_heads, 8);
  });

  it('torchtune builder snippets from a full config.json pass check, and the check is sensitive to the base they write', () => {
    const model = loadPlanModel(join(FIX, 'corpus/models/meta-llama-3-8b.json'), nodeFileReader, catalogResolver);
    const p = buildPlan(model, { target: 262144, stages: [65536] });
    for (const st of p.stages) {
      const snippet = st.snippets.torchtune!;
      assert.ok(snippet, st.snippetNotes.torchtune);
      const clean = analyzeText(fullYaml('torchtune', 'meta-llama/Meta-Llama-3-8B', snippet), { fileName: 't.yaml', oracle, resolver: catalogResolver });
      assert.deepEqual(
        clean.diagnostics.filter((d) => d.severity === 'warning' || d.severity === 'error').map((d) => d.code),
        [],
        snippet,
      );
      // Control: the same YAML with the original base is flagged, so the check above judged the base.
      const stock = snippet.replace(/rope_base: .*/, 'rope_base: 500000.0');
      const flagged = analyzeText(fullYaml('torchtune', 'meta-llama/Meta-Llama-3-8B', stock), { fileName: 't.yaml', oracle, resolver: catalogResolver });
      assert.ok(
        flagged.diagnostics.some((d) => d.code === 'rope/base-below-bound'),
        `control at ${st.length}`,
      );
    }
  });

  it('torchtune: no snippet, with the reason, when the builder arguments are unknown', () => {
    const p = buildPlan({ ...llama3(), config: undefined }, { target: 32768 });
    assert.equal(p.stages[0].snippets.torchtune, undefined);
    assert.match(p.stages[0].snippetNotes.torchtune!, /needs vocab_size/);
  });
});
