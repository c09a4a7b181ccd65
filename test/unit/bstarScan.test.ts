import { strict as assert } from 'node:assert';
import { BLOCK, TOLERANCE, allAtLeast, firstNegative, firstNegativeFast, scanMin, thetas, evalBlock, fDirect } from '../../shared/rope/fb';
import { bstar } from '../../shared/bstar/index';

// The fast scans trust interpolated values only when they clear the tolerance by a proven error bound;
// they must give exactly the answers of the plain float64 scans.
describe('certified fast scans agree with exact scans', () => {
  let seed = 987654321;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const buf = new Float64Array(BLOCK);

  it('firstNegativeFast = firstNegative on random (base, d, L)', () => {
    for (let k = 0; k < 120; k++) {
      const d = [64, 96, 128, 256][k % 4];
      const L = Math.floor(1000 + rand() * 60000);
      const base = Math.exp(Math.log(1e3) + rand() * Math.log(1e7));
      const th = thetas(base, d);
      assert.deepEqual(firstNegativeFast(th, 0, L, TOLERANCE, buf)?.m ?? null, firstNegative(th, 0, L, TOLERANCE)?.m ?? null, `base ${base} d ${d} L ${L}`);
    }
  });

  it('allAtLeast = (exact min ≥ −tol), including b* itself where min f is just below 0', () => {
    for (const [L, d] of [[4096, 128], [3000, 64], [5000, 256]]) {
      const b = bstar(L, d).bstar;
      for (const base of [b, b * 1.3, b * 3, b * 10, b * 0.999]) {
        const th = thetas(base, d);
        assert.equal(allAtLeast(th, 0, L, TOLERANCE, buf), scanMin(th, 0, L, TOLERANCE).f >= -TOLERANCE, `base ${base}`);
      }
    }
  });

  it('the block scan itself matches direct cosines at large m', () => {
    const th = thetas(6.5e7, 128);
    let worst = 0;
    for (const m0 of [0, 123456, 1048576 - BLOCK]) {
      evalBlock(th, m0, BLOCK, buf);
      for (let k = 0; k < BLOCK; k += 37) worst = Math.max(worst, Math.abs(buf[k] - fDirect(6.5e7, 128, m0 + k)));
    }
    assert.ok(worst < 1e-8, `max error ${worst}`);
  });
});
