/**
 * SGLang takes a model's length from the FIRST of its CONTEXT_LENGTH_KEYS the config has
 * (hf_transformers_utils.py::get_context_length): Qwen-1 writes seq_length 8,192 and
 * max_position_embeddings 32,768, and SGLang reads seq_length. `rope-lens serve`, `check` and the
 * fix verification must agree on that key: the override raises seq_length, and the launch fixed
 * with it is judged as SGLang runs it. ChatGLM3 also takes seq_length, but SGLang's ChatGLM attention
 * reads neither rope_scaling nor rope_theta (models/chatglm.py: base = 10000 × rope_ratio), so no
 * override fix is offered there.
 * Configs: test/fixtures/models/qwen-7b.json and chatglm3-6b.json (published Qwen/Qwen-7B and
 * THUDM/chatglm3-6b config.json); the launches name Qwen/Qwen-7B-Chat, whose catalog entry has the same values.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { loadShellParser } from '../../shared/node/shellParser';
import type { ShellParser } from '../../shared/launch/types';
import type { FileAnalysis, Finding, Fix } from '../../shared/service/types';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import { contextKeysOf } from '../../shared/serving/contextKeys';
import { servingInput, servingPlan } from '../../shared/serving/index';
import { sglangDerivedContext } from '../../shared/serving/sglang';
import { said } from './helpers/findingText';

const MODELS = join(__dirname, '..', 'fixtures', 'models');
const oracle = createSyncOracle();
let shell: ShellParser;

function analyze(text: string, verifyFixes: boolean): FileAnalysis {
  return analyzeText(text, { fileName: '/w/serve.sh', oracle, shellParser: shell, verifyFixes });
}
function apply(text: string, fix: Fix): string {
  return applyTextEdits(text, new LineIndex(text), fix.edits);
}
function serious(a: FileAnalysis): string[] {
  return a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => `${d.code}: ${d.message}`);
}
function one(a: FileAnalysis, code: string): Finding {
  const hits = a.diagnostics.filter((d) => d.code === code);
  assert.equal(hits.length, 1, JSON.stringify(a.diagnostics.map((d) => [d.code, d.message])));
  return hits[0];
}
/** The JSON the command passes to --json-model-override-args. */
function overrideOf(text: string): unknown {
  const m = /--json-model-override-args '([^']*)'/.exec(text);
  assert.ok(m, text);
  return JSON.parse(m[1]);
}
function inputOf(file: string, edit?: (c: Record<string, unknown>) => void) {
  const c = JSON.parse(readFileSync(join(MODELS, file), 'utf8'));
  edit?.(c);
  const doc = parseJsonDocument(JSON.stringify(c, null, 2));
  return servingInput(readModelRope(doc)!, { model: 'Qwen/Qwen-7B-Chat', contextKeys: contextKeysOf(doc), context: 32768 });
}

describe('SGLang reads the length key it reads first (Qwen-1, ChatGLM3)', () => {
  before(async () => {
    shell = await loadShellParser();
  });

  it('derives the length from seq_length before max_position_embeddings', () => {
    assert.equal(sglangDerivedContext(inputOf('qwen-7b.json')), 8192);
    assert.equal(sglangDerivedContext(inputOf('chatglm3-6b.json')), 8192);
    // Without seq_length, max_position_embeddings is the one left.
    assert.equal(
      sglangDerivedContext(
        inputOf('qwen-7b.json', (c) => {
          delete c.seq_length;
        }),
      ),
      32768,
    );
  });

  const text = 'python -m sglang.launch_server --model-path Qwen/Qwen-7B-Chat --context-length 32768\n';

  it('a launch beyond seq_length: the error, and a preferred YaRN fix that raises seq_length and passes verification', () => {
    const raw = one(analyze(text, false), 'launch/length-exceeds-derived');
    assert.equal(raw.severity, 'error');
    assert.match(said(raw), /--context-length 32,768 is above the 8,192 SGLang derives from Qwen\/Qwen-7B-Chat/);
    const verified = one(analyze(text, true), 'launch/length-exceeds-derived');
    const preferred = verified.fixes.find((f) => f.preferred);
    assert.ok(preferred, JSON.stringify(verified.fixes.map((f) => f.title)));
    assert.equal(preferred.kind, 'yarn');
    assert.match(preferred.title, /^Add YaRN to json-model-override-args \(factor 4, original 8192, seq_length 32768\)/);
    // The preferred fix before verification is the one kept (it was dropped when it set max_position_embeddings).
    assert.equal(raw.fixes.find((f) => f.preferred)?.title, preferred.title);
    const fixed = apply(text, preferred);
    assert.deepEqual(overrideOf(fixed), {
      rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8192 },
      seq_length: 32768,
    });
    // SGLang now derives 32,768 (YaRN's factor is ignored, seq_length is raised): no finding of any code is new.
    const after = analyze(fixed, false);
    assert.equal(after.launches?.[0]?.derivedMaxLen, 32768);
    assert.deepEqual(serious(after), []);
    const before = new Set(analyze(text, false).diagnostics.map((d) => d.code));
    assert.deepEqual(
      after.diagnostics.map((d) => d.code).filter((c) => !before.has(c)),
      [],
    );
  });

  it('the NTK fix raises seq_length too, and passes verification', () => {
    const d = one(analyze(text, true), 'launch/length-exceeds-derived');
    const ntk = d.fixes.find((f) => f.kind === 'ntk');
    assert.ok(ntk, JSON.stringify(d.fixes.map((f) => f.title)));
    assert.match(ntk.title, /, seq_length 32768\b/);
    assert.deepEqual(serious(analyze(apply(text, ntk), false)), []);
  });

  it('max_position_embeddings in the override does not move what SGLang derives for Qwen-1', () => {
    const t = `python -m sglang.launch_server --model-path Qwen/Qwen-7B-Chat --context-length 32768 --json-model-override-args '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":8192},"max_position_embeddings":32768}'\n`;
    const a = analyze(t, false);
    assert.equal(a.launches?.[0]?.derivedMaxLen, 8192);
    assert.equal(one(a, 'launch/length-exceeds-derived').severity, 'error');
  });

  it('rope-lens serve writes the same override for the config, with no long-context variable', () => {
    const plan = servingPlan('sglang', inputOf('qwen-7b.json'));
    const fix = one(analyze(text, true), 'launch/length-exceeds-derived').fixes.find((f) => f.preferred)!;
    assert.deepEqual(plan.overrides, overrideOf(apply(text, fix)));
    assert.deepEqual(plan.env, {});
    assert.equal(plan.context, 32768);
  });

  it('vLLM, which takes the smallest key, gets both raised by the NTK fix, which passes verification', () => {
    const v = 'vllm serve Qwen/Qwen-7B-Chat --max-model-len 32768\n';
    const d = one(analyze(v, true), 'vllm/max-model-len-exceeds');
    assert.match(said(d), /vLLM derives 8,192 from Qwen\/Qwen-7B-Chat \(seq_length, no RoPE scaling\)/);
    const ntk = d.fixes.find((f) => f.kind === 'ntk');
    assert.ok(ntk, JSON.stringify(d.fixes.map((f) => f.title)));
    assert.match(ntk.title, /max_position_embeddings 32768, seq_length 32768/);
    assert.deepEqual(serious(analyze(apply(v, ntk), false)), []);
  });

  it("ChatGLM3 (seq_length 8,192): no override fix, since SGLang's ChatGLM attention reads no override RoPE key", () => {
    const t = 'python -m sglang.launch_server --model-path THUDM/chatglm3-6b --context-length 32768\n';
    const d = one(analyze(t, true), 'launch/length-exceeds-derived');
    assert.match(said(d), /above the 8,192 SGLang derives from THUDM\/chatglm3-6b/);
    // models/chatglm.py builds its rotary embedding from rope_ratio: no override scaling is offered, only the length.
    assert.deepEqual(
      d.fixes.map((f) => f.title),
      ['Set --context-length to 8192'],
    );
    // A user's own linear override stretches the length SGLang derives, not a position: beyond-trained, said why.
    const u = `python -m sglang.launch_server --model-path THUDM/chatglm3-6b --context-length 32768 --json-model-override-args '{"rope_scaling":{"rope_type":"linear","factor":4.0}}'\n`;
    const a = analyze(u, true);
    assert.equal(a.launches?.[0]?.derivedMaxLen, 32768);
    assert.match(
      said(one(a, 'launch/beyond-trained')),
      /SGLang extrapolates every position past 8,192: .*SGLang accepts it\. SGLang's ChatGLM attention \(models\/chatglm\.py\)/,
    );
    // serve writes no override for it either.
    const c = JSON.parse(readFileSync(join(MODELS, 'chatglm3-6b.json'), 'utf8'));
    const doc = parseJsonDocument(JSON.stringify(c));
    const plan = servingPlan('sglang', servingInput(readModelRope(doc)!, { model: 'THUDM/chatglm3-6b', contextKeys: contextKeysOf(doc), context: 32768 }));
    assert.equal(plan.overrides, null);
    assert.ok(
      plan.notes.some((n) => /rope_ratio alone/.test(n)),
      JSON.stringify(plan.notes),
    );
  });
  it("vLLM's ChatGLM reads no override RoPE key either: no scaling fix, a user's override still extrapolates, serve writes none", () => {
    // vllm model_executor/models/chatglm.py, GLMAttention.__init__: get_rope(..., base=10000 * rope_ratio), no rope_scaling.
    const t = 'vllm serve THUDM/chatglm3-6b --max-model-len 32768\n';
    const d = one(analyze(t, true), 'vllm/max-model-len-exceeds');
    assert.match(said(d), /vLLM derives 8,192 from THUDM\/chatglm3-6b \(seq_length, no RoPE scaling\).*vLLM's ChatGLM attention \(models\/chatglm\.py\)/);
    assert.deepEqual(
      d.fixes.map((f) => f.title),
      ['Set max-model-len to 8192'],
    );
    // A linear override raises the length vLLM derives (no ValueError) but moves no position.
    const u = `vllm serve THUDM/chatglm3-6b --max-model-len 32768 --hf-overrides '{"rope_scaling":{"rope_type":"linear","factor":4.0}}'\n`;
    const a = analyze(u, true);
    assert.equal(a.launches?.[0]?.derivedMaxLen, 32768);
    assert.match(said(one(a, 'vllm/context-beyond-trained')), /vLLM extrapolates every position past 8,192: .*vLLM accepts it\. vLLM's ChatGLM attention/);
    const c = JSON.parse(readFileSync(join(MODELS, 'chatglm3-6b.json'), 'utf8'));
    const doc = parseJsonDocument(JSON.stringify(c));
    const plan = servingPlan('vllm', servingInput(readModelRope(doc)!, { model: 'THUDM/chatglm3-6b', contextKeys: contextKeysOf(doc), context: 32768 }));
    assert.equal(plan.overrides, null);
    assert.ok(
      plan.notes.some((n) => /rope_ratio alone/.test(n)),
      JSON.stringify(plan.notes),
    );
  });
  it('ChatGLM reads rope_ratio: an override raising it to the NTK-aware base extends the model on both engines alike; rope_theta does not', () => {
    // base = 10000 × rope_ratio; 4.2 gives 42,000, above the NTK-aware base for ×4 over 8,192.
    const ratio = `'{"rope_ratio": 4.2, "seq_length": 32768}'`;
    const theta = `'{"rope_theta": 42000, "seq_length": 32768}'`;
    assert.deepEqual(serious(analyze(`vllm serve THUDM/chatglm3-6b --max-model-len 32768 --hf-overrides ${ratio}\n`, true)), []);
    assert.deepEqual(
      serious(analyze(`python -m sglang.launch_server --model-path THUDM/chatglm3-6b --context-length 32768 --json-model-override-args ${ratio}\n`, true)),
      [],
    );
    assert.match(
      said(one(analyze(`vllm serve THUDM/chatglm3-6b --max-model-len 32768 --hf-overrides ${theta}\n`, true), 'vllm/context-beyond-trained')),
      /vLLM extrapolates every position past 8,192: .*vLLM accepts it\. vLLM's ChatGLM attention/,
    );
    assert.match(
      said(
        one(
          analyze(`python -m sglang.launch_server --model-path THUDM/chatglm3-6b --context-length 32768 --json-model-override-args ${theta}\n`, true),
          'launch/beyond-trained',
        ),
      ),
      /SGLang extrapolates every position past 8,192: .*SGLang accepts it\. SGLang's ChatGLM attention/,
    );
  });
});
