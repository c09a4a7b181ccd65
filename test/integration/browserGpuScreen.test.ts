/**
 * The browser's GPU path (server/web/browserGpu.ts → shared/gpu/deviceScreen.ts → the replayed proof)
 * run against a real WebGPU device: Dawn in Node (the optional `webgpu` package; Mesa's llvmpipe here
 * and in CI), handed to the browser's code as `navigator.gpu` would hand it a device. Neighbourhood
 * verdicts and validity maps must be the CPU's exactly. Skipped, with the reason, without an adapter
 * or where the calibration finds the driver outside the proven ε.
 */
import { strict as assert } from 'node:assert';
import { openWebGpu } from '../../shared/node/webgpuLoad';
import { webgpuDisabled } from '../../shared/node/adapterProbe';
import { type BrowserGpu, type GpuLike, openBrowserGpu, screenFor } from '../../server/web/browserGpu';
import { type BoundJob, runBoundJob, runBoundJobWithGpu } from '../../server/web/boundJobs';
import { runWithAsyncScreen } from '../../shared/bstar/asyncScreen';
import { logGrid, validityMap } from '../../shared/bstar/validityMap';
import { type NeighbourhoodVerdict, proveNeighbourhood } from '../../shared/bstar/neighbourhood';

describe("the browser's GPU screen on a real WebGPU device (Dawn in Node)", function () {
  this.timeout(300_000);
  let gpu: BrowserGpu;
  before(async function () {
    if (webgpuDisabled()) {
      console.log('      skipped: WebGPU disabled by ROPE_LENS_WEBGPU=0');
      this.skip();
    }
    process.env.EGL_PLATFORM ??= 'surfaceless';
    const h = await openWebGpu();
    if (!h.device || !h.info) {
      console.log(`      skipped: ${h.reason}`);
      this.skip();
    }
    const { device, info } = h as { device: NonNullable<typeof h.device>; info: NonNullable<typeof h.info> };
    // Dawn's device, offered the way a browser's navigator.gpu offers one.
    const dawnAsNavigator: GpuLike = { requestAdapter: async () => ({ info, isFallbackAdapter: false, requestDevice: async () => device }) };
    gpu = await openBrowserGpu(dawnAsNavigator);
    assert.ok(gpu.screen, gpu.reason);
    const chosen = await screenFor(gpu, 'gpu', 128);
    if ('reason' in chosen) {
      console.log(`      skipped: ${chosen.reason}`);
      this.skip();
    }
  });

  for (const [L, d, candidates] of [
    [2048, 128, [13000, 26000]],
    [4096, 96, [210000, 260000]],
    [6000, 128, [66000, 150000]],
  ] as const) {
    it(`L = ${L}, d = ${d}: the worker's robust jobs for ${candidates.join(', ')} answer as the CPU's, screened on the device`, async () => {
      for (const candidate of candidates) {
        const job: BoundJob = { kind: 'robust', candidate, headDim: d, length: L, backend: 'gpu' };
        const lines: string[] = [];
        const before = gpu.screen!.basesScreened;
        const onGpu = await runBoundJobWithGpu(
          job,
          { aborted: false },
          async () => gpu,
          (line) => lines.push(line),
        );
        const onCpu = runBoundJob({ ...job, backend: 'cpu' }, { aborted: false });
        assert.equal(onGpu, onCpu, `${candidate}`);
        assert.ok(gpu.screen!.basesScreened > before, `${candidate}: nothing was screened (${lines.join('; ')})`);
        assert.match(lines.join('\n'), /screened on the browser's GPU/);
      }
    });
  }

  it('L = 4096, d = 128: the proof through the device keeps the CPU witness and does less float64 work', async () => {
    const chosen = await screenFor(gpu, 'gpu', 128);
    assert.ok('screen' in chosen);
    for (const c of [54000, 66000]) {
      const cpu = proveNeighbourhood(c, 128, 4096);
      const screened: NeighbourhoodVerdict = await runWithAsyncScreen(
        (screen) => proveNeighbourhood(c, 128, 4096, { screen }),
        (bases, d, L, block) => chosen.screen.lowerBounds(bases, d, L, block, chosen.eps),
      );
      assert.equal(screened.stats.screened, true);
      assert.equal(screened.robust, cpu.robust, `${c}`);
      if (!screened.robust && !cpu.robust) assert.deepEqual(screened.witness, cpu.witness, `${c}`);
      assert.ok(screened.stats.exactBlocks <= cpu.stats.exactBlocks);
    }
  });

  it('a 300-base validity map through the device is the CPU map, base by base', async () => {
    const chosen = await screenFor(gpu, 'gpu', 64);
    if ('reason' in chosen) assert.fail(chosen.reason);
    const bases = logGrid(4096, 200 * 4096, 300);
    const cpu = validityMap(bases, 64, 4096);
    const screened = await runWithAsyncScreen(
      (screen) => validityMap(bases, 64, 4096, { screen }),
      (b, d, L, block) => chosen.screen.lowerBounds(b, d, L, block, chosen.eps),
    );
    assert.ok(screened.stats.screened);
    assert.deepEqual(screened.lmax, cpu.lmax);
  });
});
