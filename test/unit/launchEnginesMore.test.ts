/**
 * Issue 27, engine modules: llama-cpp-python's server, `python -mMODULE`, engine images under any
 * registry, wrappers named for an engine, Ollama's environment (variables it does not read; a run
 * served at its script's `ollama serve` context), each judged through the service on the user's token.
 */
import { strict as assert } from 'node:assert';
import { readLaunchFile } from '../../shared/launch/index';
import type { Invocation, LaunchFile, ShellParser } from '../../shared/launch/types';
import { readServingLaunch } from '../../shared/serving/launch';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { Finding } from '../../shared/core/findings';
import { shellParser } from './helpers/launch';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();

describe("launch engines: more launchers and Ollama's environment (issue 27)", () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });
  const file = (text: string, name = 'serve.sh'): LaunchFile => {
    const f = readLaunchFile(text, name, { shell });
    assert.ok(f, `${name}: not read as a launch`);
    return f;
  };
  const inv = (text: string, name?: string): Invocation => file(text, name).invocations[0];
  const analyze = (text: string, name = 'serve.sh') =>
    analyzeLaunchFile(file(text, name), text, {
      fileName: `/tmp/issue27/${name}`,
      resolver: catalogResolver,
      oracle,
      variant: 'v5',
      reparse: (t) => readLaunchFile(t, name, { shell }),
    });
  const spanText = (text: string, d: Finding) => {
    const l = new LineIndex(text);
    return text.slice(l.offsetAt(d.range.start), l.offsetAt(d.range.end));
  };

  describe('llama-cpp-python (python -m llama_cpp.server)', () => {
    it("reads --n_ctx, --model and the integer --rope_scaling_type as llama.cpp's names; the environment fills what the command leaves", () => {
      const req = readServingLaunch(inv('N_CTX=4096 MODEL=/m/x.gguf python3 -m llama_cpp.server --n_ctx 81920 --rope_scaling_type 2 --rope_freq_base 0\n'))!;
      assert.equal(req.program, 'llama.cpp');
      assert.equal(req.length?.value, 81920, 'the command line wins over N_CTX');
      assert.equal(req.model?.value, '/m/x.gguf', 'MODEL from the environment (pydantic-settings)');
      assert.equal(req.rope['rope-scaling']?.value?.value, 'yarn');
      assert.equal(req.rope['rope-scaling']?.value?.raw, '2', 'the integer stays the token the user wrote');
      assert.equal(req.rope['rope-freq-base'], undefined, '0 means from the model: not an option set');
      assert.equal(req.invocation?.append, undefined, 'no llama-server flags are appended to a llama-cpp-python command');
    });

    it('--n-ctx (dashes) and -c (a llama-server flag) stop argparse: errors naming its own spelling', () => {
      const req = readServingLaunch(inv('python -m llama_cpp.server --model m.gguf --n-ctx 8192 -c 4096\n'))!;
      const byFlag = Object.fromEntries(req.problems.map((p) => [p.token.value, p]));
      assert.equal(byFlag['--n-ctx']?.kind, 'misspelled');
      assert.match(said(byFlag['--n-ctx']), /--n_ctx/);
      assert.equal(byFlag['-c']?.kind, 'foreign');
      assert.equal(byFlag['-c'].replacement, '--n_ctx');
      assert.equal(req.length, undefined);
    });

    it("past the trained context it warns (one context, no slot cap) on --n_ctx's value", () => {
      const text = 'python -m llama_cpp.server --model /models/Meta-Llama-3-8B-Instruct-Q4_K_M.gguf --n_ctx 32768\n';
      const a = analyze(text);
      const loud = a.diagnostics.filter((d) => d.severity === 'warning' || d.severity === 'error');
      assert.ok(loud.length, JSON.stringify(a.diagnostics.map((d) => [d.code, d.message])));
      assert.ok(
        loud.every((d) => spanText(text, d) === '32768'),
        JSON.stringify(loud.map((d) => [d.code, spanText(text, d)])),
      );
      assert.ok(!loud.some((d) => /caps each slot/.test(said(d))), 'llama-cpp-python has no server slots');
    });
  });

  it('python3 -mvllm.entrypoints.openai.api_server (no space) is vLLM; so is a vllm-openai image under another registry', () => {
    const a = readServingLaunch(inv('python3 -mvllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --max-model-len 32768\n'))!;
    assert.equal(a.program, 'vllm');
    assert.equal(a.length?.value, 32768);
    const b = readServingLaunch(
      inv(
        'services:\n  v:\n    image: registry.example.com/mirror/vllm-openai:v0.10.1\n    command: ["--model", "m", "--max-model-len", "4096"]\n',
        'compose.yaml',
      ),
    )!;
    assert.equal(b.program, 'vllm');
    assert.equal(b.version?.value, 'registry.example.com/mirror/vllm-openai:v0.10.1', 'the tag still pins the release');
  });

  it("Google Cloud's TGI container reads MODEL_ID / MAX_INPUT_LENGTH / MAX_TOTAL_TOKENS like TGI's own image", () => {
    const k8s =
      'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: tgi\n    image: us-docker.pkg.dev/deeplearning-platform-release/gcr.io/huggingface-text-generation-inference-cu124.2-3.ubuntu2204.py311\n    env:\n    - name: MODEL_ID\n      value: google/gemma-2-2b-it\n    - name: MAX_INPUT_LENGTH\n      value: "1562"\n    - name: MAX_TOTAL_TOKENS\n      value: "2048"\n';
    const req = readServingLaunch(inv(k8s, 'pod.yaml'))!;
    assert.equal(req.program, 'tgi');
    assert.equal(req.model?.value, 'google/gemma-2-2b-it');
    assert.equal(req.length?.value, 2048);
    assert.equal(req.rope['max-input-tokens']?.value?.value, '1562');
  });

  describe('wrappers named for an engine', () => {
    it("start_vllm MODEL --max-model-len N: vllm serve, said in a note; the finding on the call's own token", () => {
      const text = 'source ~/bin/helpers.sh\nstart_vllm Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --gpu-memory-utilization 0.9\n';
      const req = readServingLaunch(inv(text))!;
      assert.equal(req.program, 'vllm');
      assert.equal(req.model?.value, 'Qwen/Qwen2.5-7B-Instruct');
      assert.match(req.notes.join('\n'), /start_vllm is read as vllm/);
      const err = analyze(text).diagnostics.find((d) => d.severity === 'error');
      assert.ok(err);
      assert.equal(spanText(text, err!), '131072');
    });
    it("run_llama_server and serve_sglang with their engines' flags; a wrapper given another engine's flag is not read", () => {
      assert.equal(readServingLaunch(inv('run_llama_server --model /m/q.gguf --ctx-size 65536 --jinja\n'))?.program, 'llama.cpp');
      assert.equal(readServingLaunch(inv('serve_sglang --model-path Qwen/Qwen2.5-7B-Instruct --context-length 32768\n'))?.program, 'sglang');
      assert.equal(
        readServingLaunch(inv('run_llama_server --model /m/q.gguf --max-model-len 65536\n')),
        undefined,
        "--max-model-len is vLLM's: not llama-server's arguments",
      );
      assert.equal(readServingLaunch(inv('start_vllm --verbose\n')), undefined, 'no option vLLM reads');
    });
  });

  describe("Ollama's environment", () => {
    it('OLLAMA_MAX_CTX: a warning on the name, naming OLLAMA_CONTEXT_LENGTH, and a fix that renames it', () => {
      const text = 'OLLAMA_MAX_CTX=32768 ollama serve &\nollama run qwen2.5:7b\n';
      const a = analyze(text);
      const d = a.diagnostics.find((x) => /OLLAMA_MAX_CTX/.test(said(x)));
      assert.ok(d, JSON.stringify(a.diagnostics.map((x) => x.message)));
      assert.equal(d!.severity, 'warning');
      assert.equal(spanText(text, d!), 'OLLAMA_MAX_CTX');
      assert.match(said(d!), /OLLAMA_CONTEXT_LENGTH/);
      const fix = d!.fixes[0];
      assert.ok(fix, 'a rename fix');
      assert.equal(applyTextEdits(text, new LineIndex(text), fix.edits), 'OLLAMA_CONTEXT_LENGTH=32768 ollama serve &\nollama run qwen2.5:7b\n');
    });
    it('variables Ollama reads (now or in earlier releases) are left alone; an unrelated unknown one is information', () => {
      const quiet = analyze('OLLAMA_HOST=0.0.0.0 OLLAMA_KEEP_ALIVE=24h OLLAMA_NEW_ENGINE=1 ollama serve\n');
      assert.deepEqual(
        quiet.diagnostics.map((d) => d.code),
        [],
      );
      const info = analyze('OLLAMA_GPU_LAYERS=40 ollama serve\n').diagnostics;
      assert.equal(info.length, 1);
      assert.equal(info[0].severity, 'information');
    });
    it("a run after the script's serve is judged at the serve's OLLAMA_CONTEXT_LENGTH, on the token that sets it", () => {
      const text = 'export OLLAMA_CONTEXT_LENGTH=131072\nollama serve &\nsleep 3\nollama run qwen2.5:7b\n';
      const a = analyze(text);
      const run = a.launches.find((l) => l.model === 'qwen2.5:7b');
      assert.equal(run?.requestedLength, 131072);
      const w = a.diagnostics.find((d) => d.severity === 'warning');
      assert.ok(w, JSON.stringify(a.diagnostics.map((d) => d.message)));
      assert.equal(spanText(text, w!), '131072');
      // Without a serve in the script, the run's own environment does not reach a server started elsewhere.
      const alone = analyze('export OLLAMA_CONTEXT_LENGTH=131072\nollama run qwen2.5:7b\n');
      assert.equal(alone.launches[0].requestedLength, null);
    });
  });
});
