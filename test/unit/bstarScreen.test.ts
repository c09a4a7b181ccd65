import { strict as assert } from 'node:assert';
import { GPU } from 'gpu.js';
import { createFbScreen, SCREEN_MARGIN, chunkSize } from '../../shared/gpu/fbKernel';
import { lmax, bstar } from '../../shared/bstar/index';
import { evalBlock, fDirect, thetas } from '../../shared/rope/fb';

describe('gpu.js f_b screen (run in gpu.js cpu mode)', () => {
  const gpu = new GPU({ mode: 'cpu' });
  const screen = createFbScreen(gpu, 128);
  after(() => {
    screen.destroy();
    gpu.destroy();
  });
  const L = 8192;
  const valid = bstar(L, 128).bstar;
  const bases = [1e4, 2.7e4, 5e4, valid];
  let results: ReturnType<typeof screen.screen>;
  before(() => {
    results = screen.screen(bases, L);
  });

  it('reports the kernel class that really ran, and that it is not a GPU', () => {
    assert.equal(screen.kernelClass(), 'CPUKernel');
    assert.equal(screen.onGpu(), false);
  });

  it('first negative m per base equals lmax (float64), null for a valid base', () => {
    for (const r of results) assert.equal(r.firstNegative, lmax(r.base, 128, L), `base ${r.base}`);
    assert.equal(results[3].firstNegative, null);
    for (const r of results) if (r.firstNegative !== null) assert.ok(Math.abs(r.f - fDirect(r.base, 128, r.firstNegative)) < 1e-9);
  });

  it('float32 chunk minima stay well inside the verification margin', () => {
    const { chunk, minima } = screen.lastMinima();
    assert.equal(chunk, chunkSize(L));
    const buf = new Float64Array(chunk);
    let worst = 0;
    bases.forEach((b, j) => {
      const th = thetas(b, 128);
      for (let c = 0; c < minima[j].length; c++) {
        const cnt = Math.min(chunk, L - c * chunk);
        evalBlock(th, c * chunk, cnt, buf);
        let mn = Infinity;
        for (let k = 0; k < cnt; k++) mn = Math.min(mn, buf[k]);
        worst = Math.max(worst, Math.abs(mn - minima[j][c]));
      }
    });
    assert.ok(worst < SCREEN_MARGIN / 10, `max |f32 − f64| = ${worst}`);
  });
});

describe('b* sweep with the gpu.js screen proposing witnesses (cpu mode)', () => {
  it('gives the CPU answer (to 1e-9; the last landing point depends on the witnesses used)', () => {
    const gpu = new GPU({ mode: 'cpu' });
    const screen = createFbScreen(gpu, 128);
    let calls = 0;
    try {
      const withScreen = bstar(4096, 128, {
        screen: (b, L) => {
          calls++;
          return screen.witness(b, L);
        },
      });
      const cpu = bstar(4096, 128).bstar;
      assert.ok(Math.abs(withScreen.bstar - cpu) / cpu < 1e-9, `${withScreen.bstar} vs ${cpu}`);
      assert.ok(calls > 0, 'the screen was consulted');
      // A screen that proposes nonsense cannot change the answer either.
      const a = bstar(2048, 128, { screen: () => 7 }).bstar,
        c = bstar(2048, 128).bstar;
      assert.ok(Math.abs(a - c) / c < 1e-9, `${a} vs ${c}`);
    } finally {
      screen.destroy();
      gpu.destroy();
    }
  });
});
