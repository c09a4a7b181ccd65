/**
 * `npm run table:proven [-- --budget-s N --max-length L --dims 128,64 --task-limit-s N --gpu]`:
 * extends shared/bstar/table/proven.json (resumable; see shared/node/provenTableGen.ts). On one
 * thread: run it under `nice` on a shared machine. --gpu proves through the WebGPU screen where a
 * device is present (build first: `node esbuild.mjs`).
 */
import { join } from 'node:path';
import { CPU_PROVER, type TableProver, generateTable } from '../../shared/node/provenTableGen';
import { TABLE_DIMS } from '../../shared/bstar/table/dims';
import { PROOF_CODE_VERSION } from '../../shared/bstar/table/codeVersion';
import { proofSourcesHash } from '../../shared/node/proofSources';

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

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
