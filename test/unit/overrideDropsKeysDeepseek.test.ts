/**
 * launch/override-drops-keys on DeepSeek-V3/R1 under vLLM. The model is test/fixtures/configs/deepseek-v3.json
 * (the RoPE and attention keys of deepseek-ai/DeepSeek-V3's config.json, real values: YaRN factor 40 over
 * 4,096, beta_fast 32, beta_slow 1, mscale 1.0, mscale_all_dim 1.0, legacy `type`), in a folder beside the
 * launch file, and the same model by its hub id (the catalog). What vLLM reads and how:
 * vllm/model_executor/models/deepseek_v2.py (DeepseekV2Attention / DeepseekV2MLAAttention:
 * `.get("mscale_all_dim", False)`, `["factor"]`) and rotary_embedding/__init__.py `get_rope`'s deepseek_yarn
 * branch (`["factor"]`, `["original_max_position_embeddings"]`, the rest keyword arguments with defaults).
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { createNodeResolver } from '../../shared/node/resolveNode';
import { loadShellParser } from '../../shared/node/shellParser';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { ShellParser } from '../../shared/launch/types';
import type { FileAnalysis } from '../../shared/service/types';

const FIXTURE = join(__dirname, '..', 'fixtures', 'configs', 'deepseek-v3.json');
const SHIPPED = JSON.parse(readFileSync(FIXTURE, 'utf8')).rope_scaling as Record<string, unknown>;
const oracle = createSyncOracle();

/** The shipped scaling written as an override (rope_type for the legacy `type`), less `drop`. */
function shippedLess(...drop: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(SHIPPED)) if (!drop.includes(k)) out[k === 'type' ? 'rope_type' : k] = v;
  return out;
}
const serve = (model: string, scaling: Record<string, unknown>) =>
  `#!/bin/bash\nvllm serve ${model} \\\n  --tensor-parallel-size 8 \\\n  --max-model-len 131072 \\\n  --hf-overrides '${JSON.stringify({ rope_scaling: scaling })}'\n`;
const codes = (a: FileAnalysis) =>
  a.diagnostics
    .filter((d) => d.severity !== 'hint' && d.severity !== 'information')
    .map((d) => `${d.code}:${d.severity}`)
    .sort();
const apply = (text: string, edits: Parameters<typeof applyTextEdits>[2]) => applyTextEdits(text, new LineIndex(text), edits);

describe('launch/override-drops-keys: DeepSeek-V3 under vLLM', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  let tmp: string;
  before(async () => {
    shell = await loadShellParser();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-dskeys-'));
    mkdirSync(join(tmp, 'DeepSeek-V3'));
    writeFileSync(join(tmp, 'DeepSeek-V3', 'config.json'), readFileSync(FIXTURE, 'utf8'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));
  const analyze = (text: string, name = 'serve.sh') =>
    analyzeText(text, { fileName: join(tmp, name), oracle, resolver: createNodeResolver(), shellParser: shell });

  it('the fixture is the shipped DeepSeek-V3 scaling (mscale_all_dim 1.0, not the engine default 0)', () => {
    assert.deepEqual(SHIPPED, {
      beta_fast: 32,
      beta_slow: 1,
      factor: 40,
      mscale: 1.0,
      mscale_all_dim: 1.0,
      original_max_position_embeddings: 4096,
      type: 'yarn',
    });
  });

  it('an override that drops mscale_all_dim loads, with another attention scale: a warning; the preferred fix writes 1.0 back', () => {
    const sh = serve('./DeepSeek-V3', shippedLess('mscale_all_dim'));
    const a = analyze(sh);
    assert.equal(a.kind, 'launch');
    assert.deepEqual(codes(a), ['launch/override-drops-keys:warning']);
    const d = a.diagnostics.find((x) => x.code === 'launch/override-drops-keys')!;
    assert.match(said(d), /no "mscale_all_dim" \(\.\/DeepSeek-V3 ships 1\.0; the default is 0\.0\)/);
    assert.match(said(d), /runs with default mscale_all_dim/);
    assert.match(said(d), /reads with a default/);
    // On the rope_scaling key of the override, where the user wrote the object.
    assert.equal(sh.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character), 'rope_scaling');
    const preferred = d.fixes.filter((f) => f.preferred);
    assert.equal(preferred.length, 1);
    assert.equal(preferred[0].title, "Add the model's mscale_all_dim 1.0 to the override's rope_scaling");
    const fixed = apply(sh, preferred[0].edits);
    // The override now holds the shipped scaling whole; the rest of the command is untouched.
    const written = JSON.parse(/--hf-overrides '(.*)'/.exec(fixed)![1]);
    assert.deepEqual(written, { rope_scaling: shippedLess() });
    assert.equal(fixed.replace(/--hf-overrides '.*'/, ''), sh.replace(/--hf-overrides '.*'/, ''));
    assert.deepEqual(codes(analyze(fixed)), []);
    // The other fix: run with the model's own scaling (the override had nothing else).
    const remove = d.fixes.find((f) => !f.preferred)!;
    assert.match(remove.title, /^Remove the override's rope_scaling/);
    const removed = apply(sh, remove.edits);
    assert.doesNotMatch(removed, /hf-overrides/);
    assert.deepEqual(codes(analyze(removed)), []);
  });

  it('the hub id (catalog values) and a vLLM --config YAML give the same finding', () => {
    assert.deepEqual(codes(analyze(serve('deepseek-ai/DeepSeek-V3', shippedLess('mscale_all_dim')))), ['launch/override-drops-keys:warning']);
    assert.deepEqual(codes(analyze(serve('deepseek-ai/DeepSeek-R1', shippedLess('mscale_all_dim')))), ['launch/override-drops-keys:warning']);
    const yaml = `model: ./DeepSeek-V3\nmax-model-len: 131072\nhf-overrides: '${JSON.stringify({ rope_scaling: shippedLess('mscale_all_dim') })}'\n`;
    assert.deepEqual(codes(analyze(yaml, 'vllm.yaml')), ['launch/override-drops-keys:warning']);
  });

  it('an override without original_max_position_embeddings is a KeyError in get_rope: an error, and nothing claims it runs', () => {
    const a = analyze(serve('./DeepSeek-V3', shippedLess('original_max_position_embeddings')));
    assert.deepEqual(codes(a), ['launch/override-drops-keys:error']);
    const dropped = a.diagnostics.find((d) => d.code === 'launch/override-drops-keys')!;
    assert.match(said(dropped), /KeyError.*no "original_max_position_embeddings"/);
    assert.match(said(dropped), /vLLM's DeepSeek/);
    // Without factor the load fails first: the one finding, no length verdict on a run that never starts, never "replaces".
    assert.deepEqual(codes(analyze(serve('./DeepSeek-V3', shippedLess('factor')))), ['launch/override-drops-keys:error']);
  });

  it('keys dropped at the value vLLM defaults to change nothing; the whole shipped scaling passes', () => {
    // DeepSeek-V3 ships mscale 1.0, beta_fast 32, beta_slow 1: vLLM's defaults.
    assert.deepEqual(codes(analyze(serve('./DeepSeek-V3', shippedLess('mscale', 'beta_fast', 'beta_slow')))), []);
    assert.deepEqual(codes(analyze(serve('./DeepSeek-V3', shippedLess()))), []);
  });

  it('a different scaling is override-replaces-scaling alone (it already says the command wins)', () => {
    const a = analyze(serve('./DeepSeek-V3', { rope_type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 }));
    assert.deepEqual(codes(a), ['launch/override-replaces-scaling:warning']);
  });

  it('SGLang reads mscale_all_dim with the same default: the same warning on --json-model-override-args; the whole scaling passes', () => {
    const sg = (scaling: Record<string, unknown>) =>
      `python3 -m sglang.launch_server --model-path ./DeepSeek-V3 --tp 8 --trust-remote-code \\\n  --json-model-override-args '${JSON.stringify({ rope_scaling: scaling })}'\n`;
    const a = analyze(sg(shippedLess('mscale_all_dim')));
    assert.deepEqual(codes(a), ['launch/override-drops-keys:warning']);
    assert.match(said(a.diagnostics.find((d) => d.code === 'launch/override-drops-keys')!), /SGLang's DeepSeek-V2\/V3 attention/);
    assert.deepEqual(codes(analyze(sg(shippedLess()))), []);
  });

  it('DeepSeek-V2-Lite (mscale 0.707): dropping mscale and mscale_all_dim names both', () => {
    const a = analyze(
      serve('deepseek-ai/DeepSeek-V2-Lite', { rope_type: 'yarn', factor: 40, original_max_position_embeddings: 4096, beta_fast: 32, beta_slow: 1 }),
    );
    assert.deepEqual(codes(a), ['launch/override-drops-keys:warning']);
    const d = a.diagnostics.find((x) => x.code === 'launch/override-drops-keys')!;
    assert.match(said(d), /"mscale_all_dim" \(.* ships 0\.707; the default is 0\.0\), "mscale" \(.* ships 0\.707; the default is 1\.0\)/);
  });
});
