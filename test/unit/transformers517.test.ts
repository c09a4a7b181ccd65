/**
 * RoPE Lens's transformers 5.x model against the real library: transformers 5.17.0 built every config
 * of test/fixtures/transformers-5.17/results.json (the config class from the file, then each rotary
 * module of the model from that config) and recorded its inv_freq buffers, attention scaling per
 * layer type, and the exception of every file it refused. Expected values come from that run only.
 *
 *  - `freqs --variant v5` (freqsReport, reading the file as the CLI does) gives 5.17's inv_freq to
 *    1e-6 relative and its attention scaling, for every layer type that has its own table;
 *  - the consumer table's transformers 5.x row accepts what 5.17 built and refuses what it refused,
 *    quoting its error; model types it has no class for load only as remote code;
 *  - the reader differences left are named below with the finding RoPE Lens reports for each.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliService } from '../../server/cli/service';
import { freqsReport } from '../../server/cli/freqs';
import { toRopeSpec } from '../../shared/config/modelConfig';
import { computeFrequencies } from '../../shared/rope/invFreq';
import { parseDocumentText } from '../../shared/document/parse';
import { readModelConfig } from '../../shared/config/modelConfig';
import { consumerTable, intendedReading, misreadOf } from '../../shared/serving/consumers';
import { consumersText } from '../../shared/serving/consumersView';
import type { ConsumerReading } from '../../shared/serving/consumer';
import type { ModelRope } from '../../shared/config/modelRope';
import { familyDefaultBase } from '../../shared/config/families';
import {
  DEFAULT_THETA_5,
  LAYER_TYPES_CLASSES_5,
  MODEL_TYPES_5,
  PER_LAYER_TYPE_5,
  ROTARY_DIM_CLASSES_5,
  knownTo5x,
} from '../../shared/config/transformers5Classes';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { said } from './helpers/findingText';

const ROOT = join(__dirname, '..', '..');
const DATA = join(ROOT, 'test', 'fixtures', 'transformers-5.17');

interface Table {
  class: string;
  layerType?: string;
  ropeType?: string;
  attentionScaling?: number;
  invFreq?: number[];
  error?: string;
}
interface Result {
  modelType: string;
  error?: string;
  log?: string;
  tables: Table[];
}
const results: Record<string, Result> = JSON.parse(readFileSync(join(DATA, 'results.json'), 'utf8')).configs;

const text = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** The file read as `rope-lens freqs` reads it (the CLI's service, as a model config). */
const service = cliService('v5');
const seen = new Map<string, ReturnType<typeof service.describe>>();
const described = (path: string) => {
  if (!seen.has(path)) seen.set(path, service.describe(text(path), { fileName: join(ROOT, path), asModelConfig: true }));
  return seen.get(path)!;
};
function rows(path: string): ConsumerReading[] {
  const doc = parseDocumentText(text(path), 'json');
  const rope = readModelConfig(doc, { filePath: path })?.rope;
  return rope ? consumerTable(rope, doc) : [];
}
const row5 = (path: string) => rows(path).find((r) => r.consumer === 'transformers-5')!;
const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
const oracle = createSyncOracle();
const codes = (path: string, src = text(path)) => analyzeText(src, { fileName: join(ROOT, path), oracle }).diagnostics;

/**
 * Files 5.17 builds where RoPE Lens does not compute the same numbers, each a documented difference
 * with the finding RoPE Lens reports instead (checked below, not skipped silently).
 */
const READER_DIFFERENCES: Record<string, string> = {
  // 5.17 logs "`rope_parameters`'s factor field must be a float or int >= 1, got 0.25" and runs with it.
  'test/fixtures/configs/llama-2-linear-inverted-factor.oneline.json': 'rope/scaling-invalid-value',
  // 5.17 logs "high_freq_factor field must be greater than low_freq_factor" and runs with it.
  'test/fixtures/configs/llama3-bad-bands.json': 'rope/llama3-freq-order',
};
/** 5.17 builds a rotary module from this config, but its attention is NoPE (position_embedding_type "nope"). */
const NOPE_BUILT = 'test/fixtures/hybrids/granitemoehybrid-8-layer.json';
/**
 * Refused by 5.17 and loaded by 5.18.0, which the 5.x row follows (the real-transformers tier checks it against 5.18):
 * a plain value beside the per-layer-type entries of rope_parameters.
 */
const REFUSED_BY_517_ONLY = new Set([
  'test/fixtures/transformers-5.17/refused/olmo-3-flat-rope-parameters.json',
  'test/fixtures/transformers-5.17/refused/gemma-4-26b-a4b-text-v5-mixed-rope-parameters.json',
]);
/** Refused by 5.17 for a key that is not RoPE's (DBRX's ffn_config.ffn_act_fn must be a dict): out of RoPE Lens's scope. */
const NON_ROPE_REFUSAL = 'test/fixtures/corpus/models/dbrx-132b.json';

describe('transformers 5.17 ground truth: frequencies', () => {
  const built = Object.entries(results).filter(([, r]) => !r.error && r.tables.some((t) => t.invFreq));

  it('the data covers the configs it says (every file exists, most built, several refused)', () => {
    assert.ok(Object.keys(results).length >= 100);
    assert.ok(built.length >= 70, `${built.length} built`);
    for (const p of Object.keys(results)) assert.ok(text(p).length > 0, p);
  });

  it("freqs --variant v5 gives 5.17's inv_freq (1e-6 relative) and attention scaling for every layer type of every config it built", () => {
    const failures: string[] = [];
    let compared = 0;
    for (const [path, r] of built) {
      if (READER_DIFFERENCES[path] || path === NOPE_BUILT) continue;
      const d = described(path);
      if (!d.rope) {
        failures.push(`${path}: no RoPE read (${d.noRope ?? 'not a model config'})`);
        continue;
      }
      const rope: ModelRope = d.rope;
      const spec = toRopeSpec(rope, { variant: 'v5' });
      const report = freqsReport(rope, spec, computeFrequencies(spec, { variant: 'v5' }), { variant: 'v5' });
      for (const t of r.tables) {
        if (!t.invFreq) continue; // vision rotary classes 5.17 could not build from a text config
        // One table per layer type, or one table every layer uses.
        const groups = report.groups.filter((g) => !t.layerType || g.layerType === t.layerType);
        if (!groups.length) {
          failures.push(`${path}: no group for ${t.layerType}`);
          continue;
        }
        for (const g of groups) {
          compared++;
          const where = `${path} ${t.class}${t.layerType ? `[${t.layerType}]` : ''} vs group ${g.layerType}`;
          if (g.invFreq.length !== t.invFreq.length) {
            failures.push(`${where}: ${g.invFreq.length} frequencies, 5.17 has ${t.invFreq.length}`);
            continue;
          }
          const worst = Math.max(...t.invFreq.map((x, i) => rel(g.invFreq[i], x)));
          if (worst > 1e-6) failures.push(`${where}: inv_freq off by ${worst.toExponential(2)} relative`);
          if (rel(g.attentionFactor, t.attentionScaling!) > 1e-6) failures.push(`${where}: attention factor ${g.attentionFactor}, 5.17 ${t.attentionScaling}`);
        }
        if (!t.layerType && report.invFreq.length === t.invFreq.length) {
          const worst = Math.max(...t.invFreq.map((x, i) => rel(report.invFreq[i], x)));
          if (worst > 1e-6) failures.push(`${path}: top-level inv_freq off by ${worst.toExponential(2)}`);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(compared >= 80, `${compared} tables compared`);
  });

  it('Olmo-3.1-32B-Instruct: YaRN and attention scaling 1.208 on full-attention layers only; sliding layers default RoPE at 500,000 and 1.0', () => {
    for (const path of ['test/fixtures/corpus/models/olmo-3.1-32b-instruct.json', 'test/fixtures/configs/olmo-3-v5-rope-parameters.json']) {
      const rope = described(path).rope!;
      const spec = toRopeSpec(rope, { variant: 'v5' });
      const g = freqsReport(rope, spec, computeFrequencies(spec, { variant: 'v5' }), { variant: 'v5' }).groups;
      const full = g.find((x) => x.layerType === 'full_attention')!;
      const sliding = g.find((x) => x.layerType === 'sliding_attention')!;
      assert.equal(full.ropeType, 'yarn', path);
      assert.ok(Math.abs(full.attentionFactor - 1.2079441541679836) < 1e-12, path);
      assert.equal(sliding.ropeType, 'default', path);
      assert.equal(sliding.base, 500000, path);
      assert.equal(sliding.attentionFactor, 1, path);
    }
  });

  it('documented differences: 5.17 logs an invalid factor or band order and runs anyway; RoPE Lens refuses to compute and reports the finding', () => {
    for (const [path, code] of Object.entries(READER_DIFFERENCES)) {
      const r = results[path];
      assert.ok(!r.error && r.log && /must be/.test(r.log), path); // built, with the complaint logged
      const rope = described(path).rope!;
      assert.throws(() => computeFrequencies(toRopeSpec(rope, { variant: 'v5' }), { variant: 'v5' }), path);
      assert.ok(
        codes(path).some((d) => d.code === code),
        `${path}: ${code}`,
      );
    }
  });

  it('Granite-MoE-Hybrid with position_embedding_type "nope": 5.17 builds a rotary module its attention never applies; RoPE Lens says NoPE', () => {
    assert.ok(results[NOPE_BUILT].tables.some((t) => t.invFreq));
    assert.match(described(NOPE_BUILT).noRope ?? '', /position_embedding_type "nope"/);
  });
});

describe('transformers 5.17 ground truth: the 5.x consumer row accepts and refuses as the library did', () => {
  it("every config: refused with 5.17's own error text, remote code where 5.17 has no class, read otherwise", () => {
    const failures: string[] = [];
    for (const [path, r] of Object.entries(results)) {
      const noRope = described(path).noRope;
      if (noRope) {
        // No rotary attention: 5.17 has no rotary class for it either, or builds one NoPE attention never applies.
        if (path !== NOPE_BUILT && !r.tables.every((t) => t.error === 'no RotaryEmbedding class'))
          failures.push(`${path}: NoPE here, 5.17 built ${JSON.stringify(r.tables.map((t) => t.class))}`);
        continue;
      }
      const row = row5(path);
      if (!row) {
        failures.push(`${path}: no consumer table`);
        continue;
      }
      if (r.error?.startsWith('unknown model_type')) {
        if (row.status !== 'reads' || !row.remoteCode) failures.push(`${path}: 5.17 has no class; row ${row.status} remoteCode=${row.remoteCode}`);
      } else if (REFUSED_BY_517_ONLY.has(path)) {
        if (row.status !== 'reads') failures.push(`${path}: 5.18 loads it; row ${row.status}`);
      } else if (r.error && path !== NON_ROPE_REFUSAL) {
        if (row.status !== 'refuses' || row.error !== r.error)
          failures.push(`${path}: 5.17 refused with ${JSON.stringify(r.error)}; row ${row.status} ${JSON.stringify(row.error)}`);
      } else if (row.status !== 'reads' || row.remoteCode) {
        failures.push(`${path}: 5.17 built it; row ${row.status}${row.remoteCode ? ' (remote code)' : ''} ${row.error ?? ''}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('a non-RoPE refusal (DBRX ffn_act_fn) is the one file RoPE Lens accepts that 5.17 refused, and the error names no RoPE key', () => {
    assert.match(results[NON_ROPE_REFUSAL].error!, /Validation error for field 'ffn_act_fn'/);
    assert.doesNotMatch(results[NON_ROPE_REFUSAL].error!, /rope|layer_types/);
    assert.equal(row5(NON_ROPE_REFUSAL).status, 'reads');
  });

  it('refusals are consumer/refused errors (the current transformers fails at load) on the key 5.17 complains about, and the file keeps its meaning for the other rows', () => {
    const refused = {
      'test/fixtures/transformers-5.17/refused/gemma-3-4b-v5-six-layer-types.json': 'layer_types',
      'test/fixtures/models/phi-3-mini-128k-instruct.json': '"su"',
    };
    for (const [path, key] of Object.entries(refused)) {
      const src = text(path);
      const d = codes(path, src).find((x) => x.code === 'consumer/refused' && x.message.startsWith('transformers 5.x'));
      assert.ok(d, path);
      assert.equal(d.severity, 'error', path);
      assert.ok(said(d).includes(results[path].error!.split('\n')[0]), path);
      const lines = src.split('\n');
      assert.ok(lines[d.range.start.line].includes(key), `${path}: finding on line ${d.range.start.line + 1}, not on ${key}`);
      const table = rows(path);
      assert.equal(intendedReading(table)!.status, 'reads', path);
      // vLLM ≥ 0.24 builds the config through transformers 5: the same refusal.
      assert.equal(table.find((r) => r.consumer === 'vllm')!.error, results[path].error, path);
      assert.match(consumersText(table), /transformers 5\.x\s+REFUSES \*/);
    }
  });

  it('the hand-written v5 fixtures, rewritten in layouts 5.x accepts, are read (not refused) by the 5.x row', () => {
    for (const path of [
      'test/fixtures/models/gemma-3-4b-v5.json',
      'test/fixtures/corpus/models/gemma-3-4b-v5-per-layer.json',
      'test/fixtures/corpus/models/gemma-4-26b-a4b-text-v5.json',
      'test/fixtures/configs/olmo-3-v5-rope-parameters.json',
    ]) {
      const row = row5(path);
      assert.equal(row.status, 'reads', `${path}: ${row.error}`);
      assert.ok(!codes(path).some((d) => d.code === 'consumer/refused'), path);
    }
  });
});

describe('class defaults per generation (transformers 5.17 class table)', () => {
  type ClassFacts = {
    rope_parameters?: Record<string, unknown>;
    rope_theta?: number;
    default_theta?: number | Record<string, number>;
    rotary_dim?: number;
    layer_types?: string[];
  };
  const classes: Record<string, ClassFacts> = JSON.parse(readFileSync(join(DATA, 'class-defaults.json'), 'utf8')).defaults;
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

  it("the class table in shared/config is 5.17's: every model type, default bases, layer-type-keyed classes, rotary_dim classes", () => {
    assert.deepEqual([...MODEL_TYPES_5].sort(), Object.keys(classes).sort());
    assert.equal(MODEL_TYPES_5.size, 718);
    for (const [type, c] of Object.entries(classes)) {
      const rp = c.rope_parameters;
      // A class's own default rope_parameters base (the full-attention one when keyed by layer type).
      const own = isObject(rp)
        ? typeof rp.rope_theta === 'number'
          ? rp.rope_theta
          : isObject(rp.full_attention)
            ? rp.full_attention.rope_theta
            : undefined
        : undefined;
      if (typeof own === 'number') assert.equal(DEFAULT_THETA_5[type] ?? 10000, own, type);
      assert.equal(PER_LAYER_TYPE_5.has(type), isObject(rp) && Object.values(rp).some(isObject), type);
      assert.equal(ROTARY_DIM_CLASSES_5.has(type), c.rotary_dim !== undefined, type);
      assert.equal(LAYER_TYPES_CLASSES_5.has(type), !!c.layer_types?.some((l) => l.includes('attention')), type);
    }
    for (const [type, base] of Object.entries(DEFAULT_THETA_5)) {
      const c = classes[type];
      const stated = [
        c.rope_theta,
        c.default_theta,
        ...(isObject(c.default_theta) ? Object.values(c.default_theta) : []),
        ...(isObject(c.rope_parameters)
          ? [c.rope_parameters.rope_theta, ...Object.values(c.rope_parameters).map((v) => (isObject(v) ? v.rope_theta : undefined))]
          : []),
      ];
      assert.ok(stated.includes(base), `${type}: ${base} is not among its defaults`);
    }
    assert.equal(classes.cohere.default_theta, 500000);
  });

  it('5.17 has a class for 718 model types; remote-code families are not among them', () => {
    for (const t of ['llama', 'olmo3', 'minimax_m2', 'gemma4_text', 'cohere']) assert.ok(knownTo5x(t), t);
    for (const t of ['chatglm', 'qwen', 'internlm2', 'baichuan', 'minimax_m1']) assert.ok(!knownTo5x(t), t);
  });

  it('Cohere without rope_theta: 500,000 in 5.x (as 5.17 built it), 10,000 in 4.x; the 4.x row is a misread reported as consumer/silent-misread', () => {
    const path = 'test/fixtures/corpus/models/cohere-command-r-35b.json';
    assert.ok(!/rope_theta/.test(text(path)));
    const table = results[path].tables[0];
    assert.ok(Math.abs(table.invFreq![1] - 1 / Math.pow(500000, 2 / (2 * table.invFreq!.length))) < 1e-7);
    assert.equal(familyDefaultBase('cohere').value, 500000);
    assert.equal(familyDefaultBase('cohere', 'v4').value, 10000);
    const t = rows(path);
    const v4 = t.find((r) => r.consumer === 'transformers-4')!;
    assert.equal(v4.base, 10000);
    assert.deepEqual(misreadOf(v4, intendedReading(t)!), ['base']);
    assert.ok(
      codes(path).some(
        (d) =>
          d.code === 'consumer/silent-misread' &&
          /transformers 4\.x would run this model with the default rope_theta 10,000\. The file means the default rope_theta 500,000/.test(said(d)),
      ),
    );
  });
});

describe('rotary dimensions per reader', () => {
  const MINIMAX = 'test/fixtures/consumers/minimax-m2.5.json';

  it('MiniMax-M2.5 (rotary_dim 64, head_dim 128): 5.18 turns rotary_dim into partial_rotary_factor 0.5 and rotates 64, as vLLM does: no finding', () => {
    const t = rows(MINIMAX);
    assert.equal(t.find((r) => r.consumer === 'transformers-5')!.rotaryDim, 64);
    assert.ok(!codes(MINIMAX).some((x) => x.code === 'consumer/rotary-dims-differ'));
    // freqs --variant v5: 32 frequencies over 64 dimensions at the file's base (what 5.18.0 built).
    const rope = described(MINIMAX).rope!;
    const spec = toRopeSpec(rope, { variant: 'v5' });
    assert.equal(spec.rotaryDim, 64);
    const f = computeFrequencies(spec, { variant: 'v5' });
    assert.equal(f.invFreq.length, 32);
    assert.ok(rel(f.invFreq[1], 1 / Math.pow(5e6, 2 / 64)) < 1e-12);
  });

  it('a class that reads no rotary_dim (Qwen3) with one in the file rotates the whole head in 5.x; vLLM reads it: the finding names both', () => {
    const path = 'test/fixtures/corpus/models/qwen3-30b-a3b.json';
    const src = JSON.stringify({ ...JSON.parse(text(path)), rotary_dim: 64 });
    const d = codes(path, src).find((x) => x.code === 'consumer/rotary-dims-differ');
    assert.ok(d);
    assert.match(said(d), /transformers 5\.x rotates 128 of 128/);
  });

  it('a partial factor in rope_parameters makes 5.x and vLLM agree: no finding', () => {
    const src = JSON.stringify({ ...JSON.parse(text(MINIMAX)), rope_parameters: { rope_type: 'default', rope_theta: 5000000, partial_rotary_factor: 0.5 } });
    assert.ok(!codes(MINIMAX, src).some((d) => d.code === 'consumer/rotary-dims-differ'));
  });

  it('Qwen3-MoE never reads a partial factor: a file stating one is rotated whole by 5.x (finding); without one, every reader agrees', () => {
    const path = 'test/fixtures/corpus/models/qwen3-30b-a3b.json';
    assert.ok(!codes(path).some((d) => d.code === 'consumer/rotary-dims-differ'));
    const src = JSON.stringify({ ...JSON.parse(text(path)), partial_rotary_factor: 0.5 });
    const d = codes(path, src).find((x) => x.code === 'consumer/rotary-dims-differ');
    assert.ok(d);
    assert.match(said(d), /transformers 5\.x rotates 128 of 128/);
  });
});
