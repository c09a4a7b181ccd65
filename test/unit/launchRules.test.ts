import { strict as assert } from 'node:assert';
import { shellFileOf, execFormOf, modelfileOf } from './helpers/invocation';
import { analyzeLaunchFile, identityCandidates } from '../../shared/service/analyzeLaunch';
import type { LaunchFile } from '../../shared/launch/types';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { Finding } from '../../shared/core/findings';
import { LAUNCH_RULE_CODES } from '../../shared/rules/launch/index';
import { ollamaLibraryModel } from '../../shared/serving/ollama';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();
const opts = { fileName: '/tmp/launch/serve.sh', resolver: catalogResolver, oracle, variant: 'v5' as const };

function analyze(text: string, file: LaunchFile = shellFileOf(text)) {
  return analyzeLaunchFile(file, text, { ...opts, reparse: (t) => shellFileOf(t) });
}
function only(text: string, code: string): Finding {
  const a = analyze(text);
  const hits = a.diagnostics.filter((d) => d.code === code);
  assert.equal(
    hits.length,
    1,
    `${code} in ${JSON.stringify(
      a.diagnostics.map((d) => [d.code, d.message]),
      null,
      1,
    )}`,
  );
  return hits[0];
}
const spanOf = (text: string, d: Finding) => {
  const l = new LineIndex(text);
  return text.slice(l.offsetAt(d.range.start), l.offsetAt(d.range.end));
};
function apply(text: string, d: Finding, which: (f: Finding['fixes'][number]) => boolean = (f) => !!f.preferred): string {
  const fix = d.fixes.find(which);
  assert.ok(fix, `a fix in ${JSON.stringify(d.fixes.map((f) => f.title))}`);
  return applyTextEdits(text, new LineIndex(text), fix!.edits);
}
/** Everything outside the command's own line(s) is byte-identical. */
function sameOutside(before: string, after: string, line: number) {
  const b = before.split('\n'),
    a = after.split('\n');
  assert.deepEqual(a.slice(0, line), b.slice(0, line));
  const tail = b.length - line - 1;
  assert.deepEqual(a.slice(a.length - tail), b.slice(b.length - tail));
}

describe('launch rules: right launches are clean', () => {
  it('vllm serve Qwen2.5-7B-Instruct at its trained context', () => {
    const a = analyze('vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768\n');
    assert.deepEqual(a.diagnostics, []);
    assert.equal(a.launches[0].derivedMaxLen, 32768);
    assert.equal(a.launches[0].trainedContext, 32768);
    assert.equal(a.launches[0].resolvedFrom, 'catalog:Qwen/Qwen2.5-7B-Instruct');
  });

  it('Qwen with a correct YaRN override at 131072 (vLLM and SGLang with its env), llama-server flags', () => {
    const y = `'{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'`;
    assert.deepEqual(analyze(`vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides ${y}\n`).diagnostics, []);
    assert.deepEqual(
      analyze(
        `SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --context-length 131072 --json-model-override-args ${y}\n`,
      ).diagnostics,
      [],
    );
    const l = analyze(
      'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 --override-kv qwen2.context_length=int:131072\n',
    );
    assert.deepEqual(
      l.diagnostics.map((d) => d.code),
      [],
    );
    assert.match(l.launches[0].notes.join(' '), /assumed, not read/);
  });
});

describe('launch rules: length against what the engine derives', () => {
  it("vLLM: error on the length token, the YAML rule's fixes in --hf-overrides form; the preferred fix clears it", () => {
    const text = '#!/bin/sh\n# serve\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 128K --port 8000\necho done\n';
    const d = only(text, 'vllm/max-model-len-exceeds');
    assert.equal(d.severity, 'error');
    assert.equal(spanOf(text, d), '128K');
    assert.match(said(d), /max-model-len 131,072 is above the 32,768 it derives.*vLLM derives 32,768 from Qwen\/Qwen2\.5-7B-Instruct/);
    assert.deepEqual(
      d.fixes.map((f) => f.kind),
      ['ntk', 'yarn', 'linear', 'dynamic', 'other'],
    );
    const fixed = apply(text, d);
    assert.equal(
      fixed,
      text.replace('--port 8000', `--port 8000 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'`),
    );
    sameOutside(text, fixed, 2);
    assert.deepEqual(analyze(fixed).diagnostics, []);
    const lowered = apply(text, d, (f) => f.title === 'Set max-model-len to 32768');
    assert.match(lowered, /--max-model-len 32768 --port/);
  });

  it('vLLM with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: a warning (the error is hidden, the extrapolation is not)', () => {
    const d = only('VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072\n', 'vllm/max-model-len-exceeds');
    assert.equal(d.severity, 'warning');
    assert.match(said(d), /still extrapolated/);
  });

  it('vLLM: a continued multi-line command gets the override on a new continued line', () => {
    const text = 'vllm serve Qwen/Qwen2.5-7B-Instruct \\\n    --max-model-len 131072 \\\n    --tensor-parallel-size 2\n';
    const fixed = apply(text, only(text, 'vllm/max-model-len-exceeds'));
    assert.equal(
      fixed,
      `vllm serve Qwen/Qwen2.5-7B-Instruct \\\n    --max-model-len 131072 \\\n    --tensor-parallel-size 2 \\\n    --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`,
    );
  });

  it('vLLM in an exec-form array: the fix adds "--hf-overrides", "{…}" entries', () => {
    const text = 'FROM vllm/vllm-openai:v0.10.1\nCMD ["Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "131072"]\n';
    const file: LaunchFile = { format: 'dockerfile', invocations: [execFormOf(text, 'vllm/vllm-openai:v0.10.1', { at: text.indexOf('CMD') })], problems: [] };
    const a = analyzeLaunchFile(file, text, opts);
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.equal(spanOf(text, d), '"131072"');
    const fixed = apply(text, d);
    assert.equal(
      fixed,
      text.replace(
        '"131072"]',
        `"131072", "--hf-overrides", ${JSON.stringify('{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}')}]`,
      ),
    );
    const re = analyzeLaunchFile({ ...file, invocations: [execFormOf(fixed, 'vllm/vllm-openai:v0.10.1', { at: fixed.indexOf('CMD') })] }, fixed, opts);
    assert.deepEqual(re.diagnostics, []);
  });

  it('vLLM --disable-sliding-window caps the derived length at the window', () => {
    const a = analyze('vllm serve mistralai/Mistral-7B-v0.1 --disable-sliding-window --max-model-len 8192\n');
    assert.equal(a.launches[0].derivedMaxLen, 4096);
    assert.equal(a.diagnostics[0].code, 'vllm/max-model-len-exceeds');
    assert.equal(analyze('vllm serve mistralai/Mistral-7B-v0.1 --max-model-len 8192\n').launches[0].derivedMaxLen, 32768);
  });

  it('SGLang: an error quoting its refusal; with a YaRN override the env fix is preferred', () => {
    const d = only('python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --context-length 131072\n', 'launch/length-exceeds-derived');
    assert.equal(d.severity, 'error');
    assert.match(said(d), /User-specified context_length \(131072\) is greater than the derived context_length \(32768\)/);
    const y = `python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --context-length 131072 --json-model-override-args '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`;
    const e = only(y, 'launch/length-exceeds-derived');
    const fixed = apply(y, e);
    assert.equal(fixed, `SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 ${y}`);
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it("llama-server with Qwen's YaRN flags at 131,072 still caps each slot at the GGUF's 32,768: the preferred fix adds --override-kv to the command", () => {
    const text =
      'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf \\\n  -c 131072 \\\n  --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 \\\n  --port 8080\n';
    const d = only(text, 'launch/length-exceeds-derived');
    assert.equal(d.severity, 'warning');
    assert.equal(spanOf(text, d), '131072');
    assert.match(said(d), /caps each slot there .* serves 32,768, not 131,072\. The yarn scaling in effect covers 131,072: --override-kv raises the cap\./);
    const fixed = apply(text, d);
    assert.equal(fixed, text.replace('--port 8080\n', '--port 8080 \\\n  --override-kv qwen2.context_length=int:131072\n'));
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it('llama-server caps (warning) and llama-cli overflows (warning); Ollama clamps (warning)', () => {
    const s = only('llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 65536\n', 'launch/length-exceeds-derived');
    assert.equal(s.severity, 'warning');
    assert.match(said(s), /capping/);
    // Qwen's own recipe (YaRN ×4 over 32,768) is preferred, as check on the config and serve prefer it.
    assert.match(
      s.fixes.find((f) => f.preferred)!.title,
      /^Add YaRN flags as Qwen's model card for Qwen\/Qwen2\.5-7B-Instruct documents them: --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768, --override-kv qwen2\.context_length=int:65536/,
    );
    const text = 'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 65536\n';
    assert.deepEqual(analyze(apply(text, s)).diagnostics, []);
    const c = only('llama-cli -m qwen2.5-7b-instruct-q4_k_m.gguf -c 65536\n', 'launch/length-exceeds-derived');
    assert.match(said(c), /possible training context overflow/);
    const mfText = 'FROM ./qwen2.5-7b-instruct-q4_k_m.gguf\nPARAMETER num_ctx 131072\n';
    const mf = analyzeLaunchFile({ format: 'modelfile', invocations: [], modelfile: modelfileOf(mfText), problems: [] }, mfText, opts);
    const o = mf.diagnostics.find((x) => x.code === 'launch/length-exceeds-derived')!;
    assert.equal(o.severity, 'warning');
    assert.match(said(o), /requested context size too large for model/);
    assert.equal(spanOf(mfText, o), '131072');
    assert.equal(apply(mfText, o), 'FROM ./qwen2.5-7b-instruct-q4_k_m.gguf\nPARAMETER num_ctx 32768\n');
  });
});

describe('launch rules: beyond the trained context, no scaling', () => {
  it('SGLang on a model that declares more than it was trained at: warning with override fixes', () => {
    const text = 'python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B --context-length 131072\n';
    const d = only(text, 'launch/beyond-trained');
    assert.equal(d.severity, 'warning');
    assert.equal(spanOf(text, d), '131072');
    assert.match(
      d.fixes.find((f) => f.preferred)!.title,
      /^Add YaRN as Qwen's model card for Qwen\/Qwen2\.5-7B documents it in json-model-override-args \(factor 4, original 32768, max_position_embeddings 131072\)/,
    );
    assert.deepEqual(analyze(apply(text, d)).diagnostics, []);
  });

  it('SGLang runs Mistral-7B-v0.1 without its sliding window: the fixes are judged over every distance, as the finding is', () => {
    const text = 'python -m sglang.launch_server --model-path mistralai/Mistral-7B-v0.1 --context-length 16384\n';
    const d = only(text, 'launch/beyond-trained');
    const preferred = d.fixes.find((f) => f.preferred);
    assert.ok(preferred?.rewrite, JSON.stringify(d.fixes.map((f) => f.title)));
    // The rewrite `serve --engine sglang` writes for the same question (YaRN ×2 over 8,192).
    assert.equal(preferred!.kind, 'yarn');
    assert.equal(preferred!.rewrite!.factor, 2);
    assert.equal(preferred!.rewrite!.original, 8192);
    assert.deepEqual(analyze(apply(text, d)).diagnostics, []);
  });

  it('TGI: dynamic NTK flags (its CLI has no YaRN)', () => {
    const text = 'text-generation-launcher --model-id Qwen/Qwen2.5-7B --max-input-tokens 65535 --max-total-tokens 65536\n';
    const d = only(text, 'launch/beyond-trained');
    assert.deepEqual(d.fixes.map((f) => f.kind).sort(), ['dynamic', 'linear']);
    const fixed = apply(text, d, (f) => f.kind === 'dynamic');
    assert.equal(fixed, text.replace('65536\n', '65536 --rope-scaling dynamic --rope-factor 2\n'));
    assert.deepEqual(
      analyze(fixed).diagnostics.map((x) => x.code),
      [],
    );
  });

  it('vLLM: vllm/context-beyond-trained, as for the YAML', () => {
    const d = only('vllm serve Qwen/Qwen2.5-7B --max-model-len 65536\n', 'vllm/context-beyond-trained');
    assert.equal(d.severity, 'warning');
  });
});

describe("launch rules: the engine's grammar", () => {
  it('foreign flags on SGLang are errors with the replacement; the fix keeps --flag=value', () => {
    const text = 'python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --max-model-len=32768\n';
    const d = only(text, 'launch/foreign-flag');
    assert.equal(d.severity, 'error');
    assert.equal(spanOf(text, d), '--max-model-len=32768');
    const fixed = apply(text, d);
    assert.equal(fixed, text.replace('--max-model-len=', '--context-length='));
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it('vLLM removed --rope-scaling: vllm/removed-option, moved into --hf-overrides in place', () => {
    const text = `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --rope-scaling '{"type":"yarn","factor":4.0,"original_max_position_embeddings":32768}'\n`;
    const d = only(text, 'vllm/removed-option');
    assert.equal(d.severity, 'error');
    assert.equal(spanOf(text, d), '--rope-scaling');
    const fixed = apply(text, d);
    assert.equal(
      fixed,
      `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`,
    );
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it('a removed --rope-scaling next to an existing --hf-overrides: merged into it, the option removed with its line', () => {
    const text = `vllm serve Qwen/Qwen2.5-7B-Instruct \\\n  --hf-overrides '{"rope_theta":1000000}' \\\n  --rope-scaling '{"type":"yarn","factor":4.0,"original_max_position_embeddings":32768}' \\\n  --max-model-len 131072\n`;
    const d = only(text, 'vllm/removed-option');
    const fixed = apply(text, d);
    assert.equal(
      fixed,
      `vllm serve Qwen/Qwen2.5-7B-Instruct \\\n  --hf-overrides '{"rope_theta":1000000.0,"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}' \\\n  --max-model-len 131072\n`,
    );
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it('a hyphenated override key is silently ignored: warning, renamed by the fix', () => {
    const text = `vllm serve Qwen/Qwen2.5-7B-Instruct --hf-overrides '{"rope-scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`;
    const d = only(text, 'launch/override-key-ignored');
    assert.equal(d.severity, 'warning');
    const fixed = apply(text, d);
    assert.match(fixed, /'\{"rope_scaling":\{"rope_type":"yarn"/);
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });

  it('a legacy `type` in --hf-overrides: vllm/legacy-rope-type, as for the YAML', () => {
    const text = `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling":{"type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`;
    const d = only(text, 'vllm/legacy-rope-type');
    assert.equal(d.severity, 'information');
    assert.match(said(d), /Current vLLM copies `type` to `rope_type`/);
    assert.deepEqual(analyze(apply(text, d)).diagnostics, []);
  });
});

describe('launch rules: scalings set by the command', () => {
  it('llama-server --rope-scale without --rope-scaling is linear interpolation on Qwen: warning, fix names YaRN', () => {
    const text = 'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 32768 --rope-scale 3\n';
    const d = only(text, 'launch/implicit-linear');
    assert.equal(d.severity, 'warning');
    assert.equal(spanOf(text, d), '3');
    assert.match(said(d), /Qwen documents YaRN/);
    const fixed = apply(text, d);
    assert.equal(fixed, text.replace('3\n', '3 --rope-scaling yarn --yarn-orig-ctx 32768\n'));
    assert.ok(!analyze(fixed).diagnostics.some((x) => x.code === 'launch/implicit-linear'));
  });

  it('a bare --rope-scale that also falls short of the length served: one finding says both, its fix writes YaRN with the factor needed', () => {
    const text = 'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 131072 --rope-scale 2 --override-kv qwen2.context_length=int:131072\n';
    const d = only(text, 'launch/implicit-linear');
    assert.equal(spanOf(text, d), '2');
    assert.ok(!analyze(text).diagnostics.some((x) => x.code === 'launch/scaling-mismatch'), 'the shortfall is said by implicit-linear, not again');
    assert.match(said(d), /factor 2 also covers only 65,536 of the 131,072 served; YaRN ×4 over 32,768 covers them/);
    const fixed = apply(text, d);
    assert.match(fixed, /--rope-scale 4\b/);
    assert.match(fixed, /--rope-scaling yarn/);
    assert.match(fixed, /--yarn-orig-ctx 32768/);
    const after = analyze(fixed).diagnostics.map((x) => x.code);
    assert.ok(!after.includes('launch/implicit-linear') && !after.includes('launch/scaling-mismatch'), after.join(', '));
    assert.ok(!/--rope-scale 2\b/.test(fixed), fixed);
  });

  it('--rope-scale without --rope-scaling on a Qwen GGUF not in the catalog: the family comes from the name, said so', () => {
    const text = 'llama-server -m /models/qwen2.5-coder-14b-instruct-q4_k_m.gguf -c 81920 --rope-scale 2.5\n';
    const d = only(text, 'launch/implicit-linear');
    assert.equal(d.severity, 'warning');
    assert.equal(spanOf(text, d), '2.5');
    assert.match(said(d), /compresses every position ×2\.5/);
    assert.match(said(d), /Qwen documents YaRN for inputs past 32,768 \(Qwen2\.5, assumed from the name qwen2\.5-coder-14b-instruct-q4_k_m\.gguf/);
    assert.equal(apply(text, d), text.replace('2.5\n', '2.5 --rope-scaling yarn --yarn-orig-ctx 32768\n'));
    // A name that says no family, or a variant whose GGUF may store its own scaling: nothing is assumed.
    assert.ok(!analyze('llama-server -m /models/my-finetune.gguf --rope-scale 2\n').diagnostics.some((x) => x.code === 'launch/implicit-linear'));
    assert.ok(!analyze('llama-server -m qwen2.5-7b-instruct-1m-q4_k_m.gguf --rope-scale 2\n').diagnostics.some((x) => x.code === 'launch/implicit-linear'));
    assert.ok(
      !analyze('llama-server -m qwen2.5-coder-14b-q4.gguf --rope-scaling yarn --rope-scale 2\n').diagnostics.some((x) => x.code === 'launch/implicit-linear'),
    );
  });

  it("an override that replaces a model's own YaRN (DeepSeek-V3: factor 40 over 4,096)", () => {
    const text = `vllm serve deepseek-ai/DeepSeek-V3 --max-model-len 131072 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`;
    const d = only(text, 'launch/override-replaces-scaling');
    assert.equal(d.severity, 'warning');
    assert.equal(d.message, "The model runs with the command's YaRN factor 4 over 32,768, not the YaRN factor 40 over 4,096 it was trained with.");
    assert.match(said(d), /replaces deepseek-ai\/DeepSeek-V3's own YaRN factor 40 over 4,096, the scaling it was trained with \(trained context 4,096\)/);
    // One finding for one mistake: the mismatch of the replacing numbers is not reported again.
    assert.ok(!analyze(text).diagnostics.some((x) => x.code === 'launch/scaling-mismatch'));
    // The fix keeps the model's own YaRN: the override goes, the rest of the command stays.
    const fixed = apply(text, d);
    assert.equal(fixed, `vllm serve deepseek-ai/DeepSeek-V3 --max-model-len 131072\n`);
    assert.ok(!analyze(fixed).diagnostics.some((x) => x.code === 'launch/override-replaces-scaling'));
  });

  it('findings about a key of an inline JSON override sit on that key (no JSON quotes)', () => {
    const hyphen = `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope-scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'\n`;
    assert.equal(spanOf(hyphen, only(hyphen, 'launch/override-key-ignored')), 'rope-scaling');
    const ds = `vllm serve deepseek-ai/DeepSeek-V3 --max-model-len 131072 --hf-overrides='{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`;
    assert.equal(spanOf(ds, only(ds, 'launch/override-replaces-scaling')), 'rope_scaling');
    const orig = `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":8192}}'\n`;
    assert.equal(spanOf(orig, only(orig, 'launch/scaling-mismatch')), 'original_max_position_embeddings');
    const legacy = `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'\n`;
    assert.equal(spanOf(legacy, only(legacy, 'vllm/legacy-rope-type')), 'type');
  });

  it('an override whose key cannot be located exactly (escaped in an exec-form array) keeps the whole argument', () => {
    const text =
      'FROM vllm/vllm-openai:v0.10.1\nCMD ["deepseek-ai/DeepSeek-V3", "--max-model-len", "131072", "--hf-overrides", "{\\"rope_scaling\\": {\\"rope_type\\": \\"yarn\\", \\"factor\\": 4.0, \\"original_max_position_embeddings\\": 32768}}"]\n';
    const file: LaunchFile = { format: 'dockerfile', invocations: [execFormOf(text, 'vllm/vllm-openai:v0.10.1', { at: text.indexOf('CMD') })], problems: [] };
    const d = analyzeLaunchFile(file, text, opts).diagnostics.find((x) => x.code === 'launch/override-replaces-scaling')!;
    assert.ok(spanOf(text, d).startsWith('"{\\"rope_scaling'), spanOf(text, d));
  });

  it('a YaRN factor that falls short of the served length (llama-server)', () => {
    const text =
      'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 131072 --rope-scaling yarn --rope-scale 2 --yarn-orig-ctx 32768 --override-kv qwen2.context_length=int:131072\n';
    const d = only(text, 'launch/scaling-mismatch');
    assert.match(said(d), /covers 65,536 of 131,072/);
    const fixed = apply(text, d);
    assert.match(fixed, /--rope-scale 4 --yarn-orig-ctx 32768/);
    assert.deepEqual(analyze(fixed).diagnostics, []);
  });
});

describe('launch rules: models and files', () => {
  it('an unresolvable model: not judged, no finding per launch, no invented numbers (the reason is on the launch)', () => {
    const text = 'llama-server -m /models/my-private-finetune.gguf -c 65536\n';
    const a = analyze(text);
    assert.deepEqual(a.diagnostics, []);
    assert.match(a.launches[0].unjudged ?? '', /^Model '\/models\/my-private-finetune\.gguf' was not found offline/);
    assert.match(a.launchHovers[0].markdown, /not found offline.*not judged/s);
    assert.equal(a.launches[0].derivedMaxLen, null);
    assert.equal(a.launches[0].trainedContext, null);
  });

  it('GGUF and -hf names give an assumed identity, said so', () => {
    assert.deepEqual(identityCandidates('models/Qwen2.5-7B-Instruct-Q4_K_M.gguf'), [
      'Qwen2.5-7B-Instruct',
      'Qwen2.5-7B-Instruct-Q4_K_M.gguf',
      'Qwen2.5-7B-Instruct-hf',
    ]);
    assert.ok(identityCandidates('Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M').includes('Qwen/Qwen2.5-7B-Instruct-GGUF'));
    const a = analyze('llama-server -m models/qwen2.5-7b-instruct-q4_k_m.gguf -c 65536\n');
    assert.match(said(a.diagnostics[0]), /Qwen\/Qwen2\.5-7B-Instruct \(assumed from the name models\/qwen2\.5-7b-instruct-q4_k_m\.gguf\)/);
  });

  it('Ollama library tags read as the hub model the library converted, said as assumed', () => {
    const mf = 'FROM qwen2.5:7b\nPARAMETER num_ctx 131072\n';
    const a = analyzeLaunchFile({ format: 'modelfile', invocations: [], modelfile: modelfileOf(mf), problems: [] }, mf, opts);
    assert.equal(a.launches[0].resolvedFrom, 'catalog:Qwen/Qwen2.5-7B-Instruct');
    assert.equal(a.launches[0].derivedMaxLen, 32768);
    const d = a.diagnostics.find((x) => x.code === 'launch/length-exceeds-derived');
    assert.equal(d?.severity, 'warning');
    assert.match(said(d!), /Qwen\/Qwen2\.5-7B-Instruct \(assumed from the Ollama library tag qwen2\.5:7b\): Ollama clamps it to 32,768/);
    assert.equal(spanOf(mf, d!), '131072');
    const run = analyze('ollama run llama3.1\nollama run llama3.2:1b\nollama run qwen2.5:7b-instruct-q4_K_M\n');
    assert.deepEqual(
      run.launches.map((l) => l.resolvedFrom),
      ['catalog:meta-llama/Llama-3.1-8B', 'catalog:meta-llama/Llama-3.2-1B', 'catalog:Qwen/Qwen2.5-7B-Instruct'],
    );
    assert.match(run.launches[0].notes.join(' '), /read as meta-llama\/Llama-3\.1-8B-Instruct from the Ollama library tag llama3\.1:8b/);
    assert.deepEqual(run.diagnostics, []);
  });

  it('an Ollama tag whose model the catalog knows only by its family is judged from the family, said so; a variant the module does not know is not guessed', () => {
    assert.equal(ollamaLibraryModel('qwen2.5-coder:14b')?.id, 'Qwen/Qwen2.5-Coder-14B-Instruct');
    assert.equal(ollamaLibraryModel('registry.ollama.ai/library/llama3.2:1b')?.id, 'meta-llama/Llama-3.2-1B-Instruct');
    assert.equal(ollamaLibraryModel('llama3.1:8b-text-q4_0'), undefined);
    assert.equal(ollamaLibraryModel('me/qwen2.5:7b'), undefined);
    assert.equal(ollamaLibraryModel('./qwen2.5-7b.gguf'), undefined);
    const a = analyze('ollama run qwen2.5-coder:14b\n');
    assert.deepEqual(a.diagnostics, []);
    // Qwen2.5-Coder-14B-Instruct has no catalog entry: the Qwen2.5 generation's data stands for it (families.json).
    assert.equal(a.launches[0].unjudged, undefined);
    assert.equal(a.launches[0].resolvedFrom, 'catalog:Qwen/Qwen2.5-Coder-14B-Instruct');
    assert.equal(a.launches[0].trainedContext, 32768);
    assert.ok(
      a.launches[0].notes.some((n) => /assumed from the Qwen2\.5 family/.test(n) || /the Qwen2\.5 family: trained at 32,768/.test(n)),
      a.launches[0].notes.join('\n'),
    );
  });

  it('every invocation in a file is judged on its own; hovers say what the engine derives', () => {
    const text =
      'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072\nllama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 8192\n';
    const a = analyze(text);
    assert.equal(a.launches.length, 3);
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.range.start.line]),
      [['vllm/max-model-len-exceeds', 1]],
    );
    assert.match(a.launchHovers[1].markdown, /\| vLLM derives \| 32,768/);
    assert.match(a.launchHovers[1].markdown, /\| trained context \| 32,768/);
    assert.match(a.launchHovers[2].markdown, /scaling in effect \| no RoPE scaling/);
  });

  it('training-launch analyzers plug in and see only the invocations no engine claimed', () => {
    const text = 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768\nmy-trainer --steps 10\n';
    const seen: string[] = [];
    const a = analyzeLaunchFile(shellFileOf(text), text, {
      ...opts,
      trainerAnalyzers: [
        (file) => ({
          launches: file.invocations.map((inv) => {
            seen.push(inv.argv[0].value);
            return {
              program: 'generic-trainer',
              role: 'training' as const,
              source: 'shell',
              model: null,
              resolvedFrom: null,
              requestedLength: null,
              lengthOption: null,
              derivedMaxLen: null,
              trainedContext: null,
              ropeOptions: {},
              overrides: null,
              env: {},
              range: inv.range,
              notes: [],
            };
          }),
          diagnostics: [],
        }),
      ],
    });
    assert.deepEqual(seen, ['my-trainer']);
    assert.deepEqual(
      a.launches.map((l) => l.program),
      ['vllm', 'generic-trainer'],
    );
  });
});

describe('launch rules: documented', () => {
  it('every launch code has its page, docs/rules/<code>.md', () => {
    for (const code of LAUNCH_RULE_CODES)
      assert.match(readFileSync(join(__dirname, '..', '..', 'docs', 'rules', `${code}.md`), 'utf8'), new RegExp(`^# ${code}\n`), code);
    assert.ok(LAUNCH_RULE_CODES.length >= 12);
  });
});

describe('launch rules: odd commands', () => {
  it('never throw, never print NaN/undefined, never invent numbers', () => {
    const cmds = [
      'vllm serve',
      'vllm serve --max-model-len',
      'vllm serve m --hf-overrides',
      `vllm serve Qwen/Qwen2.5-7B-Instruct --hf-overrides '[1]'`,
      'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 99999999999999999999999',
      'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 0',
      `vllm serve Qwen/Qwen2.5-7B-Instruct --hf-overrides '{"rope_scaling":{"rope_type":"yarn"}}' --max-model-len 131072`,
      `vllm serve Qwen/Qwen2.5-7B-Instruct --hf-overrides '{"rope_scaling":{"rope_type":"weird","factor":"x"}}' --max-model-len 65536`,
      'llama-server -m Qwen2.5-7B-Instruct-Q4_K_M.gguf -c -5 --rope-scale 0',
      'llama-server -m Qwen2.5-7B-Instruct-Q4_K_M.gguf --rope-freq-scale 0 -c 65536',
      'llama-server -m Qwen2.5-7B-Instruct-Q4_K_M.gguf --rope-scaling yarn -c 65536',
      'text-generation-launcher --rope-factor abc --max-total-tokens 99',
      'python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --context-length NaN',
      'sglang serve',
      'ollama run',
      'ollama serve',
    ];
    for (const cmd of cmds) {
      const text = `${cmd}\n`;
      const a = analyze(text);
      for (const d of a.diagnostics) {
        assert.doesNotMatch(said(d), /NaN|undefined|Infinity|\[object/, `${cmd}: ${d.message}`);
        for (const f of d.fixes) assert.doesNotMatch(f.title, /NaN|undefined|Infinity/, `${cmd}: ${f.title}`);
      }
    }
  });
});
