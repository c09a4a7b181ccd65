import { strict as assert } from 'node:assert';
import { certifyFromScreen } from '../../shared/bstar/screenCertify';
import { BLOCK, TOLERANCE, fAt, scanMinCertified, thetas } from '../../shared/rope/fb';
import { bstar } from '../../shared/bstar/index';
import { screenEpsilon } from '../../shared/node/fbWebgpu';

/** Chunk minima as a float32 screen within ±noise of float64 would give them (deterministic noise). */
function fakeScreen(theta: Float64Array, length: number, chunk: number, noise: number): Float32Array {
  const chunks = Math.ceil(length / chunk);
  const out = new Float32Array(chunks);
  let seed = 7;
  for (let c = 0; c < chunks; c++) {
    let mn = Infinity;
    for (let m = c * chunk; m < Math.min(length, (c + 1) * chunk); m++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      mn = Math.min(mn, fAt(theta, m) + noise * ((seed / 2 ** 32) * 2 - 1));
    }
    out[c] = mn;
  }
  return out;
}

describe('certifyFromScreen (a full scan decided in float64 from a screen with a proven bound)', () => {
  const L = 8192;
  const d = 128;
  const eps = screenEpsilon(d / 2);
  const buf = new Float64Array(BLOCK);

  it('ε follows the derivation: n·(2^-11 + 2.2e-6) plus the float32 summation term', () => {
    assert.ok(Math.abs(screenEpsilon(64) - 0.03151) < 1e-4, String(screenEpsilon(64)));
    assert.ok(screenEpsilon(32) < screenEpsilon(64) / 1.9);
  });

  it("at b* it returns exactly the CPU scan's certificate (minimum and argmin), evaluating only a few chunks", () => {
    const b = bstar(L, d).bstar;
    const th = thetas(b, d);
    const v = certifyFromScreen(th, L, { minima: fakeScreen(th, L, 16, eps * 0.9), chunk: 16, eps }, TOLERANCE, buf);
    assert.equal(v.kind, 'hit');
    if (v.kind !== 'hit') return;
    const cpu = scanMinCertified(th, 0, L, TOLERANCE, buf);
    assert.deepEqual(v.hit, cpu);
    assert.ok(v.hit.f >= -TOLERANCE);
    assert.ok(v.chunksChecked < L / 16 / 4, `${v.chunksChecked} chunks`);
  });

  it('below b* it returns a float64-confirmed witness', () => {
    const b = 1e4;
    const th = thetas(b, d);
    const v = certifyFromScreen(th, L, { minima: fakeScreen(th, L, 64, eps * 0.9), chunk: 64, eps }, TOLERANCE, buf);
    assert.equal(v.kind, 'hit');
    if (v.kind === 'hit') assert.ok(v.hit.f < -TOLERANCE && Math.abs(fAt(th, v.hit.m) - v.hit.f) < 1e-12);
  });

  it('a screen that breaks its bound is caught on the chunks it sends to float64', () => {
    const th = thetas(bstar(L, d).bstar, d);
    const minima = fakeScreen(th, L, 16, 0);
    // Shift the chunk holding the true minimum down by 3ε: the chunk is evaluated and contradicts the screen.
    let low = 0;
    for (let c = 1; c < minima.length; c++) if (minima[c] < minima[low]) low = c;
    minima[low] -= 3 * eps;
    const v = certifyFromScreen(th, L, { minima, chunk: 16, eps }, TOLERANCE, buf);
    assert.equal(v.kind, 'violated');
  });

  it('a screen with no separation (every chunk a candidate) hands the scan back to the CPU', () => {
    const v = certifyFromScreen(thetas(1e6, d), L, { minima: new Float32Array(L / 16), chunk: 16, eps }, TOLERANCE, buf);
    assert.equal(v.kind, 'too-many');
  });
});
