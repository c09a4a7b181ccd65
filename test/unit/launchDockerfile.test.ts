import { strict as assert } from 'node:assert';
import { readDockerfile } from '../../shared/launch/dockerfile';
import { launchFormatOf, readLaunchFile } from '../../shared/launch/index';
import type { ShellParser } from '../../shared/launch/types';
import { after, appendFlag, argvOf, assertExactSpans, envOf, fixture, shellParser } from './helpers/launch';

describe('launch files: Dockerfiles (dockerfile-ast)', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });
  const read = (text: string) => {
    const f = readDockerfile(text, shell);
    assertExactSpans(text, f);
    return f;
  };

  it('multi-stage vLLM: ARG in FROM, ENV both forms, ENTRYPOINT + CMD exec form inherited by the last stage, RUN ignored', () => {
    const text = fixture('Dockerfile.vllm');
    const f = readLaunchFile(text, 'Dockerfile.vllm', { shell })!;
    assertExactSpans(text, f);
    assert.equal(f.invocations.length, 1, 'RUN vllm serve is build time, not a launch');
    const inv = f.invocations[0];
    assert.equal(inv.source, 'dockerfile');
    assert.equal(inv.entrypoint, 'program');
    assert.equal(inv.image?.value, 'vllm/vllm-openai:v0.10.1');
    assert.equal(inv.image?.raw, 'vllm/vllm-openai:${VLLM_VERSION}');
    assert.deepEqual(argvOf(inv).slice(0, 5), ['python3', '-m', 'vllm.entrypoints.openai.api_server', '--model', 'Qwen/Qwen2.5-7B-Instruct']);
    assert.equal(after(inv, '--max-model-len').raw, '"65536"');
    assert.equal(after(inv, '--max-model-len').quote, 'double');
    assert.equal(JSON.parse(after(inv, '--rope-scaling').value).factor, 2);
    assert.deepEqual(envOf(inv), { HF_HOME: '/models', VLLM_ALLOW_LONG_MAX_MODEL_LEN: '1', MAX_MODEL_LEN: '65536' });
    // A new element goes after the last string, keeping the array's one-line-per-pair layout.
    assert.equal(inv.append?.form, 'json-array');
    const edited = appendFlag(text, inv, '"--enforce-eager"');
    assert.match(edited, /original_max_position_embeddings\\":32768}", "--enforce-eager"\]/);
  });

  it("CMD alone under FROM that starts a program: that program (the engine image's entrypoint assumed to exec it), with the FROM image token", () => {
    const text = fixture('Dockerfile.sglang');
    const inv = read(text).invocations[0];
    assert.equal(inv.entrypoint, 'program');
    assert.ok(
      inv.notes.some((n) => /lmsysorg\/sglang:latest is assumed to exec it/.test(n)),
      inv.notes.join('; '),
    );
    assert.equal(inv.image?.value, 'lmsysorg/sglang:latest');
    assert.equal(after(inv, '--model-path').value, 'Qwen/Qwen3-8B');
    assert.deepEqual(envOf(inv), { HF_TOKEN: '' });
  });

  it('shell-form CMD: read as shell, $VARS from ENV, continuation kept for appended flags', () => {
    const text = fixture('Dockerfile.shellform');
    const inv = read(text).invocations[0];
    assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'meta-llama/Llama-3.1-8B-Instruct', '--max-model-len', '32768', '--port', '8000']);
    const len = after(inv, '--max-model-len');
    assert.equal(len.raw, '$CTX');
    assert.equal(len.via?.[0].name, 'CTX');
    assert.equal(inv.append?.separator, ' \\\n    ');
  });

  it('ENTRYPOINT [] clears the base entrypoint; ENTRYPOINT resets an inherited CMD; shell-form ENTRYPOINT ignores CMD', () => {
    const cleared = read('FROM vllm/vllm-openai:latest\nENTRYPOINT []\nCMD ["vllm", "serve", "m"]\n').invocations[0];
    assert.equal(cleared.entrypoint, 'program');
    assert.deepEqual(argvOf(cleared), ['vllm', 'serve', 'm']);
    const reset = read('FROM x AS a\nCMD ["--model", "m"]\nFROM a\nENTRYPOINT ["vllm", "serve"]\n').invocations[0];
    assert.deepEqual(argvOf(reset), ['vllm', 'serve'], 'the inherited CMD is dropped');
    const shellEp = read('FROM x\nENTRYPOINT exec vllm serve m --max-model-len 2048\nCMD ["--ignored"]\n').invocations[0];
    assert.deepEqual(argvOf(shellEp), ['vllm', 'serve', 'm', '--max-model-len', '2048']);
    assert.match(shellEp.notes.join(), /CMD is ignored/);
  });

  it('exec-form ["/bin/bash", "-c", "…"]: the script is read as shell at its spans', () => {
    const text = 'FROM nvidia/cuda:12.1\nENV LEN=4096\nCMD ["/bin/bash", "-c", "pip list && exec vllm serve m --max-model-len $LEN"]\n';
    const inv = read(text).invocations[0];
    assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'm', '--max-model-len', '4096']);
    assert.equal(after(inv, '--max-model-len').raw, '$LEN');
  });

  it("no start command under an engine image: the image runs its own, with this file's ENV", () => {
    const text = 'FROM ollama/ollama:0.9.6\nENV OLLAMA_CONTEXT_LENGTH=16384\n';
    const inv = read(text).invocations[0];
    assert.equal(inv.entrypoint, 'image');
    assert.deepEqual(argvOf(inv), []);
    assert.equal(inv.env.OLLAMA_CONTEXT_LENGTH.value, '16384');
    assert.equal(inv.range.start.line, 0);
  });

  it('without the shell parser a shell-form CMD is split on spaces and says so', () => {
    const f = readDockerfile('FROM x\nCMD vllm serve m --max-model-len 1024\n');
    assert.deepEqual(argvOf(f.invocations[0]), ['vllm', 'serve', 'm', '--max-model-len', '1024']);
    assert.match(f.invocations[0].notes.join(), /without the shell parser/);
  });

  it('a Dockerfile that starts nothing known, or only at build time, is not a launch file', () => {
    assert.equal(readLaunchFile('FROM node:20\nCMD ["node", "server.js"]\n', 'Dockerfile', { shell }), undefined);
    assert.equal(readLaunchFile('FROM python:3.11\nRUN pip install vllm\nCMD ["python", "app.py"]\n', 'Dockerfile', { shell }), undefined);
  });

  it('format by name: Dockerfile, Containerfile, *.Dockerfile, Dockerfile.*, language id', () => {
    for (const n of ['Dockerfile', 'Containerfile', 'api.Dockerfile', 'Dockerfile.gpu', 'docker/dockerfile'])
      assert.equal(launchFormatOf(n, undefined, ''), 'dockerfile', n);
    assert.equal(launchFormatOf('build', 'dockerfile', ''), 'dockerfile');
  });
});
