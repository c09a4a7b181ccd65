/**
 * `npm run table:proven [-- --budget-s N --max-length L --dims 128,64 --task-limit-s N --gpu]`:
 * extends shared/bstar/table/proven.json (resumable; see shared/node/provenTableGen.ts). On one
 * thread: run it under `nice` on a shared machine. --gpu proves through the WebGPU screen where a
 * device is present (build first: `node esbuild.mjs`).
 *
 * `npm run table:proven -- --merge rows.jsonl [--reprove N] [--seed S]`: takes in rows proven
 * elsewhere (the device job, test/device/table.ts), each fact checked (shared/node/provenTableMerge.ts),
 * then re-proves N random new rows here in float64 (default 2: the robust base's whole ±10% proven
 * again, and the round base below it shown not robust) before writing the table. Build first
 * (`node esbuild.mjs`): the re-proofs use every core through dist/proofWorker.js.
 */
import { join } from 'node:path';
import { CPU_PROVER, type TableProver, generateTable } from '../../shared/node/provenTableGen';
import { TABLE_DIMS } from '../../shared/bstar/table/dims';
import { PROOF_CODE_VERSION } from '../../shared/bstar/table/codeVersion';
import { proofSourcesHash } from '../../shared/node/proofSources';
import { readFileSync } from 'node:fs';
import { readTable, writeTable } from '../../shared/node/provenTableGen';
import { mergeRows, readRowLines } from '../../shared/node/provenTableMerge';
import { parallelProver } from '../../shared/node/parallelProof';
import { nextNice } from '../../shared/fixes/chooseBase';

const ROOT = join(__dirname, '..', '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function gpuProver(): Promise<{ prover: TableProver; close(): Promise<void> }> {
  const { BoundEngine } = await import('../../shared/node/engine');
  const engine = new BoundEngine({ workerScript: join(ROOT, 'dist', 'bstarWorker.js') });
  return {
    prover: {
      backend: 'webgpu-screen+cpu-float64',
      prove: async (c, d, L) => {
        const r = await engine.robust(c, d, L, { backend: 'gpu' });
        const v = r.verdict;
        return v.robust ? { robust: true } : { robust: false, witness: v.witness, undecided: v.undecided };
      },
    },
    close: () => engine.dispose(),
  };
}

async function main(): Promise<void> {
  const hash = proofSourcesHash(ROOT);
  if (hash !== PROOF_CODE_VERSION) {
    throw new Error(`the proof sources changed: set PROOF_CODE_VERSION to '${hash}' in shared/bstar/table/codeVersion.ts first`);
  }
  const num = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
  const merge = arg('merge');
  if (merge) return mergeFile(merge, num('reprove') ?? 2, num('seed') ?? Date.now() % 1e9);
  const dims = arg('dims')?.split(',').map(Number) ?? TABLE_DIMS;
  const gpu = process.argv.includes('--gpu') ? await gpuProver() : undefined;
  const t0 = Date.now();
  const r = await generateTable({
    file: join(ROOT, 'shared', 'bstar', 'table', 'proven.json'),
    dims,
    maxLength: num('max-length'),
    maxThresholdLength: num('max-threshold-length'),
    budgetS: num('budget-s'),
    taskLimitS: num('task-limit-s'),
    prover: gpu?.prover ?? CPU_PROVER,
    log: (line) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}`),
  });
  await gpu?.close();
  console.log(`done ${r.done}; gave up ${r.gaveUp.length}; left for a later run ${r.left.length}`);
}

async function mergeFile(path: string, reprove: number, seed: number): Promise<void> {
  const file = join(ROOT, 'shared', 'bstar', 'table', 'proven.json');
  const table = readTable(file);
  const { rows, unreadable } = readRowLines(readFileSync(path, 'utf8'));
  const report = mergeRows(table, rows, PROOF_CODE_VERSION);
  console.log(
    `${rows.length} rows read (${unreadable} unreadable lines); ${report.added.length} facts added, ${report.same.length} already held, ${report.rejected.length} refused`,
  );
  for (const r of report.rejected) console.log(`  refused ${r.at}: ${r.reason}`);
  const fresh = [...new Set(report.added.filter((a) => a.endsWith(' robust')).map((a) => a.split(' ')[0]))];
  // A seeded shuffle (mulberry32): the sample can be replayed with --seed.
  let st = seed >>> 0;
  const rand = () => {
    st = (st + 0x6d2b79f5) >>> 0;
    let t = st;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const sample = fresh
    .map((at) => ({ at, k: rand() }))
    .sort((a, b) => a.k - b.k)
    .slice(0, reprove)
    .map((x) => x.at);
  console.log(`re-proving ${sample.length} of ${fresh.length} new robust bases here (seed ${seed}): ${sample.join(', ')}`);
  const prove = parallelProver({ minLength: 0, script: join(ROOT, 'dist', 'proofWorker.js') });
  for (const at of sample) {
    const [L, d] = at.split('/').map(Number);
    const row = table.rows.find((r) => r.length === L && r.dim === d)!;
    const c = row.robust!.base;
    const t0 = Date.now();
    const v = prove(c, d, L);
    if (!v.robust) throw new Error(`${at}: the robust base ${c} is not robust here (${JSON.stringify(v.witness)}); nothing written`);
    const below = c - (nextNice(c) - c);
    const vb = row.bstar && 0.9 * below > row.bstar.value ? prove(below, d, L) : undefined;
    if (vb?.robust) throw new Error(`${at}: the round base below, ${below}, is robust too; nothing written`);
    console.log(`  ${at}: ${c} robust, ${below} ${vb ? 'not robust' : 'reaches below b*'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  writeTable(file, table);
  console.log(`written ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
