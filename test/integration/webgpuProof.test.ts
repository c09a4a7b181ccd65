/**
 * Neighbourhood proofs and validity maps on the WebGPU backend where an adapter exists (Mesa's
 * llvmpipe here and in CI, a GPU where one is lent): the same verdicts, witnesses and L_max as the
 * CPU, across several (L, d). Skipped, with the reason, where there is no adapter.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BoundEngine } from '../../shared/node/engine';
import { logGrid } from '../../shared/bstar/validityMap';

const dist = join(__dirname, '..', '..', 'dist');
const workerScript = join(dist, 'bstarWorker.js');
const built = existsSync(workerScript) && existsSync(join(dist, 'webgpuWorker.js'));

describe('WebGPU neighbourhood proofs and validity maps (llvmpipe here, a GPU where one is lent)', function () {
  this.timeout(300_000);
  let gpu: BoundEngine;
  let cpu: BoundEngine;
  before(async function () {
    if (!built) {
      console.log('      skipped: dist/ not built (node esbuild.mjs)');
      this.skip();
    }
    process.env.EGL_PLATFORM ??= 'surfaceless';
    gpu = new BoundEngine({ workerScript });
    cpu = new BoundEngine({ workerScript });
    const info = await gpu.gpuInfo(128);
    if (!info.available || !info.precise) {
      console.log(`      skipped: ${info.reason}`);
      this.skip();
    }
  });
  after(async () => {
    await gpu?.dispose();
    await cpu?.dispose();
  });

  for (const [L, d, candidates] of [
    [2048, 128, [13000, 26000]],
    [4096, 96, [210000, 260000]],
    [4096, 64, [120000, 1100000]],
    [6000, 128, [66000, 150000]],
  ] as const) {
    it(`L = ${L}, d = ${d}: proofs of ${candidates.join(', ')} give the CPU's verdict and witness`, async () => {
      for (const c of candidates) {
        const g = await gpu.robust(c, d, L, { backend: 'gpu' });
        const r = await cpu.robust(c, d, L, { backend: 'cpu' });
        assert.equal(g.backend, 'gpu', g.backendReason);
        assert.equal(r.backend, 'cpu');
        assert.equal(g.robust, r.robust, `${c}`);
        assert.deepEqual(g.robust ? null : (g.verdict as { witness: unknown }).witness, r.robust ? null : (r.verdict as { witness: unknown }).witness, `${c}`);
      }
    });
    it(`L = ${L}, d = ${d}: a 300-base validity map is the CPU's, base by base`, async () => {
      const bases = logGrid(L, 200 * L, 300);
      const g = await gpu.validityMap(bases, d, L, { backend: 'gpu' });
      const r = await cpu.validityMap(bases, d, L, { backend: 'cpu' });
      assert.equal(g.backend, 'gpu', g.backendReason);
      assert.deepEqual(g.map.lmax, r.map.lmax);
    });
  }

  it("'auto' does not take a software rasterizer for a proof, and says why", async () => {
    const info = await gpu.gpuInfo(128);
    const a = await new BoundEngine({ workerScript }).chooseProofBackend('auto', 128);
    if (info.software) {
      assert.equal(a.backend, 'cpu');
      assert.match(a.reason, /software rasterizer/);
    }
  });
});
