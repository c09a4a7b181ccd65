import { strict as assert } from 'node:assert';
import {
  BLOCK,
  TOLERANCE,
  allAtLeast,
  firstNegative,
  firstNegativeFast,
  scanMin,
  scanMinCertified,
  thetas,
  evalBlock,
  fDirect,
  fAt,
} from '../../shared/rope/fb';
import { JetStepper } from '../../shared/bstar/jetStep';
import { bstar } from '../../shared/bstar/index';

// The fast scans trust interpolated values only when they clear the tolerance by a proven error bound;
// they must give exactly the answers of the plain float64 scans.
describe('certified fast scans agree with exact scans', () => {
  let seed = 987654321;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
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
    for (const [L, d] of [
      [4096, 128],
      [3000, 64],
      [5000, 256],
    ]) {
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

describe('certified steps and the certified minimum scan', () => {
  let seed = 24681357;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

  it('a jet step never crosses the target: f < target at 400 bases spread over every certified interval', () => {
    const jet = new JetStepper();
    const target = -TOLERANCE / 2;
    let tested = 0,
      longest = 0;
    for (let k = 0; tested < 60 && k < 20000; k++) {
      const d = [64, 128][k % 2];
      const base = Math.exp(Math.log(1e4) + rand() * Math.log(1e6));
      const m = Math.floor(100 + rand() * 300000);
      const s = jet.step(thetas(base, d), m, target);
      if (!(jet.f < target)) {
        assert.equal(s, 0);
        continue;
      }
      assert.ok(Math.abs(jet.f - fDirect(base, d, m)) < 1e-9);
      tested++;
      longest = Math.max(longest, s);
      for (let q = 0; q <= 400; q++) {
        const b = base * Math.exp((s * q) / 400);
        assert.ok(fDirect(b, d, m) < target + 1e-9, `base ${base} m ${m} d ${d}: f(${b}) = ${fDirect(b, d, m)} inside the step`);
      }
    }
    assert.equal(tested, 60);
    assert.ok(longest > 0, 'some step is positive');
  });

  it('the step ends close to where f really crosses the target (not needlessly short)', () => {
    // A deep witness: f stays far below 0 for a while, so the step must cover a good part of that run.
    const jet = new JetStepper();
    const base = 6.5e7,
      d = 128;
    const th = thetas(base, d);
    let m = -1;
    for (let c = 900000; c < 1048576 && m < 0; c++) if (fAt(th, c) < -2) m = c;
    assert.ok(m > 0);
    const s = jet.step(th, m, -TOLERANCE / 2);
    let run = 0;
    while (fDirect(base * Math.exp(run + s / 50), d, m) < -TOLERANCE / 2) run += s / 50;
    assert.ok(s > 0 && s >= 0.2 * run, `step ${s} vs run below target ${run}`);
  });

  it("scanMinCertified returns exactly scanMin's minimum (direct cosines) on random bases, and the same verdict", () => {
    const buf = new Float64Array(BLOCK);
    for (let k = 0; k < 40; k++) {
      const d = [64, 128][k % 2];
      const L = Math.floor(2000 + rand() * 40000);
      const base = Math.exp(Math.log(1e3) + rand() * Math.log(1e8));
      const th = thetas(base, d);
      const a = scanMinCertified(th, 0, L, TOLERANCE, buf);
      const b = scanMin(th, 0, L, TOLERANCE);
      assert.equal(a.f < -TOLERANCE, b.f < -TOLERANCE, `base ${base}`);
      if (b.f >= -TOLERANCE) {
        assert.ok(Math.abs(a.f - b.f) < 1e-9 && a.f === fAt(th, a.m), `min ${a.f} at ${a.m} vs ${b.f} at ${b.m}`);
      } else assert.ok(fAt(th, a.m) < -TOLERANCE);
    }
  });
});
