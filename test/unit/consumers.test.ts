/**
 * The consumer table (shared/serving/consumers.ts) on real configs, cell by cell, and the two
 * consumer rules. Expected cells come from the file's own keys and the consumers' documented
 * behaviour (4.x never reads rope_parameters and falls back to the class default rope_theta;
 * ≤ 4.42 llama takes only {type, factor}; vLLM multiplies linear/dynamic factors, takes
 * original × factor for YaRN; SGLang skips the factor when the scaling has an original; llama.cpp
 * and TGI keep max_position_embeddings), never from rope-lens output.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { parseDocumentText } from '../../shared/document/parse';
import { readModelConfig, toRopeSpec } from '../../shared/config/modelConfig';
import { consumerTable, intendedReading, misreadOf } from '../../shared/serving/consumers';
import type { ConsumerReading } from '../../shared/serving/consumer';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import {
  parseRequirement,
  pinsFromImageRefs,
  pinsFromPipfileLock,
  pinsFromPyproject,
  pinsFromRequirements,
  pinsFromSetting,
  pinsFromTomlLock,
  type WorkspaceFacts,
} from '../../shared/serving/pins';
import { nodeWorkspaceFacts } from '../../shared/node/consumerPins';
import { consumersMarkdown, consumersText } from '../../shared/serving/consumersView';
import type { FileAnalysis } from '../../shared/service/types';
import { inspectorInputFromText } from '../../shared/inspector/fromConfig';
import { buildInspectorData } from '../../shared/inspector/build';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();
const FIX = join(__dirname, '..', 'fixtures');
const corpus = (f: string) => join(FIX, 'corpus', 'models', f);
const own = (f: string) => join(FIX, 'consumers', f);
/** A training YAML whose base model resolves from the catalog (the Inspector then shows no consumer table). */
const readdirYaml = () => 'axolotl-llama3-theta-override.crlf.yaml';

type Json = Record<string, unknown>;
const json = (path: string): Json => JSON.parse(readFileSync(path, 'utf8'));

function table(path: string, text = readFileSync(path, 'utf8')): ConsumerReading[] {
  const doc = parseDocumentText(text, 'json');
  const rope = readModelConfig(doc, { filePath: path })!.rope!;
  return consumerTable(rope, doc);
}
const row = (rows: ConsumerReading[], id: ConsumerReading['consumer']) => rows.find((r) => r.consumer === id)!;
const analyze = (path: string, text = readFileSync(path, 'utf8'), extra: { workspace?: WorkspaceFacts; consumers?: string[] } = {}): FileAnalysis =>
  analyzeText(text, { fileName: path, oracle, ...extra });
const consumerFindings = (a: FileAnalysis) => a.diagnostics.filter((d) => d.code.startsWith('consumer/'));

const LEGACY_READERS = ['transformers-4', 'sglang', 'tgi'] as const;
const V5_READERS = ['transformers-5', 'vllm', 'llama.cpp', 'ollama'] as const;

describe('consumer table', () => {
  it('a transformers-5 Llama-3.1 file (rope_parameters only): 4.x, SGLang and TGI use the default 10,000 and no scaling; 5.x, vLLM, llama.cpp and Ollama read it', () => {
    const path = corpus('llama-3.1-8b-v5-rope-parameters.json');
    const file = json(path);
    const rp = file.rope_parameters as Json;
    const rows = table(path);
    assert.equal(rows.length, 9);
    for (const id of ['transformers-4.42', ...LEGACY_READERS] as const) {
      const r = row(rows, id);
      assert.equal(r.status, 'reads', id);
      assert.equal(r.base, 10000, id); // LlamaConfig(rope_theta=10000.0) in every 4.x
      assert.match(r.baseFrom, /^default/, id);
      assert.equal(r.scalingType, 'none', id);
      assert.equal(r.factor, null, id);
    }
    for (const id of V5_READERS) {
      const r = row(rows, id);
      assert.equal(r.base, rp.rope_theta, id);
      assert.equal(r.scalingType, rp.rope_type, id);
      assert.equal(r.factor, rp.factor, id);
    }
    // llama3 is never multiplied into a derived length (vLLM, SGLang) and llama.cpp/TGI keep mpe.
    for (const id of ['vllm', 'llama.cpp', 'tgi', 'ollama', 'sglang'] as const) assert.equal(row(rows, id).derivedMaxLen, file.max_position_embeddings, id);
    assert.equal(row(rows, 'transformers-5').derivedMaxLen, null);
    const intended = intendedReading(rows)!;
    assert.deepEqual(
      rows
        .filter((r) => misreadOf(r, intended).length)
        .map((r) => r.consumer)
        .sort(),
      ['sglang', 'tgi', 'transformers-4', 'transformers-4.42', 'vllm-4x'],
    );
    // vLLM before 0.24 on 4.x: the class default base; its scaling cell differs by release, so it is left unjudged.
    assert.deepEqual([row(rows, 'vllm-4x').base, row(rows, 'vllm-4x').scalingType], [10000, null]);
  });

  it('Llama-3.1 as Meta ships it: transformers ≤ 4.42 refuses rope_type llama3 with its two-field ValueError, every other consumer reads 500,000 / llama3 / 8', () => {
    const path = corpus('meta-llama-3.1-8b-instruct.json');
    const rs = json(path).rope_scaling as Json;
    const rows = table(path);
    const old = row(rows, 'transformers-4.42');
    assert.equal(old.status, 'refuses');
    assert.match(old.error!, /^ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got \{/);
    assert.match(old.error!, /'rope_type': 'llama3'/);
    assert.match(old.error!, /'factor': 8\.0/); // Python prints the float as the file writes it
    for (const r of rows.filter((x) => x !== old)) {
      assert.equal(r.status, 'reads', r.label);
      assert.equal(r.base, json(path).rope_theta, r.label);
      assert.equal(r.scalingType, rs.rope_type, r.label);
      assert.equal(r.factor, rs.factor, r.label);
    }
  });

  it('legacy `type` linear (Llama-2-7B-32K): ≤ 4.42 reads it; vLLM and SGLang multiply mpe by the factor, llama.cpp and TGI do not', () => {
    const path = corpus('llama-2-7b-32k-linear.json');
    const file = json(path);
    const rs = file.rope_scaling as Json;
    const mpe = file.max_position_embeddings as number;
    const rows = table(path);
    const old = row(rows, 'transformers-4.42');
    assert.equal(old.status, 'reads');
    assert.equal(old.scalingType, rs.type);
    assert.equal(old.factor, rs.factor);
    assert.equal(row(rows, 'vllm').derivedMaxLen, mpe * (rs.factor as number));
    assert.equal(row(rows, 'sglang').derivedMaxLen, mpe * (rs.factor as number));
    assert.equal(row(rows, 'llama.cpp').derivedMaxLen, mpe);
    assert.equal(row(rows, 'tgi').derivedMaxLen, mpe);
    for (const r of rows.filter((x) => x.status === 'reads')) assert.equal(r.scalingType, 'linear', r.label);
  });

  it('Qwen2.5 with YaRN: vLLM derives original × factor, SGLang keeps mpe (the scaling has an original); 4.x and 5.x attention factor 0.1·ln(s) + 1', () => {
    const path = corpus('qwen2.5-7b-instruct-yarn.json');
    const file = json(path);
    const rs = file.rope_scaling as Json;
    const rows = table(path);
    assert.equal(row(rows, 'vllm').derivedMaxLen, (rs.original_max_position_embeddings as number) * (rs.factor as number));
    assert.equal(row(rows, 'sglang').derivedMaxLen, file.max_position_embeddings);
    const mscale = 0.1 * Math.log(rs.factor as number) + 1;
    for (const id of ['transformers-4', 'transformers-5'] as const) assert.ok(Math.abs(row(rows, id).attentionFactor! - mscale) < 1e-12, id);
    assert.equal(row(rows, 'transformers-4.42').status, 'reads'); // qwen2 existed; its rope_scaling cell is not verified
    assert.equal(row(rows, 'transformers-4.42').scalingType, null);
  });

  it('a model type 4.x has no class for (Gemma-4) cannot load there: not a misread', () => {
    const rows = table(corpus('gemma-4-26b-a4b-text-v5.json'));
    for (const id of ['transformers-4', 'sglang', 'tgi'] as const) assert.equal(row(rows, id).status, 'cannot-load', id);
    const intended = intendedReading(rows)!;
    assert.deepEqual(
      rows.filter((r) => misreadOf(r, intended).length).map((r) => r.consumer),
      [],
    );
  });

  it('real v5-saved Mistral (rope_theta 1e6 inside rope_parameters) is misread at 10,000; real v5-saved Gemma-2-2B (10,000 = the default) is read alike', () => {
    const m = table(own('mistral-7b-v5-rope-parameters.json'));
    for (const id of LEGACY_READERS) assert.equal(row(m, id).base, 10000, id);
    for (const id of V5_READERS) assert.equal(row(m, id).base, (json(own('mistral-7b-v5-rope-parameters.json')).rope_parameters as Json).rope_theta, id);
    const g = table(own('gemma-2-2b-v5-rope-parameters.json'));
    const intended = intendedReading(g)!;
    assert.deepEqual(
      g.filter((r) => misreadOf(r, intended).length),
      [],
    );
    // Gemma-2's sliding windows are honoured by transformers (a `window` on its local group).
    assert.equal(row(g, 'transformers-5').windows, 'honoured');
    assert.equal(row(g, 'vllm').windows, 'honoured'); // ModelConfig.get_sliding_window → hf_config.sliding_window
    assert.equal(row(m, 'vllm').windows, 'n/a'); // Mistral v0.3: sliding_window null
    assert.equal(row(g, 'llama.cpp').windows, 'honoured'); // Gemma2Model writes attention.sliding_window
  });

  it('llama.cpp drops dynamic scaling: a capability gap, not a misread (InternLM2.5 dynamic)', () => {
    const rows = table(corpus('internlm2_5-7b-chat-dynamic.json'));
    const cpp = row(rows, 'llama.cpp');
    assert.equal(cpp.scalingType, 'none');
    assert.equal(cpp.scalingDropped, 'dynamic');
    assert.deepEqual(misreadOf(cpp, intendedReading(rows)!), []);
  });

  it('--variant v4 computes what 4.x runs: a rope_parameters-only file gets the top-level or class-default base and no scaling', () => {
    const rope = (p: string, text = readFileSync(p, 'utf8')) => readModelConfig(parseDocumentText(text, 'json'), { filePath: p })!.rope!;
    const v5 = rope(corpus('llama-3.1-8b-v5-rope-parameters.json'));
    assert.deepEqual([toRopeSpec(v5, { variant: 'v4' }).ropeType, toRopeSpec(v5, { variant: 'v4' }).base], ['default', 10000]);
    assert.deepEqual([toRopeSpec(v5, { variant: 'v5' }).ropeType, toRopeSpec(v5, { variant: 'v5' }).base], ['llama3', 500000]);
    // A top-level rope_theta beside rope_parameters is what 4.x takes.
    const drafter = rope(own('dflash-drafter-v5-yarn.json'));
    assert.deepEqual(
      [toRopeSpec(drafter, { variant: 'v4' }).ropeType, toRopeSpec(drafter, { variant: 'v4' }).base],
      ['default', json(own('dflash-drafter-v5-yarn.json')).rope_theta],
    );
    // Legacy-spelled files are read the same by both generations.
    const shipped = rope(corpus('meta-llama-3.1-8b-instruct.json'));
    assert.deepEqual(toRopeSpec(shipped, { variant: 'v4' }), toRopeSpec(shipped, { variant: 'v5' }));
    // Gemma-3 per-layer v5: 4.x's Gemma3TextConfig default base 1e6, no linear scaling on its global layers.
    const g3 = rope(corpus('gemma-3-4b-v5-per-layer.json'));
    assert.deepEqual([toRopeSpec(g3, { variant: 'v4' }).ropeType, toRopeSpec(g3, { variant: 'v4' }).base], ['default', 1e6]);
  });

  it('the text and Markdown views mark the cells that differ and list the disagreements', () => {
    const rows = table(own('mistral-7b-v5-rope-parameters.json'));
    const text = consumersText(rows);
    assert.match(text, /TGI\s+yes\s+10,000 \(default\) \*/);
    assert.match(text, /transformers 5\.x\s+yes\s+1,000,000\s/);
    const md = consumersMarkdown(rows);
    assert.match(md, /\| TGI \| yes \| \*\*10,000 \(default\)\*\* \|/);
    assert.match(consumersText(table(own('gemma-2-2b-v5-rope-parameters.json'))), /Every consumer that loads this model reads the same base and scaling/);
  });
});

describe('consumer table in the Inspector', () => {
  it('the Inspector data carries the same cells and marks, for model configs only', () => {
    const path = own('mistral-7b-v5-rope-parameters.json');
    const data = buildInspectorData(inspectorInputFromText(readFileSync(path, 'utf8'), path), undefined, { fbBuckets: 50 });
    const t = data.consumers!;
    assert.equal(t.columns.length, 9); // … windows, rotary dims
    assert.equal(t.rows.length, 9);
    const tgi = t.rows.find((r) => r.cells[0] === 'TGI')!;
    assert.deepEqual(tgi.differs, [2]);
    assert.equal(tgi.cells[2], '10,000 (default)');
    assert.deepEqual(t.rows.find((r) => r.cells[0] === 'transformers 5.x')!.differs, []);
    const yaml = join(FIX, 'training', readdirYaml());
    assert.equal(buildInspectorData(inspectorInputFromText(readFileSync(yaml, 'utf8'), yaml), undefined, { fbBuckets: 50 }).consumers, null);
  });
});

describe('consumer rules', () => {
  it('consumer/silent-misread: v5-saved Mistral, a hint (only older generations nobody pins misread it) naming the consumers and the 10,000 they use; the back-fill writes rope_theta and every consumer then agrees', () => {
    const path = own('mistral-7b-v5-rope-parameters.json');
    const text = readFileSync(path, 'utf8');
    const [d] = consumerFindings(analyze(path));
    assert.equal(d.code, 'consumer/silent-misread');
    assert.equal(d.severity, 'hint');
    assert.match(
      said(d),
      /transformers 4\.x, vLLM < 0\.24 \(transformers 4\.x\), SGLang.*TGI ignore rope_parameters: this model would run there with the default rope_theta 10,000\./,
    );
    assert.match(said(d), /The file means rope_theta 1,000,000 and no scaling/);
    assert.equal(d.fixes.length, 1);
    const fixed = applyTextEdits(text, parseDocumentText(text, 'json').lines, d.fixes[0].edits);
    assert.equal(JSON.parse(fixed).rope_theta, 1000000);
    assert.match(fixed, /"rope_theta": 1000000\.0/); // a float, as the file writes it
    assert.equal(JSON.parse(fixed).rope_scaling, undefined); // rope_type default: nothing to scale
    assert.deepEqual(consumerFindings(analyze(path, fixed)), []);
    const after = table(path, fixed);
    assert.deepEqual([...new Set(after.filter((r) => r.status === 'reads').map((r) => r.base))], [1000000]);
  });

  it('the back-fill of a llama3 rope_parameters writes rope_scaling with every key but rope_theta, floats kept; all readers agree afterwards', () => {
    const path = corpus('llama-3.1-8b-v5-rope-parameters.json');
    const text = readFileSync(path, 'utf8');
    const [d] = consumerFindings(analyze(path));
    const fixed = applyTextEdits(text, parseDocumentText(text, 'json').lines, d.fixes[0].edits);
    const f = JSON.parse(fixed);
    const { rope_theta, ...scaling } = f.rope_parameters;
    assert.equal(f.rope_theta, rope_theta);
    assert.deepEqual(f.rope_scaling, scaling);
    assert.match(fixed, /"factor": 8\.0/);
    assert.ok(fixed.startsWith(text.slice(0, text.lastIndexOf('}'))), 'the edit only appends');
    const after = table(path, fixed);
    for (const r of after.filter((x) => x.status === 'reads')) {
      assert.equal(r.base, rope_theta, r.label);
      if (r.scalingType !== null) assert.deepEqual([r.scalingType, r.factor], ['llama3', 8], r.label);
    }
  });

  it('a real transformers-5.5 drafter (YaRN ×128 in rope_parameters, same rope_theta at top level): only the scaling is misread, and the fix writes rope_scaling alone', () => {
    const path = own('dflash-drafter-v5-yarn.json');
    const text = readFileSync(path, 'utf8');
    const rp = json(path).rope_parameters as Json;
    const rows = table(path);
    for (const id of LEGACY_READERS) assert.deepEqual([row(rows, id).base, row(rows, id).scalingType], [json(path).rope_theta, 'none'], id);
    for (const id of V5_READERS) assert.deepEqual([row(rows, id).scalingType, row(rows, id).factor], [rp.rope_type, rp.factor], id);
    assert.equal(row(rows, 'vllm').derivedMaxLen, (rp.original_max_position_embeddings as number) * (rp.factor as number));
    const [d] = consumerFindings(analyze(path));
    assert.match(said(d), /TGI would apply no scaling\. The file means rope_theta 10,000 with yarn scaling \(factor 128\)/);
    assert.doesNotMatch(said(d), /would run this model with/); // the base is read alike
    const fixed = JSON.parse(applyTextEdits(text, parseDocumentText(text, 'json').lines, d.fixes[0].edits));
    const { rope_theta: _theta, ...scaling } = rp;
    assert.deepEqual(fixed.rope_scaling, scaling);
    assert.equal(fixed.rope_theta, json(path).rope_theta);
    // The same drafter family with `rope_parameters: null` beside rope_theta is read alike by everyone.
    // (At the drafter's trained 8,192: unscaled at 1,048,576 it would be a base chosen for a million tokens, another test's business.)
    const plain = JSON.stringify({ ...json(path), rope_parameters: null, max_position_embeddings: 8192 });
    assert.deepEqual(consumerFindings(analyze(path, plain)), []);
  });

  it('per-layer-type rope_parameters (Gemma-3 v5): a hint that says no back-fill can make them read alike, and no fix', () => {
    const [d] = consumerFindings(analyze(corpus('gemma-3-4b-v5-per-layer.json')));
    assert.equal(d.severity, 'hint');
    assert.match(said(d), /transformers 4\.43 – 4\.57, .*TGI would apply no scaling\. The file means rope_theta 1,000,000 with linear scaling \(factor 8\)/);
    assert.match(said(d), /per-layer-type rope_parameters/);
    assert.deepEqual(d.fixes, []);
  });

  it('no consumer finding on a file every consumer reads alike (v5-saved Gemma-2-2B, Qwen2.5 YaRN, Llama-3.1 as shipped)', () => {
    for (const p of [own('gemma-2-2b-v5-rope-parameters.json'), corpus('qwen2.5-7b-instruct-yarn.json'), corpus('meta-llama-3.1-8b-instruct.json')]) {
      assert.deepEqual(
        consumerFindings(analyze(p)).map((d) => d.message),
        [],
        p,
      );
    }
  });

  it('pins decide severities: only transformers 5 pinned → the misread stays a hint; transformers 4.46 pinned → warning naming the pin', () => {
    const path = own('mistral-7b-v5-rope-parameters.json');
    const v5 = consumerFindings(analyze(path, undefined, { consumers: ['transformers==5.1.0'] }))[0];
    assert.equal(v5.severity, 'hint');
    const v4 = consumerFindings(
      analyze(path, undefined, { workspace: { pinsFor: () => [{ pkg: 'transformers', version: '4.46.3', source: 'requirements.txt:2' }] } }),
    )[0];
    assert.equal(v4.severity, 'warning');
    assert.match(said(v4), /The workspace uses transformers 4\.46\.3 \(requirements\.txt:2\)/);
  });

  it('consumer/refused: error when ≤ 4.42 is pinned; on an edited file with no pin a hint whatever its transformers_version says (the stamp is not its reader)', () => {
    const path = corpus('meta-llama-3.1-8b-instruct.json');
    const text = readFileSync(path, 'utf8');
    const refused = (a: FileAnalysis) => a.diagnostics.filter((d) => d.code === 'consumer/refused');
    // As shipped (its transformers_version is 4.42.3, Meta's pre-release): only a pin speaks.
    assert.deepEqual(refused(analyze(path)), []);
    const pinned = refused(analyze(path, text, { workspace: { pinsFor: () => [{ pkg: 'transformers', version: '4.40.2', source: 'requirements.txt:1' }] } }));
    assert.equal(pinned.length, 1);
    assert.equal(pinned[0].severity, 'error');
    assert.match(
      said(pinned[0]),
      /transformers ≤ 4\.42 refuses this file at load with ValueError\. It raises ValueError: `rope_scaling` must be a dictionary with two fields/,
    );
    assert.match(said(pinned[0]), /transformers 4\.40\.2 \(requirements\.txt:1\)/);
    assert.equal(refused(analyze(path, text, { consumers: ['transformers==4.41.0'] }))[0].severity, 'error');
    // Edited (context raised, so not the shipped file) and saved by an old release.
    const edited = JSON.parse(text);
    edited.max_position_embeddings = 65536;
    const saved = (v: string | undefined) =>
      JSON.stringify(v === undefined ? (({ transformers_version: _, ...r }) => r)(edited) : { ...edited, transformers_version: v }, null, 2);
    for (const v of ['4.40.0', undefined, '4.43.1'])
      assert.deepEqual(
        refused(analyze(path, saved(v))).map((d) => d.severity),
        ['hint'],
        `stamp ${v}`,
      );
    assert.match(
      said(refused(analyze(path, saved('4.40.0')))[0]),
      /no file in the workspace pins or launches transformers ≤ 4\.42, and current releases load it/,
    );
    // A pin past the range (or without a version: a current release) changes nothing.
    assert.deepEqual(
      refused(analyze(path, saved('4.43.1'), { consumers: ['transformers>=4.45', 'vllm'] })).map((d) => d.severity),
      ['hint'],
    );
  });
});

describe('consumer pins', () => {
  it('requirement specifiers: exact, compatible and lower-bound pins, extras, comments; other packages ignored', () => {
    assert.deepEqual(parseRequirement('transformers==4.42.4', 's'), { pkg: 'transformers', version: '4.42.4', source: 's' });
    assert.deepEqual(parseRequirement('vllm[all] >= 0.6.3  # serving', 's'), { pkg: 'vllm', version: '0.6.3', source: 's' });
    assert.deepEqual(parseRequirement('SGLang~=0.4.6', 's'), { pkg: 'sglang', version: '0.4.6', source: 's' });
    assert.deepEqual(parseRequirement('text_generation_server', 's'), { pkg: 'tgi', version: null, source: 's' });
    assert.equal(parseRequirement('torch==2.4.0', 's'), undefined);
    assert.deepEqual(pinsFromRequirements('# pins\n-r base.txt\ntorch==2.4\ntransformers==4.40.2\n', 'requirements.txt'), [
      { pkg: 'transformers', version: '4.40.2', source: 'requirements.txt:4' },
    ]);
    assert.deepEqual(
      pinsFromSetting(['transformers==4.42.4', 'nonsense', 'vllm']).map((p) => `${p.pkg}@${p.version}`),
      ['transformers@4.42.4', 'vllm@null'],
    );
  });

  it('pyproject (PEP 621 and Poetry), uv.lock / poetry.lock and Pipfile.lock', () => {
    const pep621 = '[project]\ndependencies = [\n  "transformers>=4.43,<5",\n  "numpy",\n]\n';
    assert.deepEqual(pinsFromPyproject(pep621, 'pyproject.toml'), [{ pkg: 'transformers', version: '4.43', source: 'pyproject.toml:3' }]);
    const poetry = '[tool.poetry.dependencies]\npython = "^3.10"\ntransformers = "^4.41.2"\nvllm = { version = "0.5.4", optional = true }\n';
    assert.deepEqual(
      pinsFromPyproject(poetry, 'pyproject.toml').map((p) => `${p.pkg}@${p.version}`),
      ['transformers@4.41.2', 'vllm@0.5.4'],
    );
    const uv = '[[package]]\nname = "torch"\nversion = "2.4.0"\n\n[[package]]\nname = "transformers"\nversion = "4.42.4"\nsource = { registry = "x" }\n';
    assert.deepEqual(pinsFromTomlLock(uv, 'uv.lock'), [{ pkg: 'transformers', version: '4.42.4', source: 'uv.lock:7' }]);
    const pipfile = JSON.stringify({ default: { transformers: { version: '==4.39.3' } }, develop: {} });
    assert.deepEqual(pinsFromPipfileLock(pipfile, 'Pipfile.lock'), [{ pkg: 'transformers', version: '4.39.3', source: 'Pipfile.lock' }]);
  });

  it('engine image tags in Dockerfiles and compose files', () => {
    const compose =
      'services:\n  api:\n    image: vllm/vllm-openai:v0.6.3\n  sg:\n    image: docker.io/lmsysorg/sglang:v0.4.6.post1-cu124\n  tgi:\n    image: ghcr.io/huggingface/text-generation-inference:latest\n  cpp:\n    image: ghcr.io/ggml-org/llama.cpp:server-b4500\n';
    assert.deepEqual(
      pinsFromImageRefs(compose, 'compose.yaml').map((p) => `${p.pkg}@${p.version}@${p.source}`),
      ['vllm@0.6.3@compose.yaml:3', 'sglang@0.4.6@compose.yaml:5', 'tgi@null@compose.yaml:7', 'llama.cpp@null@compose.yaml:9'],
    );
    assert.deepEqual(pinsFromImageRefs('FROM python:3.11\nRUN pip install vllm\n', 'Dockerfile'), []);
  });

  it('Node WorkspaceFacts: the nearest folder with pins wins, climbing stops at a .git folder', () => {
    const root = mkdtempSync(join(tmpdir(), 'rope-lens-pins-'));
    try {
      mkdirSync(join(root, 'repo', '.git'), { recursive: true });
      mkdirSync(join(root, 'repo', 'models', 'llama'), { recursive: true });
      writeFileSync(join(root, 'requirements.txt'), 'transformers==4.30.0\n'); // outside the repository
      let clock = 0;
      const facts = nodeWorkspaceFacts(5000, () => clock);
      const config = join(root, 'repo', 'models', 'llama', 'config.json');
      assert.deepEqual(facts.pinsFor(config), []);
      writeFileSync(join(root, 'repo', 'requirements-serve.txt'), 'vllm==0.6.1\ntransformers==4.44.2\n');
      assert.deepEqual(facts.pinsFor(config), []); // cached for a few seconds
      clock = 6000;
      const fresh = facts.pinsFor(config);
      assert.deepEqual(
        fresh.map((p) => `${p.pkg}@${p.version}`),
        ['vllm@0.6.1', 'transformers@4.44.2'],
      );
      assert.match(fresh[1].source, /requirements-serve\.txt:2$/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
