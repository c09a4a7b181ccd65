/**
 * The browser's way of feeding a synchronous proof from an asynchronous screen (record and replay,
 * shared/bstar/asyncScreen.ts) and its choice of screen (server/web/browserGpu.ts), without a GPU:
 * the screen here is a float64 stand-in lowered by up to ε, answered a turn later as WebGPU answers.
 * The proof and the map must come out as the CPU's and as the synchronously screened ones.
 */
import { screenLowerBounds } from './helpers/simulatedScreen';
import { strict as assert } from 'node:assert';
import { type NeighbourhoodScreen, proveNeighbourhood } from '../../shared/bstar/neighbourhood';
import { logGrid, validityMap } from '../../shared/bstar/validityMap';
import { type AsyncScreen, runWithAsyncScreen } from '../../shared/bstar/asyncScreen';
import { type BrowserGpu, type GpuLike, openBrowserGpu, screenFor } from '../../server/web/browserGpu';
import type { DeviceScreen } from '../../shared/gpu/deviceScreen';

const EPS = 0.0315;
const syncScreen =
  (calls: { n: number }): NeighbourhoodScreen =>
  (bases, d, L, block) => {
    calls.n++;
    return screenLowerBounds(bases, d, L, block, EPS);
  };
/** Answers on a later turn of the event loop, as a device's mapAsync does. */
const asyncScreen =
  (calls: { n: number }): AsyncScreen =>
  (bases, d, L, block) =>
    new Promise((resolve) =>
      setImmediate(() => {
        calls.n++;
        resolve(screenLowerBounds(bases, d, L, block, EPS));
      }),
    );

describe('a synchronous proof fed by an asynchronous screen (the browser worker)', function () {
  this.timeout(120_000);
  for (const [L, d, candidates] of [
    [2048, 128, [13000, 26000]],
    [4096, 96, [210000, 260000]],
  ] as const) {
    it(`L = ${L}, d = ${d}: verdicts and witnesses of ${candidates.join(', ')} are the CPU's, one device request per question`, async () => {
      for (const c of candidates) {
        const cpu = proveNeighbourhood(c, d, L, { subcells: 16 });
        const syncCalls = { n: 0 };
        const sync = proveNeighbourhood(c, d, L, { screen: syncScreen(syncCalls), subcells: 16 });
        const asyncCalls = { n: 0 };
        const replayed = await runWithAsyncScreen((screen) => proveNeighbourhood(c, d, L, { screen, subcells: 16 }), asyncScreen(asyncCalls));
        assert.equal(replayed.stats.screened, true);
        assert.equal(replayed.robust, cpu.robust, `${c}`);
        assert.deepEqual(replayed, sync, `${c}: the replayed proof differs from the synchronously screened one`);
        if (!replayed.robust && !cpu.robust) assert.deepEqual(replayed.witness, cpu.witness, `${c}`);
        assert.equal(asyncCalls.n, syncCalls.n, `${c}: each question is asked of the device once`);
      }
    });
  }

  it('a validity map through the replay is the CPU map, base by base', async () => {
    const bases = logGrid(20000, 200000, 60);
    const cpu = validityMap(bases, 128, 4096);
    const replayed = await runWithAsyncScreen((screen) => validityMap(bases, 128, 4096, { screen }), asyncScreen({ n: 0 }));
    assert.deepEqual(replayed.lmax, cpu.lmax);
    assert.ok(replayed.stats.screened && replayed.stats.exactBlocks < cpu.stats.exactBlocks);
  });

  it('a screen that fails (null) leaves the proof to the CPU, with the CPU verdict', async () => {
    const cpu = proveNeighbourhood(26000, 128, 2048);
    const v = await runWithAsyncScreen(
      (screen) => proveNeighbourhood(26000, 128, 2048, { screen }),
      async () => null,
    );
    assert.equal(v.stats.screened, false);
    assert.deepEqual(v, cpu);
  });

  it("the proof's own errors pass through (a cancelled job stays cancelled)", async () => {
    const signal = { aborted: true };
    await assert.rejects(
      runWithAsyncScreen((screen) => proveNeighbourhood(26000, 128, 2048, { screen, signal }), asyncScreen({ n: 0 })),
      /cancel/i,
    );
  });

  it('a proof that asks something else on its rerun is refused rather than fed the wrong answer', async () => {
    let run = 0;
    await assert.rejects(
      runWithAsyncScreen(
        (screen) => {
          run++;
          screen(Float64Array.of(1e4 + run), 128, 2048, 256);
          return screen(Float64Array.of(2e4), 128, 2048, 256);
        },
        async (bases) => new Float64Array(bases.length * 8),
      ),
      /different question/,
    );
  });
});

describe("the browser worker's choice of screen (navigator.gpu)", () => {
  const calibrated = (precise: boolean): DeviceScreen => ({
    calibrate: async () => ({ precise, maxError: precise ? 1e-4 : 0.5, eps: 0.0315, samples: 2560 }),
    lowerBounds: async () => new Float64Array(),
    basesScreened: 0,
    destroy: () => undefined,
  });
  const reasonOf = (r: Awaited<ReturnType<typeof screenFor>>) => ('reason' in r ? r.reason : 'screened');
  const gpu = (over: Partial<BrowserGpu>): BrowserGpu => ({ screen: calibrated(true), adapter: 'Test GPU', software: false, reason: '', ...over });

  it('without navigator.gpu, or without an adapter, says so and opens nothing', async () => {
    assert.match((await openBrowserGpu(undefined)).reason, /no navigator\.gpu/);
    const noAdapter: GpuLike = { requestAdapter: async () => null };
    const r = await openBrowserGpu(noAdapter);
    assert.equal(r.screen, null);
    assert.match(r.reason, /no adapter/);
    const broken: GpuLike = {
      requestAdapter: async () => {
        throw new Error('GPU process crashed');
      },
    };
    assert.match((await openBrowserGpu(broken)).reason, /GPU process crashed/);
  });

  it('screens on a precise hardware adapter; not for "cpu", not on an imprecise one, not on a software one under "auto"', async () => {
    const ok = await screenFor(gpu({}), 'auto', 128);
    assert.ok('screen' in ok && ok.eps === 0.0315);
    assert.match(reasonOf(await screenFor(gpu({}), 'cpu', 128)), /"cpu"/);
    assert.match(reasonOf(await screenFor(gpu({ screen: calibrated(false) }), 'gpu', 128)), /exceeds half the proven bound/);
    const sw = gpu({ software: true, adapter: 'Google SwiftShader' });
    assert.match(reasonOf(await screenFor(sw, 'auto', 128)), /software rasterizer/);
    assert.equal(reasonOf(await screenFor(sw, 'gpu', 128)), 'screened');
  });
});
