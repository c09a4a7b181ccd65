import { strict as assert } from 'node:assert';
import { invocationOf, execFormOf, modelfileOf } from './helpers/invocation';
import { readServingLaunch, readModelfileLaunch } from '../../shared/serving/index';
import { parseLength, parseLengthOrAuto } from '../../shared/serving/vllmConfigFile';
import { imageRepo } from '../../shared/serving/argv';
import { said } from './helpers/findingText';

const read = (cmd: string, opts = {}) => readServingLaunch(invocationOf(cmd, opts));
/** The text a token spans in the source: findings and fixes land there. */
const at = (text: string, t: { offset: number; length: number }) => text.slice(t.offset, t.offset + t.length);

describe('launch grammar: vLLM', () => {
  it('vllm serve MODEL reads the positional model and --max-model-len', () => {
    const cmd = 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768 --port 8000';
    const r = read(cmd)!;
    assert.equal(r.program, 'vllm');
    assert.equal(r.model!.value, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(r.length!.value, 32768);
    assert.equal(at(cmd, r.length!.option.value!), '32768');
    assert.deepEqual(r.problems, []);
  });

  it('--flag=value, underscores and --model all reach the same option', () => {
    for (const cmd of [
      'vllm serve --model Qwen/Qwen2.5-7B-Instruct --max_model_len=64k',
      'vllm serve --model=Qwen/Qwen2.5-7B-Instruct --max-model-len=64k',
      'python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --max_model_len 64k',
    ]) {
      const r = read(cmd)!;
      assert.equal(r.model?.value, 'Qwen/Qwen2.5-7B-Instruct', cmd);
      assert.equal(r.length?.value, 64000, cmd);
      assert.equal(at(cmd, r.length!.option.value!), '64k', cmd);
    }
  });

  it('--served-model-name is not the model', () => {
    const r = read('vllm serve --served-model-name qwen --max-model-len 4096')!;
    assert.equal(r.model, undefined);
    assert.match(r.notes.join(' '), /served-model-name names the model in the API only/);
    assert.equal(read('vllm serve ./ckpt --served-model-name qwen')!.model!.value, './ckpt');
  });

  it('human-readable lengths are parsed exactly as vLLM human_readable_int does', () => {
    assert.equal(parseLength('1k'), 1000);
    assert.equal(parseLength('1K'), 1024);
    assert.equal(parseLength('25.6k'), 25600);
    assert.equal(parseLength('128K'), 131072);
    assert.equal(parseLength(' 32768 '), 32768);
    assert.equal(parseLength('131_072'), 131072);
    assert.ok(Number.isNaN(parseLength('1.5K')), 'decimals are refused with binary suffixes');
    assert.ok(Number.isNaN(parseLength('32kb')));
    assert.equal(parseLengthOrAuto('auto'), 'auto');
    assert.equal(parseLengthOrAuto('-1'), 'auto');
    const r = read('vllm serve m --max-model-len 1.5K')!;
    assert.equal(r.length, undefined);
    assert.equal(r.problems[0].kind, 'bad-value');
  });

  it('--hf-overrides JSON in single quotes is parsed; dotted keys merge into it', () => {
    const cmd = `vllm serve Qwen/Qwen2.5-7B-Instruct --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0}}' --hf-overrides.rope_scaling.original_max_position_embeddings 32768`;
    const r = read(cmd)!;
    assert.deepEqual(r.overrides!.value, { rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
    assert.equal(at(cmd, r.overrides!.option.value!), `'{"rope_scaling":{"rope_type":"yarn","factor":4.0}}'`);
  });

  it('removed, foreign and ignored-key problems', () => {
    const r = read(`vllm serve m --rope-scaling '{"type":"yarn","factor":4}' --context-length 8192 --hf-overrides '{"rope-scaling":{"rope_type":"yarn"}}'`)!;
    const kinds = r.problems.map((p) => `${p.kind}:${p.token.value.slice(0, 16)}`);
    assert.deepEqual(kinds.sort(), ['foreign:--context-length', 'ignored-key:{"rope-scaling":', 'removed:--rope-scaling'].sort());
    assert.equal(r.problems.find((p) => p.kind === 'foreign')!.replacement, '--max-model-len');
    assert.match(r.problems.find((p) => p.kind === 'removed')!.message, /PR #28006, v0\.11\.1/);
  });

  it('--disable-sliding-window is read as a RoPE-relevant option', () => {
    assert.ok(read('vllm serve mistralai/Mistral-7B-v0.1 --disable-sliding-window')!.rope['disable-sliding-window']);
  });

  it('the vllm/vllm-openai image: arguments are serve arguments (ENTRYPOINT vllm serve)', () => {
    const r = read('Qwen/Qwen2.5-7B-Instruct --max-model-len 32768', { entrypoint: 'image', image: 'vllm/vllm-openai:v0.10.1' })!;
    assert.equal(r.program, 'vllm');
    assert.equal(r.model!.value, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(r.version!.value, 'vllm/vllm-openai:v0.10.1');
    const exec = execFormOf('CMD ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "32k"]', 'vllm/vllm-openai:latest');
    const e = readServingLaunch(exec)!;
    assert.equal(e.model!.value, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(e.length!.value, 32000);
    assert.equal(read('--model x', { entrypoint: 'image', image: 'nginx:latest' }), undefined);
  });

  it('image names are read without registry and tag', () => {
    assert.deepEqual(imageRepo('docker.io/vllm/vllm-openai:v0.10.1'), { repo: 'vllm/vllm-openai', tag: 'v0.10.1' });
    assert.deepEqual(imageRepo('ghcr.io/ggml-org/llama.cpp:server-cuda'), { repo: 'ggml-org/llama.cpp', tag: 'server-cuda' });
    assert.deepEqual(imageRepo('localhost:5000/lmsysorg/sglang'), { repo: 'lmsysorg/sglang' });
  });
});

describe('launch grammar: SGLang', () => {
  it('python -m sglang.launch_server and sglang serve, --model-path or --model', () => {
    for (const cmd of [
      'python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --context-length 65536',
      'sglang serve --model Qwen/Qwen2.5-7B-Instruct --context-length=65536',
      'python3 -u -m sglang.launch_server --model Qwen/Qwen2.5-7B-Instruct --context 65536',
    ]) {
      const r = read(cmd)!;
      assert.equal(r.program, 'sglang', cmd);
      assert.equal(r.model?.value, 'Qwen/Qwen2.5-7B-Instruct', cmd);
      assert.equal(r.length?.value, 65536, cmd);
    }
  });

  it("vLLM's flags are refused with argparse's message; the certain replacements are given", () => {
    const r = read(
      `python -m sglang.launch_server --model-path m --max-model-len 131072 --hf-overrides '{}' --gpu-memory-utilization 0.9 --rope-scaling '{}'`,
    )!;
    const byFlag = Object.fromEntries(r.problems.map((p) => [p.token.value, p]));
    assert.equal(byFlag['--max-model-len'].replacement, '--context-length');
    assert.equal(byFlag['--hf-overrides'].replacement, '--json-model-override-args');
    assert.equal(byFlag['--rope-scaling'].replacement, undefined);
    assert.match(said(byFlag['--max-model-len']), /unrecognized arguments: --max-model-len 131072/);
    assert.ok(r.problems.every((p) => p.severity === 'error'));
    assert.equal(r.length, undefined, 'the refused length is not read as a length');
  });

  it('underscores are not dashes for SGLang', () => {
    const r = read('python -m sglang.launch_server --model-path m --context_length 8192')!;
    assert.equal(r.problems[0].kind, 'misspelled');
    assert.equal(r.problems[0].replacement, '--context-length');
  });

  it('--json-model-override-args and the lmsysorg/sglang image (full command given)', () => {
    const r = read(
      `python3 -m sglang.launch_server --model-path m --json-model-override-args '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'`,
      { entrypoint: 'image', image: 'lmsysorg/sglang:latest' },
    )!;
    assert.equal((r.overrides!.value!['rope_scaling'] as Record<string, unknown>)['factor'], 4);
  });
});

describe('launch grammar: llama.cpp', () => {
  it('llama-server, paths, legacy ./server and the :server image', () => {
    const cases: [string, object?][] = [
      ['llama-server -m models/qwen2.5-7b-instruct-q4_k_m.gguf -c 32768'],
      ['./build/bin/llama-server --model models/qwen2.5-7b-instruct-q4_k_m.gguf --ctx-size 32768'],
      ['./server -m models/qwen2.5-7b-instruct-q4_k_m.gguf --ctx_size 32768'],
      ['-m models/qwen2.5-7b-instruct-q4_k_m.gguf -c 32768', { entrypoint: 'image', image: 'ghcr.io/ggml-org/llama.cpp:server' }],
    ];
    for (const [cmd, opts] of cases) {
      const r = read(cmd, opts)!;
      assert.equal(r.program, 'llama.cpp', cmd);
      assert.equal(r.model?.value, 'models/qwen2.5-7b-instruct-q4_k_m.gguf', cmd);
      assert.equal(r.length?.value, 32768, cmd);
    }
    assert.equal(read('main -m x.gguf'), undefined, 'a bare `main` is not taken for llama.cpp');
  });

  it('-c 0 means from the model; RoPE flags and LLAMA_ARG_* variables', () => {
    const r = read('LLAMA_ARG_ROPE_SCALE=4 llama-server -hf Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M -c 0 --rope-scaling yarn --yarn-orig-ctx 32768')!;
    assert.equal(r.length, undefined);
    assert.match(r.notes.join(' '), /-c 0 takes the context from the model/);
    assert.equal(r.model!.value, 'Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M');
    assert.equal(r.rope['rope-scaling'].value!.value, 'yarn');
    assert.equal(r.rope['rope-scale'].value!.value, '4');
    assert.equal(r.rope['yarn-orig-ctx'].value!.value, '32768');
    const envLen = read('llama-server -m x.gguf', { env: { LLAMA_ARG_CTX_SIZE: '65536' } })!;
    assert.equal(envLen.length!.value, 65536);
    assert.equal(read('llama-server -m x.gguf -c 8192', { env: { LLAMA_ARG_CTX_SIZE: '65536' } })!.length!.value, 8192, 'the command line wins');
  });

  it('--flag=value is an invalid argument for llama.cpp; bad --rope-scaling values', () => {
    const r = read('llama-server -m x.gguf --ctx-size=8192 --rope-scaling dynamic')!;
    const kinds = r.problems.map((p) => p.kind).sort();
    assert.deepEqual(kinds, ['bad-value', 'misspelled']);
    assert.equal(r.problems.find((p) => p.kind === 'misspelled')!.replacement, '--ctx-size 8192');
  });
});

describe('launch grammar: TGI', () => {
  it('text-generation-launcher flags, env equivalents and the image', () => {
    const r = read(
      'text-generation-launcher --model-id Qwen/Qwen2.5-7B-Instruct --max-input-length 8191 --max-total-tokens=8192 --rope-scaling dynamic --rope-factor 2',
    )!;
    assert.equal(r.program, 'tgi');
    assert.equal(r.length!.value, 8192);
    assert.equal(r.rope['max-input-tokens'].value!.value, '8191');
    assert.equal(r.rope['rope-scaling'].value!.value, 'dynamic');
    const img = read('--max-total-tokens 4096', {
      entrypoint: 'image',
      image: 'ghcr.io/huggingface/text-generation-inference:3.0',
      env: { MODEL_ID: 'Qwen/Qwen2.5-7B-Instruct', ROPE_FACTOR: '2' },
    })!;
    assert.equal(img.model!.value, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(img.rope['rope-factor'].value!.value, '2');
  });

  it('clap refuses underscores and vLLM flags; max_input_tokens must be below max_total_tokens', () => {
    const r = read('text-generation-launcher --model-id m --max_total_tokens 8192 --max-model-len 8192')!;
    const byFlag = Object.fromEntries(r.problems.map((p) => [p.token.value, p]));
    assert.equal(byFlag['--max_total_tokens'].kind, 'misspelled');
    assert.equal(byFlag['--max_total_tokens'].replacement, '--max-total-tokens');
    assert.equal(byFlag['--max-model-len'].replacement, '--max-total-tokens');
    const bad = read('text-generation-launcher --model-id m --max-input-tokens 8192 --max-total-tokens 8192')!;
    assert.match(said(bad.problems[0]), /must be < `max_total_tokens`/);
  });
});

describe('launch grammar: Ollama', () => {
  it('a Modelfile: FROM and PARAMETER num_ctx', () => {
    const r = readModelfileLaunch(modelfileOf('FROM ./qwen2.5-7b-instruct-q4_k_m.gguf\nPARAMETER num_ctx 65536\n'));
    assert.equal(r.model!.value, './qwen2.5-7b-instruct-q4_k_m.gguf');
    assert.equal(r.length!.value, 65536);
  });

  it('ollama serve with OLLAMA_CONTEXT_LENGTH; ollama run names the model', () => {
    const s = read('OLLAMA_CONTEXT_LENGTH=65536 ollama serve')!;
    assert.equal(s.length!.value, 65536);
    const r = read('ollama run qwen2.5:7b')!;
    assert.equal(r.model!.value, 'qwen2.5:7b');
    assert.equal(read('ollama list'), undefined);
  });
});

describe('launch grammar: details that change what the engine reads', () => {
  it('vLLM: the word after serve is the model even when an unknown boolean flag follows', () => {
    assert.equal(read('vllm serve Qwen/Qwen2.5-7B-Instruct --enforce-eager --max-model-len 4096')!.model!.value, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(read('vllm serve --enforce-eager --model Qwen/Qwen2.5-7B-Instruct')!.model!.value, 'Qwen/Qwen2.5-7B-Instruct');
  });

  it('llama.cpp reads -c 32k as 32 (std::stoi): a warning with the number it reads', () => {
    const r = read('llama-server -m x.gguf -c 32k')!;
    assert.equal(r.length!.value, 32);
    assert.equal(r.problems[0].severity, 'warning');
    assert.match(said(r.problems[0]), /read as 32 tokens/);
  });
});
