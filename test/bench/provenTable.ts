/**
 * The proven table and the persistent proof cache (issue 42), end to end through the built CLI
 * (dist/cli.js beside this bundle): `plan` for Llama-3-8B at 262,144 and 1,048,576 tokens and `check`
 * on a from-scratch GPT-NeoX YAML at 262,144, each with an empty proof cache (cold) and again (warm),
 * plus the table lookup itself and what the table covers. Targets (2-vCPU machine): plan 262,144 ≤ 1.5 s,
 * plan 1,048,576 ≤ 3 s, check ≤ 2 s. Wall time depends on the machine's load: the load average is
 * printed with each row.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchReport } from './report';
import { tableRobustBase, tableRows } from '../../shared/bstar/table/provenTable';
import { TABLE_DIMS } from '../../shared/bstar/table/dims';

const NEOX = [
  '# GPT-NeoX pretraining config: the base is chosen here, before training',
  'max_position_embeddings: 262144',
  'seq_length: 262144',
  'rotary_pct: 1.0',
  'rotary_emb_base: 10000',
  'hidden_size: 2048',
  'num_attention_heads: 32',
  'num_layers: 24',
  'pos_emb: rotary',
  '',
].join('\n');

function timedCli(args: string[], cache: string): { wall: number; ok: boolean } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(__dirname, 'cli.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ROPE_LENS_PROOF_CACHE: cache },
  });
  return { wall: (performance.now() - t0) / 1000, ok: r.status === 0 };
}

export async function runBench(report: BenchReport): Promise<void> {
  const row = report.section('proven table + proof cache: end to end (built CLI)');
  const tmp = mkdtempSync(join(tmpdir(), 'rope-lens-bench-table-'));
  try {
    const yml = join(tmp, 'neox.yml');
    writeFileSync(yml, NEOX);
    const cases: [string, string[], number][] = [
      ['plan Llama-3-8B → 262,144', ['plan', '--model', 'meta-llama/Meta-Llama-3-8B', '--target', '262144'], 1.5],
      ['plan Llama-3-8B → 1,048,576', ['plan', '--model', 'meta-llama/Meta-Llama-3-8B', '--target', '1048576'], 3],
      ['check GPT-NeoX YAML at 262,144', ['check', '--format', 'json', yml], 2],
    ];
    for (const [i, [name, args, target]] of cases.entries()) {
      const cache = join(tmp, `proofs-${i}.json`);
      for (const when of ['cold', 'warm']) {
        const load = loadavg()[0];
        const t = timedCli(args, cache);
        row({
          name: `${name} (${when} cache)`,
          value: `${t.wall.toFixed(2)} s`,
          note: `${t.ok ? '' : 'FAILED; '}target ≤ ${target} s ${t.wall <= target ? 'met' : 'MISSED'}; load average ${load.toFixed(1)}`,
        });
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const n = 100000;
  const t0 = performance.now();
  let s = 0;
  for (let k = 0; k < n; k++) s += tableRobustBase(1024 + (k % 1000) * 997, 128)?.value ?? 0;
  const us = ((performance.now() - t0) * 1000) / n;
  row({ name: 'table lookup (robust base, any length)', value: `${us.toFixed(2)} µs`, note: `checksum ${s.toExponential(3)}` });
  const rows = tableRows();
  for (const d of TABLE_DIMS) {
    const top = Math.max(0, ...rows.filter((r) => r.dim === d && r.robust).map((r) => r.length));
    const th = Math.max(0, ...rows.filter((r) => r.dim === d && r.threshold?.located).map((r) => r.length));
    row({ name: `table coverage, d = ${d}`, value: top ? `to ${top}` : 'none', note: `thresholds located to ${th || 'none'}` });
  }
}
