/**
 * The editor's "Plan context extension…" on the server side, in process: `ropeLens/plan` answers the
 * input box's defaults and the plan view's data for an open model config or training YAML (base
 * model resolved offline), and `ropeLens/plan/writeStage` answers edits that write one stage into
 * the YAML, keeping comments and other keys, after which `check` raises no RoPE warning.
 */
import * as assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { startInProcess, InProcess } from './server/inProcess';
import { PlanRequest, PlanWriteStageRequest, type PlanResult, type PlanWriteStageResult } from '../../shared/protocol/messages';
import type { PlanViewData } from '../../shared/inspector/planTypes';
import { parseDocumentText } from '../../shared/document/parse';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';

// Meta-Llama-3-8B's config.json (the values that matter for RoPE).
const LLAMA3_8B = JSON.stringify(
  {
    architectures: ['LlamaForCausalLM'],
    model_type: 'llama',
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_hidden_layers: 32,
    intermediate_size: 14336,
    vocab_size: 128256,
    max_position_embeddings: 8192,
    rope_theta: 500000.0,
  },
  null,
  2,
);

const AXOLOTL = [
  '# long-context run',
  'base_model: meta-llama/Meta-Llama-3-8B',
  'datasets:',
  '  - path: my/long-docs  # long documents',
  '    type: completion',
  'sequence_len: 65536  # what we want',
  'overrides_of_model_config:',
  '  # ours, not RoPE',
  '  attention_dropout: 0.0',
  '  rope_theta: 600000.0',
  'micro_batch_size: 1',
  '',
].join('\n');

const LLAMA_FACTORY = [
  'model_name_or_path: Qwen/Qwen2.5-7B-Instruct',
  'stage: sft',
  'do_train: true',
  'finetuning_type: lora',
  'cutoff_len: 2048  # short',
  'template: qwen',
  '',
].join('\n');

const TORCHTUNE_LORA = [
  'model:',
  '  _component_: torchtune.models.llama3.lora_llama3_8b',
  "  lora_attn_modules: ['q_proj', 'v_proj']",
  '  lora_rank: 8  # small',
  'tokenizer:',
  '  _component_: torchtune.models.llama3.llama3_tokenizer',
  '  path: /tmp/tokenizer.model',
  '  max_seq_len: 8192',
  'checkpointer:',
  '  _component_: torchtune.training.FullModelHFCheckpointer',
  '  checkpoint_dir: meta-llama/Meta-Llama-3-8B',
  '',
].join('\n');

const oracle = createSyncOracle();
const ROPE_WARNING = (d: { code: string; severity: string }) =>
  /^(rope|training|axolotl|llama-factory)\//.test(d.code) && (d.severity === 'warning' || d.severity === 'error');

function check(text: string, consumers?: string[]) {
  return analyzeText(text, { fileName: 'train.yaml', oracle, resolver: catalogResolver, ...(consumers ? { consumers } : {}) });
}

describe('plan request and write-stage edits (in process)', function () {
  this.timeout(60000);
  let h: InProcess;
  beforeEach(async () => {
    h = await startInProcess({ validation: { delay: 0 } });
  });
  afterEach(() => h.dispose());

  const plan = (params: object) => h.client.sendRequest(PlanRequest, params as never) as Promise<PlanResult>;
  const write = (params: object) => h.client.sendRequest(PlanWriteStageRequest, params as never) as Promise<PlanWriteStageResult>;
  function okView(r: PlanResult): PlanViewData {
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.ok(r.view, 'a plan view');
    return r.view;
  }

  it('a model config: the default target is 4 × the trained context; the view marks one recommended option per stage', async () => {
    const uri = 'file:///ws/llama3/config.json';
    await h.open(uri, LLAMA3_8B, 'json');
    const d = await plan({ uri });
    assert.ok(d.ok, d.ok ? '' : d.message);
    assert.equal(d.defaults.trainedContext, 8192);
    assert.equal(d.defaults.target, 4 * 8192);
    assert.equal(d.defaults.trainer, undefined, 'a config.json takes no stage');
    assert.equal(d.view, undefined, 'no target: defaults only');

    const v = okView(await plan({ uri, target: 262144, stages: [65536] }));
    assert.deepEqual(
      v.stages.map((s) => s.length),
      [65536, 262144],
    );
    for (const s of v.stages) {
      const marked = s.rows.filter((r) => r.recommended);
      assert.equal(marked.length, 1, `stage ${s.length}: one recommended row`);
      assert.equal(marked[0].method, s.recommended);
      assert.equal(marked[0].meets, true);
      assert.equal(marked[0].bound, 'meets');
      assert.ok(s.reason.includes(marked[0].label), s.reason);
      for (const r of s.rows) assert.equal(r.wavelengths.length, 64, `${r.method}: one wavelength per pair`);
      assert.equal(s.writable, false);
      // Rows that do not reach the stage say how far they hold.
      for (const r of s.rows.filter((x) => !x.meets)) assert.match(r.bound, /^holds to [\d,]+$/);
    }
    // Llama-3-8B at 64k: llama3 scaling (the planner's recommendation, as `rope-lens plan` prints it).
    assert.equal(v.stages[0].recommended, 'llama3');
    assert.equal(v.writeTarget, undefined);
  });

  it('bad input gets a message, not a crash', async () => {
    const uri = 'file:///ws/llama3/config.json';
    await h.open(uri, LLAMA3_8B, 'json');
    const below = await plan({ uri, target: 4096 });
    assert.equal(below.ok, false);
    assert.match(!below.ok ? below.message : '', /does not exceed the trained context 8192/);
    const nonsense = await plan({ uri, target: 'lots' });
    assert.equal(nonsense.ok, false);
    const closed = await plan({ uri: 'file:///ws/not-open.json', target: 65536 });
    assert.equal(closed.ok, false);
    const w = await write({ uri, target: 65536, stage: 0 });
    assert.equal(w.ok, false, 'a config.json takes no stage');
  });

  it('axolotl: the default target is sequence_len; writing the stage keeps comments and other overrides, and check is clean', async () => {
    const uri = 'file:///ws/run/train.yaml';
    await h.open(uri, AXOLOTL, 'yaml');
    // Control: as written, the run is past the trained context with a base too small.
    assert.ok(check(AXOLOTL).diagnostics.some(ROPE_WARNING), 'the YAML as written has a RoPE warning');
    const d = await plan({ uri });
    assert.ok(d.ok, d.ok ? '' : d.message);
    assert.equal(d.defaults.target, 65536);
    assert.equal(d.defaults.trainer, 'axolotl');
    const v = okView(await plan({ uri, target: 65536, stages: [32768] }));
    assert.deepEqual(v.writeTarget, { trainer: 'axolotl', fileLabel: 'train.yaml' });
    assert.ok(v.stages.every((s) => s.writable));

    for (const stage of [0, 1]) {
      const w = await write({ uri, target: 65536, stages: [32768], stage });
      assert.ok(w.ok, w.ok ? '' : w.message);
      const doc = parseDocumentText(AXOLOTL, 'yaml');
      const after = applyTextEdits(AXOLOTL, doc.lines, w.edits);
      const L = v.stages[stage].length;
      for (const kept of [
        '# long-context run',
        '  - path: my/long-docs  # long documents',
        '  # ours, not RoPE',
        '  attention_dropout: 0.0',
        'micro_batch_size: 1',
        `sequence_len: ${L}  # what we want`,
      ]) {
        assert.ok(after.includes(kept), `kept ${JSON.stringify(kept)}:\n${after}`);
      }
      // Only the owned keys' lines change: the edits cover no comment line.
      for (const e of w.edits) {
        for (let line = e.range.start.line; line < e.range.end.line; line++) assert.doesNotMatch(AXOLOTL.split('\n')[line], /^\s*#/);
      }
      const y = parseYaml(after) as Record<string, Record<string, unknown>>;
      assert.equal(y.sequence_len, L);
      assert.equal(y.overrides_of_model_config.max_position_embeddings, L);
      const rec = v.stages[stage].recommended!;
      const recRow = v.stages[stage].rows.find((r) => r.method === rec)!;
      if (recRow.setting.startsWith('rope_theta')) {
        assert.equal(y.overrides_of_model_config.rope_scaling, undefined);
      } else {
        assert.equal((y.overrides_of_model_config.rope_scaling as Record<string, unknown>).rope_type, rec);
        assert.equal(y.overrides_of_model_config.rope_theta, undefined, 'the old base override is one of the keys the stage owns');
      }
      const bad = check(after).diagnostics.filter(ROPE_WARNING);
      assert.deepEqual(
        bad.map((x) => `${x.code}: ${x.message}`),
        [],
        after,
      );
    }
  });

  it('LLaMA-Factory: cutoff_len and rope_scaling replaced in place; check is clean', async () => {
    const uri = 'file:///ws/lf/sft.yaml';
    await h.open(uri, LLAMA_FACTORY, 'yaml');
    const d = await plan({ uri });
    assert.ok(d.ok && d.defaults.trainer === 'llama-factory');
    assert.equal(d.ok && d.defaults.target, 4 * 32768, 'cutoff_len 2048 is below T: 4 × T');
    const w = await write({ uri, target: 131072, stage: 0 });
    assert.ok(w.ok, w.ok ? '' : w.message);
    const after = applyTextEdits(LLAMA_FACTORY, parseDocumentText(LLAMA_FACTORY, 'yaml').lines, w.edits);
    assert.match(after, /^cutoff_len: 131072 {2}# short$/m);
    assert.match(after, /^rope_scaling: (yarn|linear)$/m);
    assert.match(after, /^template: qwen$/m);
    assert.deepEqual(
      // LLaMA-Factory's scaling loads on transformers 4.x only (the snippet note says so).
      check(after, ['transformers==4.51.3'])
        .diagnostics.filter(ROPE_WARNING)
        .map((x) => x.code),
      [],
      after,
    );
  });

  it('torchtune LoRA: the stage keeps LoRA (lora_ builder twin) and its arguments; check is clean', async () => {
    const uri = 'file:///ws/tt/lora.yaml';
    await h.open(uri, TORCHTUNE_LORA, 'yaml');
    const v = okView(await plan({ uri, target: 65536 }));
    assert.equal(v.writeTarget?.trainer, 'torchtune');
    assert.ok(v.stages[0].writable, JSON.stringify(v.stages[0].snippets));
    const w = await write({ uri, target: 65536, stage: 0 });
    assert.ok(w.ok, w.ok ? '' : w.message);
    const after = applyTextEdits(TORCHTUNE_LORA, parseDocumentText(TORCHTUNE_LORA, 'yaml').lines, w.edits);
    const y = parseYaml(after) as Record<string, Record<string, unknown>>;
    assert.equal(y.model._component_, 'torchtune.models.llama3.lora_llama3');
    assert.equal(y.model.lora_rank, 8);
    assert.equal(y.model.max_seq_len, 65536);
    assert.equal(y.tokenizer.max_seq_len, 65536);
    assert.equal(y.tokenizer.path, '/tmp/tokenizer.model');
    assert.ok(after.includes('  lora_rank: 8  # small'));
    assert.deepEqual(
      check(after)
        .diagnostics.filter(ROPE_WARNING)
        .map((x) => `${x.code}: ${x.message}`),
      [],
      after,
    );
  });
});
