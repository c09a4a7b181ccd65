/**
 * Issue 27, document layer: a container command that starts a known program is that program
 * whatever the base image; launch files are found by what they contain, not only by exact names.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchFormatOf, mayBeLaunchFileName, readLaunchFile } from '../../shared/launch/index';
import type { Invocation, ShellParser } from '../../shared/launch/types';
import { argvOf, assertExactSpans, shellParser } from './helpers/launch';

describe('launch files: any base image, any file name (issue 27)', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });
  const one = (text: string, name: string): Invocation => {
    const f = readLaunchFile(text, name, { shell });
    assert.ok(f, `${name}: no launch read`);
    assertExactSpans(text, f);
    assert.equal(f.invocations.length, 1, `${name}: ${f.invocations.length} invocations`);
    return f.invocations[0];
  };

  describe('Dockerfile', () => {
    it("FROM ubuntu + shell-form CMD llama-server: the program, not the image's arguments", () => {
      const text = 'FROM ubuntu:22.04\nRUN apt-get update\nCMD llama-server -hf Qwen/Qwen2.5-7B-Instruct-GGUF -c 131072 --rope-scale 2\n';
      const inv = one(text, 'Dockerfile');
      assert.equal(inv.entrypoint, 'program');
      assert.deepEqual(argvOf(inv), ['llama-server', '-hf', 'Qwen/Qwen2.5-7B-Instruct-GGUF', '-c', '131072', '--rope-scale', '2']);
      assert.equal(inv.image?.value, 'ubuntu:22.04');
    });

    it('FROM python:3.11 + CMD vllm serve, shell and exec form, with no note (a plain image has no entrypoint of its own)', () => {
      for (const cmd of [
        'CMD vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 65536',
        'CMD ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "65536"]',
      ]) {
        const inv = one(`FROM python:3.11-slim\nRUN pip install vllm\n${cmd}\n`, 'Dockerfile');
        assert.equal(inv.entrypoint, 'program', cmd);
        assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'Qwen/Qwen2.5-7B-Instruct', '--max-model-len', '65536'], cmd);
        assert.deepEqual(inv.notes, [], cmd);
      }
    });

    it('nvidia/cuda + exec-form python -m vllm.entrypoints.openai.api_server', () => {
      const inv = one(
        'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCMD ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m", "--max-model-len", "8192"]\n',
        'Dockerfile.vllm',
      );
      assert.equal(inv.entrypoint, 'program');
      assert.equal(argvOf(inv)[2], 'vllm.entrypoints.openai.api_server');
    });

    it('shell-form CMD llama-server … & other-program: the launch in the background is read', () => {
      const text = 'FROM ubuntu:22.04\nCMD llama-server -m /models/qwen.gguf -c 32768 --port 8080 & python3 app.py\n';
      const inv = one(text, 'Dockerfile');
      assert.deepEqual(argvOf(inv), ['llama-server', '-m', '/models/qwen.gguf', '-c', '32768', '--port', '8080']);
      const chained = one('FROM ubuntu:22.04\nCMD ["sh", "-c", "cd /app && llama-server -m /m.gguf -c 4096"]\n', 'Dockerfile');
      assert.deepEqual(argvOf(chained), ['llama-server', '-m', '/m.gguf', '-c', '4096']);
      assert.equal(chained.entrypoint, 'program');
    });

    it('an ENTRYPOINT of a known program takes CMD as its arguments', () => {
      const inv = one('FROM python:3.11\nENTRYPOINT ["vllm", "serve"]\nCMD ["Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "65536"]\n', 'Dockerfile');
      assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'Qwen/Qwen2.5-7B-Instruct', '--max-model-len', '65536']);
      assert.deepEqual(inv.notes, []);
    });

    it('an unknown ENTRYPOINT with a CMD that starts a launch program: the CMD is read, with the assumption said', () => {
      const inv = one(
        'FROM python:3.11\nCOPY entrypoint.sh /\nENTRYPOINT ["/entrypoint.sh"]\nCMD ["vllm", "serve", "m", "--max-model-len", "4096"]\n',
        'Dockerfile',
      );
      assert.equal(inv.entrypoint, 'program');
      assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'm', '--max-model-len', '4096']);
      assert.match(inv.notes.join('\n'), /ENTRYPOINT \/entrypoint\.sh is assumed to exec its CMD/);
    });

    it('tini as ENTRYPOINT is peeled: the program is what it runs', () => {
      const inv = one('FROM ubuntu:22.04\nENTRYPOINT ["/usr/bin/tini", "--"]\nCMD ["llama-server", "-m", "/m.gguf", "-c", "8192"]\n', 'Dockerfile');
      assert.deepEqual(argvOf(inv), ['llama-server', '-m', '/m.gguf', '-c', '8192']);
    });

    it("an engine image's CMD that is only arguments stays the image's arguments", () => {
      const inv = one('FROM vllm/vllm-openai:v0.10.1\nCMD ["--model", "m", "--max-model-len", "4096"]\n', 'Dockerfile');
      assert.equal(inv.entrypoint, 'image');
    });

    it('a Dockerfile that starts no known program is not a launch', () => {
      assert.equal(readLaunchFile('FROM node:20\nCMD ["node", "server.js"]\n', 'Dockerfile', { shell }), undefined);
      assert.equal(readLaunchFile('FROM ubuntu:22.04\nCMD ./run-tests.sh\n', 'Dockerfile', { shell }), undefined);
    });
  });

  describe('compose', () => {
    it('command: vllm serve … on a custom image (build:) is the program', () => {
      const text = 'services:\n  api:\n    build: .\n    command: vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 65536\n';
      const inv = one(text, 'docker-compose.yml');
      assert.equal(inv.entrypoint, 'program');
      assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'Qwen/Qwen2.5-7B-Instruct', '--max-model-len', '65536']);
    });

    it('command list on an image named for nothing known, and an unknown entrypoint with a launching command', () => {
      const list = one(
        'services:\n  llm:\n    image: ghcr.io/acme/inference:1.2\n    command: ["llama-server", "-m", "/m.gguf", "-c", "16384"]\n',
        'compose.yaml',
      );
      assert.equal(list.entrypoint, 'program');
      assert.equal(argvOf(list)[0], 'llama-server');
      const wrapped = one(
        'services:\n  llm:\n    image: acme/runner\n    entrypoint: /docker-entrypoint.sh\n    command: vllm serve m --max-model-len 4096\n',
        'compose.override.yaml',
      );
      assert.deepEqual(argvOf(wrapped), ['vllm', 'serve', 'm', '--max-model-len', '4096']);
      assert.match(wrapped.notes.join('\n'), /entrypoint \/docker-entrypoint\.sh is assumed to exec the command/);
    });

    it("an engine image's command of arguments stays the image's arguments", () => {
      const inv = one('services:\n  v:\n    image: vllm/vllm-openai:latest\n    command: --model m --max-model-len 4096\n', 'docker-compose.gpu.yml');
      assert.equal(inv.entrypoint, 'image');
    });
  });

  describe('KubeAI Model resources', () => {
    const wild = (n: string) => readFileSync(join(__dirname, '..', 'fixtures', 'launch', 'wild', 'substratusai__kubeai', n), 'utf8');
    it("engine VLLM: the command KubeAI's controller runs, spec.args exact, the words it supplies not editable", () => {
      const text = wild('llama-4-maverick-430k-h100.yaml');
      const f = readLaunchFile(text, 'k8s/llama-4-maverick-430k-h100.yaml', { shell })!;
      assert.equal(f.format, 'kubernetes');
      const inv = f.invocations[0];
      assert.deepEqual(argvOf(inv).slice(0, 5), [
        'python3',
        '-m',
        'vllm.entrypoints.openai.api_server',
        '--model',
        'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8',
      ]);
      assert.equal(inv.argv[0].raw, 'VLLM');
      assert.ok(inv.argv[0].from, 'a supplied word is marked');
      assert.equal(inv.argv[4].raw, 'hf://meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', 'the model sits on spec.url');
      const len = inv.argv.find((t) => t.value === '--max-model-len=430000')!;
      assert.equal(len.raw, '--max-model-len=430000');
      assert.equal(len.from, undefined);
      assert.equal(inv.env.VLLM_DISABLE_COMPILE_CACHE.value, '1');
      assert.equal(inv.append?.form, 'yaml-list');
    });
    it('engine OLlama: ollama run <ref>', () => {
      const inv = readLaunchFile(wild('gemma-3-27b-ollama-l4.yaml'), 'gemma.yaml', { shell })!.invocations[0];
      assert.deepEqual(argvOf(inv), ['ollama', 'run', 'gemma3:27b']);
    });
  });

  describe('environment variable names', () => {
    it('each environment value knows where its name is written (shell prefix and export, Dockerfile ENV, compose map and list, Kubernetes)', () => {
      const nameOf = (text: string, name: string, inv: Invocation) => {
        const at = inv.env[name]?.nameAt;
        assert.ok(at, `${name}: no nameAt`);
        return text.slice(at.offset, at.offset + at.length);
      };
      const sh = 'export OLLAMA_CONTEXT_LENGTH=8192\nOLLAMA_MAX_CTX=32768 ollama serve\n';
      const a = one(sh, 'a.sh');
      assert.equal(nameOf(sh, 'OLLAMA_MAX_CTX', a), 'OLLAMA_MAX_CTX');
      assert.equal(nameOf(sh, 'OLLAMA_CONTEXT_LENGTH', a), 'OLLAMA_CONTEXT_LENGTH');
      const df = 'FROM ollama/ollama\nENV OLLAMA_MAX_CTX=32768\n';
      assert.equal(nameOf(df, 'OLLAMA_MAX_CTX', one(df, 'Dockerfile')), 'OLLAMA_MAX_CTX');
      const cm = 'services:\n  o:\n    image: ollama/ollama\n    environment:\n      OLLAMA_MAX_CTX: "32768"\n';
      assert.equal(nameOf(cm, 'OLLAMA_MAX_CTX', one(cm, 'compose.yaml')), 'OLLAMA_MAX_CTX');
      const cl = 'services:\n  o:\n    image: ollama/ollama\n    environment:\n      - OLLAMA_MAX_CTX=32768\n';
      assert.equal(nameOf(cl, 'OLLAMA_MAX_CTX', one(cl, 'compose.yaml')), 'OLLAMA_MAX_CTX');
      const k8s =
        'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: o\n    image: ollama/ollama\n    env:\n    - name: OLLAMA_MAX_CTX\n      value: "32768"\n';
      assert.equal(nameOf(k8s, 'OLLAMA_MAX_CTX', one(k8s, 'pod.yaml')), 'OLLAMA_MAX_CTX');
      const envw = 'env OLLAMA_MAX_CTX=32768 ollama serve\n';
      assert.equal(nameOf(envw, 'OLLAMA_MAX_CTX', one(envw, 'b.sh')), 'OLLAMA_MAX_CTX');
    });
  });

  describe('file names: read by content', () => {
    const dockerText = 'FROM ubuntu:22.04\nCMD llama-server -m /m.gguf -c 8192\n';
    it('any *Dockerfile* / *.dockerfile name with a FROM line is a Dockerfile; documents about one are not', () => {
      for (const n of ['serve-llama.Dockerfile', 'Dockerfile.vllm', 'x-Dockerfile', 'Dockerfile-gpu', 'docker/Containerfile.cuda', 'gpu.dockerfile']) {
        assert.equal(launchFormatOf(n, undefined, dockerText), 'dockerfile', n);
        assert.ok(mayBeLaunchFileName(n), n);
      }
      assert.equal(launchFormatOf('x-Dockerfile', undefined, 'just notes\n'), undefined, 'no FROM line: not a Dockerfile');
      for (const n of ['Dockerfile.md', 'dockerfile-notes.txt', 'build_dockerfile.py']) {
        assert.equal(launchFormatOf(n, undefined, dockerText), undefined, n);
        assert.ok(!mayBeLaunchFileName(n), n);
      }
    });

    it('compose by name and a top-level services:, Kubernetes by apiVersion + a workload kind (KubeAI Model included), Modelfile variants', () => {
      const compose = 'services:\n  a:\n    image: vllm/vllm-openai\n';
      for (const n of ['docker-compose.gpu.yml', 'compose.override.yaml', 'deploy/prod.docker-compose.yaml', 'my-compose.yml'])
        assert.equal(launchFormatOf(n, undefined, compose), 'compose', n);
      assert.equal(launchFormatOf('compose-notes.yml', undefined, 'title: x\n'), undefined);
      assert.equal(launchFormatOf('k8s/vllm.yaml', undefined, 'apiVersion: apps/v1\nkind: Deployment\n'), 'kubernetes');
      assert.equal(launchFormatOf('k8s/model.yaml', undefined, 'apiVersion: kubeai.org/v1\nkind: Model\n'), 'kubernetes');
      for (const n of ['Modelfile.qwen-32k', 'Modelfile-llama', 'modelfile_v2']) {
        assert.equal(launchFormatOf(n, undefined, 'FROM qwen2.5:7b\nPARAMETER num_ctx 32768\n'), 'modelfile', n);
        assert.ok(mayBeLaunchFileName(n), n);
      }
      for (const n of ['run.zsh', 'serve.bash', 'a.sh']) {
        assert.equal(launchFormatOf(n, undefined, ''), 'shell', n);
        assert.ok(mayBeLaunchFileName(n), n);
      }
      for (const n of ['values.yaml', 'package.json', 'Makefile', 'README.md']) assert.ok(!mayBeLaunchFileName(n), n);
    });

    it("the pre-commit hook's files: pattern covers the same launch files, and JSON/YAML", () => {
      const hooks = readFileSync(join(__dirname, '..', '..', '.pre-commit-hooks.yaml'), 'utf8');
      const files = /^\s*files:\s*(.+)$/m.exec(hooks)?.[1].trim();
      assert.ok(files, 'a files: pattern');
      const re = new RegExp(files!); // pre-commit matches with Python's re.search; this pattern is the same in JS
      for (const p of [
        'serve.sh',
        'scripts/run.bash',
        'a.zsh',
        'Dockerfile',
        'docker/Dockerfile.vllm',
        'serve-llama.Dockerfile',
        'x-Dockerfile',
        'Containerfile',
        'Modelfile',
        'ollama/Modelfile.qwen',
        'qwen.modelfile',
        'docker-compose.gpu.yml',
        'k8s/deploy.yaml',
        'config.json',
      ]) {
        assert.ok(re.test(p), `hook skips ${p}`);
      }
      for (const p of ['README.md', 'src/index.ts', 'Makefile']) assert.ok(!re.test(p), `hook runs on ${p}`);
    });
  });
});
