import { strict as assert } from 'node:assert';
import {
  gradientThetaBase,
  lognAttentionScale,
  ntkAwareBase,
  ntkByPartsInvFreq,
  ntkByPartsRamp,
  ntkFixedInvFreq,
  ntkMixedA,
  ntkMixedInvFreq,
  ntkOldBase,
  positionInterpolationInvFreq,
} from '../../shared/rope/seedMethods';
import { criticalDimension, fb, fbCurve, periodFractionSeen, rotationsWithin, wavelengths } from '../../shared/rope/analysis';
import { defaultInvFreq } from '../../shared/rope/invFreq';
import { RopeError } from '../../shared/core/errors';

function close(actual: number, expected: number, tol = 1e-12, what = ''): void {
  const err = Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300);
  assert.ok(err <= tol, `${what}: got ${actual}, expected ${expected} (rel err ${err})`);
}
const isRope = (code: string) => (e: unknown) => e instanceof RopeError && e.code === code;

describe('seed methods', () => {
  it('NTK-aware base b·s^(d/(d−2)): 40889.94 for b=1e4, s=4, d=128 (not the 41810.5 one seed prints)', () => {
    const b = ntkAwareBase(10000, 4, 128);
    assert.equal(Math.round(b * 100) / 100, 40889.94);
    assert.ok(Math.abs(b - 41810.5) > 900);
    // Its defining property: the lowest frequency is interpolated by exactly s.
    const orig = defaultInvFreq(10000, 128)[63];
    const scaled = defaultInvFreq(b, 128)[63];
    close(orig / scaled, 4, 1e-12, 'lowest frequency ratio');
    assert.equal(ntkOldBase(10000, 4), 40000);
  });

  it('NTK-RoPE-fixed: θ_m = 1/(λ(βλ)^(m−1)); the highest frequency is divided by λ = k^(2/d)', () => {
    const inv = ntkFixedInvFreq(10000, 128, 16);
    close(inv[0], Math.pow(16, -2 / 128), 1e-14, 'θ1');
    close(inv[63], Math.pow(10000, -126 / 128) / 16, 1e-13, 'θ_{d/2} interpolated by k');
  });

  it('NTK-RoPE-mixed: a = ln k/(d/2)^b; products exp(a·m^b) end at k; b=1 → fixed, b=0 → PI', () => {
    const k = 8,
      d = 128;
    const a = ntkMixedA(k, d); // default b = 0.625
    close(a, Math.log(8) / Math.pow(64, 0.625), 1e-15, 'a');
    close(a, Math.log(8) / Math.pow(2, 3.75), 1e-14, 'a with 64^0.625 = 2^3.75');
    const base = defaultInvFreq(10000, d);
    const mixed = ntkMixedInvFreq(10000, d, k);
    close(base[63] / mixed[63], k, 1e-12, 'the last digit carries the whole factor');
    // λ_m = exp(a(m^b − (m−1)^b)) is non-increasing and ≥ 1.
    let prev = Infinity;
    for (let m = 1; m <= 64; m++) {
      const lam = base[m - 1] / mixed[m - 1] / (m > 1 ? base[m - 2] / mixed[m - 2] : 1);
      assert.ok(lam >= 1 - 1e-12 && lam <= prev + 1e-12, `λ_${m}=${lam}`);
      prev = lam;
    }
    const fixed = ntkFixedInvFreq(10000, d, k);
    ntkMixedInvFreq(10000, d, k, 1).forEach((x, i) => close(x, fixed[i], 1e-12, `b=1 i=${i}`));
    ntkMixedInvFreq(10000, d, k, 0).forEach((x, i) => close(x, base[i] / k, 1e-12, `b=0 i=${i}`));
    assert.throws(() => ntkMixedInvFreq(10000, d, k, 1.5), isRope('invalid-parameter'));
  });

  it('NTK-by-parts: ramp γ and blend; fast pairs kept, slow pairs divided by s', () => {
    assert.equal(ntkByPartsRamp(0.5, 1, 32), 0);
    assert.equal(ntkByPartsRamp(40, 1, 32), 1);
    assert.equal(ntkByPartsRamp(16.5, 1, 32), 0.5);
    const L = 4096,
      s = 4;
    const base = defaultInvFreq(10000, 128);
    const h = ntkByPartsInvFreq(10000, 128, s, L);
    for (let i = 0; i < 64; i++) {
      const r = (L * base[i]) / (2 * Math.PI);
      if (r > 32) assert.equal(h[i], base[i], `i=${i} extrapolated`);
      else if (r < 1) close(h[i], base[i] / s, 1e-15, `i=${i} interpolated`);
      else {
        const g = (r - 1) / 31;
        close(h[i], ((1 - g) * base[i]) / s + g * base[i], 1e-14, `i=${i} blended`);
      }
    }
    assert.throws(() => ntkByPartsRamp(1, 32, 1), isRope('invalid-parameter'));
  });

  it('position interpolation divides every frequency by s', () => {
    const base = defaultInvFreq(10000, 64);
    positionInterpolationInvFreq(10000, 64, 2).forEach((x, i) => assert.equal(x, base[i] / 2));
  });

  it('log-n attention scale max(1, log_L n)', () => {
    assert.equal(lognAttentionScale(100, 4096), 1);
    assert.equal(lognAttentionScale(4096, 4096), 1);
    close(lognAttentionScale(4096 * 4096, 4096), 2, 1e-15, 'n = L²');
    close(lognAttentionScale(16384, 4096), 14 / 12, 1e-15, 'log_4096 16384 = 14/12');
    assert.throws(() => lognAttentionScale(0, 4096), isRope('invalid-length'));
  });

  it("Gradient's theta law reproduces their published Llama-3-8B 262k and 1048k bases", () => {
    close(gradientThetaBase(5e5, 8192, 262144), 283461213.5, 2e-9, '262k');
    close(gradientThetaBase(5e5, 8192, 1048576), 3580165449, 2e-9, '1048k');
    assert.equal(gradientThetaBase(5e5, 8192, 8192), 5e5);
  });

  it('bad input is refused with RopeError', () => {
    assert.throws(() => ntkAwareBase(10000, 0.5, 128), isRope('invalid-factor'));
    assert.throws(() => ntkAwareBase(-1, 2, 128), isRope('invalid-base'));
    assert.throws(() => ntkAwareBase(10000, 2, 2), isRope('invalid-dimension'));
    assert.throws(() => gradientThetaBase(5e5, 4, 8192), isRope('invalid-length'));
  });
});

describe('frequency analyses', () => {
  it('critical dimension d_extra: 70 for Llama-3-8B (b=5e5, T=8192), 92 for Llama-2 (b=1e4, T=4096)', () => {
    assert.equal(criticalDimension(5e5, 128, 8192), 70);
    assert.equal(criticalDimension(1e4, 128, 4096), 92);
    assert.equal(criticalDimension(1e4, 128, 1), 0, 'clamped below');
    assert.equal(criticalDimension(10, 128, 1e9), 128, 'clamped above');
  });

  it('wavelengths, turns and fraction of a period seen', () => {
    const inv = [1, 0.01, 1e-5];
    const w = wavelengths(inv);
    close(w[1], 200 * Math.PI, 1e-15, 'λ = 2π/θ');
    const turns = rotationsWithin(inv, 4096);
    close(turns[0], 4096 / (2 * Math.PI), 1e-15, 'turns');
    const seen = periodFractionSeen(inv, 4096);
    assert.equal(seen[0], 1);
    close(seen[2], (4096 * 1e-5) / (2 * Math.PI), 1e-15, 'partial period');
    assert.throws(() => wavelengths([1, -1]), isRope('invalid-parameter'));
    // An unrotated pair (proportional RoPE) has an infinite wavelength.
    assert.equal(wavelengths([1, 0])[1], Infinity);
    assert.throws(() => rotationsWithin(inv, NaN), isRope('invalid-length'));
  });

  it('f_b(m) = Σ cos(m θ_i): d/2 at m = 0, hand values for a two-pair vector', () => {
    const inv = defaultInvFreq(10000, 128);
    assert.equal(fb(0, inv), 64);
    close(fb(3, [1, 0.5]), Math.cos(3) + Math.cos(1.5), 1e-15, 'fb(3)');
    const curve = fbCurve([1, 0.5], [0, 1, 2]);
    assert.deepEqual(Array.from(curve), [2, Math.cos(1) + Math.cos(0.5), Math.cos(2) + Math.cos(1)]);
    assert.throws(() => fb(NaN, inv), isRope('invalid-parameter'));
  });
});
