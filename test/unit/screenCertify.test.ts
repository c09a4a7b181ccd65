import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { blockBoundsFromChunks, blockRange, scanBlocks, scanMinFromScreen } from '../../shared/bstar/screenCertify';
import { BLOCK, TOLERANCE, fAt, scanMinCertified, thetas } from '../../shared/rope/fb';
import { bstar } from '../../shared/bstar/index';
import { screenEpsilon } from '../../shared/node/fbWebgpu';

/**
 * Chunk minima as the WebGPU screen lays them out (chunk c covers [r + c·chunk, r + (c+1)·chunk),
 * r = L mod chunk), each value within ±noise of float64 (deterministic noise, as a float32 screen).
 */
function fakeScreen(theta: Float64Array, length: number, chunk: number, noise: number, seed = 7): Float32Array {
  const r = length % chunk;
  const out = new Float32Array((length - r) / chunk);
  for (let c = 0; c < out.length; c++) {
    let mn = Infinity;
    for (let m = r + c * chunk; m < r + (c + 1) * chunk; m++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      mn = Math.min(mn, fAt(theta, m) + noise * ((seed / 2 ** 32) * 2 - 1));
    }
    out[c] = mn;
  }
  return out;
}

describe("scanMinFromScreen (the CPU's exact scan, pruned by a screen with a proven bound)", () => {
  const d = 128;
  const eps = screenEpsilon(d / 2);
  const buf = new Float64Array(BLOCK);

  it('ε follows the derivation: n·(2^-11 + 2.2e-6) plus the float32 summation term', () => {
    assert.ok(Math.abs(screenEpsilon(64) - 0.03151) < 1e-4, String(screenEpsilon(64)));
    assert.ok(screenEpsilon(32) < screenEpsilon(64) / 1.9);
  });

  it('the block grid is the scan’s: top-down blocks of BLOCK, the bottom one partial', () => {
    assert.equal(scanBlocks(5000), 5);
    assert.deepEqual(blockRange(5000, 0), [5000 - BLOCK, 5000]);
    assert.deepEqual(blockRange(5000, 4), [0, 5000 - 4 * BLOCK]);
    // Every chunk lands in one block; m < L mod chunk is unscreened, so the bottom block's bound is −∞.
    const th = thetas(1e5, d);
    const bounds = blockBoundsFromChunks(5000, 16, fakeScreen(th, 5000, 16, 0), eps);
    assert.equal(bounds.lower[4], -Infinity);
    for (let j = 0; j < 4; j++) {
      const [lo, hi] = blockRange(5000, j);
      let mn = Infinity;
      for (let m = lo; m < hi; m++) mn = Math.min(mn, fAt(th, m));
      assert.ok(bounds.lower[j] <= mn && mn <= bounds.lower[j] + 2 * eps, `block ${j}: ${bounds.lower[j]} vs ${mn}`);
    }
    assert.throws(() => blockBoundsFromChunks(5000, 3, new Float32Array(1), eps), /does not divide/);
  });

  it('returns exactly what scanMinCertified returns — witness or certificate — for random bases, lengths and screens', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 3, max: 9, noNaN: true }),
        fc.integer({ min: 1, max: 12_000 }),
        fc.constantFrom(1, 2, 8, 64, 1024),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.nat(),
        (log10b, length, chunk, noiseFraction, seed) => {
          const th = thetas(10 ** log10b, d);
          const bounds = blockBoundsFromChunks(length, chunk, fakeScreen(th, length, chunk, eps * noiseFraction, seed), eps);
          const v = scanMinFromScreen(th, length, bounds, TOLERANCE, buf);
          assert.equal(v.kind, 'hit');
          if (v.kind === 'hit') assert.deepEqual(v.hit, scanMinCertified(th, 0, length, TOLERANCE, buf));
        },
      ),
      { numRuns: 150, seed: 20261126 },
    );
  });

  it("at b* it returns the CPU scan's certificate (minimum and argmin), evaluating a few blocks", () => {
    const L = 8192;
    const b = bstar(L, d).bstar;
    const th = thetas(b, d);
    const v = scanMinFromScreen(th, L, blockBoundsFromChunks(L, 16, fakeScreen(th, L, 16, eps * 0.9), eps), TOLERANCE, buf);
    assert.equal(v.kind, 'hit');
    if (v.kind !== 'hit') return;
    assert.deepEqual(v.hit, scanMinCertified(th, 0, L, TOLERANCE, buf));
    assert.ok(v.hit.f >= -TOLERANCE);
    assert.ok(v.blocksChecked < L / BLOCK, `${v.blocksChecked} blocks`);
  });

  it('below b* it returns the witness of the first block the CPU scan would stop at', () => {
    const L = 20_000;
    const th = thetas(1e4, d);
    const v = scanMinFromScreen(th, L, blockBoundsFromChunks(L, 64, fakeScreen(th, L, 64, eps * 0.9), eps), TOLERANCE, buf);
    assert.equal(v.kind, 'hit');
    if (v.kind !== 'hit') return;
    assert.ok(v.hit.f < -TOLERANCE && Math.abs(fAt(th, v.hit.m) - v.hit.f) < 1e-12);
    assert.deepEqual(v.hit, scanMinCertified(th, 0, L, TOLERANCE, buf));
  });

  it('a screen that breaks its bound is caught on the blocks it sends to float64', () => {
    const L = 8192;
    const th = thetas(bstar(L, d).bstar, d);
    const low2 = fakeScreen(th, L, 16, 0);
    // Push the chunk holding the true minimum 3ε down: its block's exact minimum lies above bound + 2ε.
    let low = 0;
    for (let c = 1; c < low2.length; c++) if (low2[c] < low2[low]) low = c;
    low2[low] -= 3 * eps;
    const w = scanMinFromScreen(th, L, blockBoundsFromChunks(L, 16, low2, eps), TOLERANCE, buf);
    assert.equal(w.kind, 'violated');
  });

  it('an unknown (NaN) screen value sends its block to float64 and changes nothing', () => {
    const L = 6000;
    const th = thetas(3e5, d);
    const minima = fakeScreen(th, L, 8, 0).fill(Number.NaN);
    const v = scanMinFromScreen(th, L, blockBoundsFromChunks(L, 8, minima, eps), TOLERANCE, buf);
    assert.equal(v.kind, 'hit');
    if (v.kind === 'hit') assert.deepEqual(v.hit, scanMinCertified(th, 0, L, TOLERANCE, buf));
  });
});
