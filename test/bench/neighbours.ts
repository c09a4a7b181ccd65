/**
 * `rope-lens check config.json` beside hostile neighbours, and deep or huge configs (issue 43),
 * each a fresh CLI process as a user runs it: wall time (min of 3) against the same config
 * checked alone, exit code, and peak memory (the child's maxRSS).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchReport } from './report';

const CLI = join(__dirname, 'cli.js');
const CONFIG = JSON.stringify({
  model_type: 'llama',
  hidden_size: 4096,
  num_attention_heads: 32,
  num_hidden_layers: 32,
  max_position_embeddings: 8192,
  rope_theta: 500000,
});

/** One CLI run: wall ms, exit code, peak RSS in MB (reported by the child itself). */
function runCheck(file: string): { ms: number; code: number; rssMb: number } {
  const script = `process.on('exit',()=>process.stderr.write('\\nMAXRSS '+process.resourceUsage().maxRSS+'\\n'));require(${JSON.stringify(CLI)}).main(['check',${JSON.stringify(file)}]).then(c=>{process.exitCode=c})`;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  const rss = Number(/MAXRSS (\d+)/.exec(r.stderr ?? '')?.[1] ?? 0);
  return { ms, code: r.status ?? -1, rssMb: rss / 1024 };
}

function best(file: string, runs = 3): { ms: number; code: number; rssMb: number } {
  let out = runCheck(file);
  for (let i = 1; i < runs; i++) {
    const r = runCheck(file);
    if (r.ms < out.ms) out = r;
  }
  return out;
}

/** One long lowercase hex word (a hash): a run without `/`, which the old image-reference pattern backtracked on. */
const hexWord = (n: number) => '0123456789abcdef'.repeat(Math.ceil(n / 16)).slice(0, n);

export async function runBench(report: BenchReport): Promise<void> {
  const row = report.section('Neighbours and huge configs: rope-lens check, a fresh process each (min of 3)');
  const root = mkdtempSync(join(tmpdir(), 'rope-lens-neighbours-'));
  try {
    const dir = (name: string, files: Record<string, string>) => {
      const d = join(root, name);
      mkdirSync(d);
      for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text);
      return join(d, 'config.json');
    };
    const alone = best(dir('alone', { 'config.json': CONFIG }));
    row({ name: 'config.json alone', value: `${alone.ms.toFixed(0)} ms`, note: `exit ${alone.code}; ${alone.rssMb.toFixed(0)} MB` });
    const cases: [string, Record<string, string>, number][] = [
      ['beside a script with a 100 KB word', { 'run.sh': `#!/bin/sh\necho ${hexWord(100_000)}\n` }, 1000],
      ['beside a Dockerfile with a 60 KB hex RUN line', { Dockerfile: `FROM ubuntu\nRUN echo ${'0123456789abcdef'.repeat(3750)}\n` }, 1000],
      ['beside a script with a 1 MB word', { 'run.sh': `#!/bin/sh\necho ${hexWord(1_000_000)}\n` }, 3000],
    ];
    for (const [label, files, budget] of cases) {
      const r = best(dir(label.replace(/\W+/g, '-'), { 'config.json': CONFIG, ...files }));
      row({ name: label, value: `+${Math.max(0, r.ms - alone.ms).toFixed(0)} ms`, note: `${r.ms.toFixed(0)} ms in all; budget +${budget} ms` });
    }
    const n = 100_000;
    const deep = `{"rope_theta": 10000, "a": ${'{"a": '.repeat(n)}1${'}'.repeat(n)}}`;
    const d = best(dir('deep', { 'config.json': deep }), 1);
    row({ name: 'config.json nested 100,000 levels', value: `exit ${d.code}`, note: `${d.ms.toFixed(0)} ms; parse/invalid-json expected (exit 1)` });
    const labels: string[] = [];
    let size = 0;
    for (let i = 0; size < 30 * 1024 * 1024; i++) {
      const entry = `"${i}": "LABEL_${i}_${'x'.repeat(20)}"`;
      labels.push(entry);
      size += entry.length + 2;
    }
    const huge = `${CONFIG.slice(0, -1)}, "id2label": {${labels.join(', ')}}}`;
    const h = best(dir('huge', { 'config.json': huge }), 2);
    row({
      name: `config.json of ${(huge.length / 1024 / 1024).toFixed(0)} MB`,
      value: `${h.ms.toFixed(0)} ms`,
      note: `exit ${h.code}; peak ${h.rssMb.toFixed(0)} MB; budget 2,000 ms within 600 MB`,
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
