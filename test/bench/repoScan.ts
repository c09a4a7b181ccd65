/**
 * The repository scan: `rope-lens check <folder>` over 10,000 files — 2,000 each of JSON, YAML
 * (CI workflows, Kubernetes manifests, Helm-like values), shell scripts, Dockerfiles under varied
 * names (`Dockerfile`, `api.Dockerfile`, `Dockerfile.gpu`, `x-Dockerfile`) and compose files
 * (`docker-compose.yml`, `compose.override.yaml`, `docker-compose.gpu.yml`) — one in twenty of
 * the launch files starting an engine, one in twenty JSON files a model's config.json. Every file is a candidate and goes through the sniff
 * (launchFormatOf, then the launch-word test or the config sniff); only the launching ones are
 * parsed. The folder walk, reads, analysis and the JSON report are all in the time, as a user
 * running the CLI waits for them. Budget: 1.5 s.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { run } from '../../server/cli/check';
import type { BenchReport } from './report';

const PER_KIND = 2000;
const LAUNCH_EVERY = 20;

const pad = (i: number) => String(i).padStart(5, '0');

function json(i: number): [string, string] {
  // One in twenty is a model's config.json (read and judged); the rest are what repositories hold.
  switch (i % LAUNCH_EVERY === 3 ? 3 : i % 3) {
    case 0:
      return [
        'package.json',
        JSON.stringify(
          { name: `pkg-${i}`, version: '1.0.0', scripts: { build: 'tsc', test: 'mocha' }, dependencies: { express: '^4.19.2', zod: '^3.23.0' } },
          null,
          2,
        ),
      ];
    case 1:
      return [
        'tsconfig.json',
        JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, outDir: 'dist' }, include: ['src'] }, null, 2),
      ];
    case 2:
      return [`data-${i}.json`, JSON.stringify({ items: Array.from({ length: 40 }, (_, k) => ({ id: k, label: `item ${k}`, score: k / 7 })) })];
    default:
      return [
        'config.json',
        JSON.stringify(
          {
            architectures: ['LlamaForCausalLM'],
            model_type: 'llama',
            hidden_size: 4096,
            num_attention_heads: 32,
            num_hidden_layers: 32,
            max_position_embeddings: 8192,
            rope_theta: 500000.0,
            vocab_size: 128256,
          },
          null,
          2,
        ),
      ];
  }
}

function yaml(i: number): [string, string] {
  switch (i % 3) {
    case 0:
      return [
        'ci.yml',
        `name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test\n`,
      ];
    case 1: {
      const launch = i % LAUNCH_EVERY === 1;
      const container = launch
        ? `      - name: vllm\n        image: vllm/vllm-openai:v0.10.1\n        args: ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "32768"]\n`
        : `      - name: web\n        image: nginx:1.27\n        ports:\n        - containerPort: 80\n`;
      return [
        'deployment.yaml',
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-${i}\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: app-${i}\n  template:\n    metadata:\n      labels:\n        app: app-${i}\n    spec:\n      containers:\n${container}`,
      ];
    }
    default:
      return [
        'values.yaml',
        `replicaCount: 1\nimage:\n  repository: ghcr.io/acme/app\n  tag: "1.4.2"\nservice:\n  type: ClusterIP\n  port: 80\nresources: {}\n`,
      ];
  }
}

function shell(i: number): [string, string] {
  const launch = i % LAUNCH_EVERY === 0;
  const body = launch
    ? `MODEL=Qwen/Qwen2.5-7B-Instruct\nLEN=32768\nvllm serve "$MODEL" \\\n  --max-model-len "$LEN" \\\n  --port 8000\n`
    : `cd "$(dirname "$0")/.."\nnpm ci\nnpm run build\nfor f in dist/*.js; do\n  echo "built $f"\ndone\ndocker build -t acme/app:latest .\n`;
  return [['build.sh', 'deploy.bash', 'dev.zsh'][i % 3], `#!/usr/bin/env bash\nset -euo pipefail\n# step ${i}\n${body}`];
}

function dockerfile(i: number): [string, string] {
  const launch = i % LAUNCH_EVERY === 0;
  const name = ['Dockerfile', 'api.Dockerfile', 'Dockerfile.gpu', 'x-Dockerfile'][i % 4];
  const body = launch
    ? `FROM python:3.11-slim\nRUN pip install vllm\nCMD ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "32768"]\n`
    : `FROM node:20-alpine\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci --omit=dev\nCOPY . .\nEXPOSE 3000\nCMD ["node", "server.js"]\n`;
  return [name, body];
}

function compose(i: number): [string, string] {
  const launch = i % LAUNCH_EVERY === 0;
  const name = ['docker-compose.yml', 'compose.override.yaml', 'docker-compose.gpu.yml'][i % 3];
  const svc = launch
    ? `  llm:\n    build: .\n    command: vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768\n`
    : `  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: example\n  web:\n    image: acme/web:1.0\n    ports:\n      - "8080:80"\n`;
  return [name, `services:\n${svc}`];
}

/** Writes the repository; returns its root and how many files start an engine. */
export function makeRepository(): { root: string; launching: number } {
  const root = mkdtempSync(join(tmpdir(), 'rope-lens-scan-'));
  let launching = 0;
  const kinds: [string, (i: number) => [string, string]][] = [
    ['json', json],
    ['yaml', yaml],
    ['shell', shell],
    ['docker', dockerfile],
    ['compose', compose],
  ];
  // 2,000 project folders, each with one file of every kind (as a monorepo of small services).
  for (let i = 0; i < PER_KIND; i++) {
    const dir = join(root, `svc${pad(i)}`);
    mkdirSync(dir, { recursive: true });
    for (const [, make] of kinds) {
      const [name, text] = make(i);
      writeFileSync(join(dir, name), text);
      if (/vllm[", ]+serve|vllm-openai/.test(text)) launching++;
    }
  }
  return { root, launching };
}

export async function runBench(report: BenchReport): Promise<void> {
  const row = report.section('Repository scan: rope-lens check <folder> (10,000 files, in process)');
  const { root, launching } = makeRepository();
  try {
    const times: number[] = [];
    const cpu: number[] = [];
    let files = 0;
    let launches = 0;
    for (let k = 0; k < 3; k++) {
      let out = '';
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await run([root, '--json', '--fail-on', 'never'], {
        out: (s) => {
          out += s;
        },
        err: () => undefined,
      });
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      const r = JSON.parse(out) as { files: { kind: string; launches?: unknown[] }[] };
      files = r.files.length;
      launches = r.files.filter((f) => f.kind === 'launch').length;
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const ms = times[1];
    if (files !== 5 * PER_KIND) throw new Error(`repository scan: ${files} files reported, expected ${5 * PER_KIND}`);
    if (launches !== launching) throw new Error(`repository scan: ${launches} launch files reported, ${launching} written`);
    row({
      name: `${files.toLocaleString('en-US')} files, ${launches} launching`,
      value: `${ms.toFixed(0)} ms`,
      note: `median of 3 (min ${times[0].toFixed(0)}, max ${times[2].toFixed(0)}); CPU ${cpu[1].toFixed(0)} ms; budget 1,500 ms`,
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
