import { strict as assert } from 'node:assert';
import { bstar, lmax, threshold, fDirect, TOLERANCE, MAX_LENGTH } from '../../shared/bstar/index';
import { RopeError } from '../../shared/core/errors';
import { suGridBstar } from '../../shared/bstar/suGrid';
import { checkBstarClaim } from '../support/bstarReference';

/** min over m < L of f_b(m), by direct cosines (independent of the engine's recurrence). */
function directMin(base: number, d: number, L: number): { f: number; m: number } {
  let best = { f: Infinity, m: -1 };
  for (let m = 0; m < L; m++) {
    const f = fDirect(base, d, m);
    if (f < best.f) best = { f, m };
  }
  return best;
}

function firstNegativeDirect(base: number, d: number, L: number): number | null {
  for (let m = 0; m < L; m++) if (fDirect(base, d, m) < -TOLERANCE) return m;
  return null;
}

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.abs(b);
}

// Exact d = 128 values measured with an independent numpy float64 reference (project notes).
const EXACT_128: [number, number][] = [
  [1024, 4293.438],
  [2048, 11587.24],
  [4096, 26952.34],
  [8192, 83763.84],
  [32768, 629978.3],
];
// Seed 001 "This Post" row (2 significant digits), L = 1k … 32k with 1k = 1024.
const PUBLISHED: [number, string][] = [
  [1024, '4.3e+3'],
  [2048, '1.2e+4'],
  [4096, '2.7e+4'],
  [8192, '8.4e+4'],
  [16384, '2.3e+5'],
  [32768, '6.3e+5'],
];

describe('bstar: exact values (d = 128)', () => {
  const cache = new Map<number, number>();
  const get = (L: number) => {
    if (!cache.has(L)) cache.set(L, bstar(L, 128).bstar);
    return cache.get(L)!;
  };
  for (const [L, ref] of EXACT_128) {
    it(`b*(${L}, 128) matches the float64 reference ${ref}`, () => {
      // The reference is printed to 7 digits: allow its rounding plus 1e-7.
      assert.ok(rel(get(L), ref) < 6e-7, `got ${get(L)}`);
    });
  }
  for (const [L, row] of PUBLISHED) {
    it(`b*(${L}, 128) rounds to the published ${row}`, () => {
      assert.equal(get(L).toExponential(1), row);
    });
  }
});

describe('bstar: certificate and witness', () => {
  for (const [L, d] of [
    [1024, 128],
    [3000, 64],
    [1500, 96],
    [2000, 256],
  ]) {
    it(`L=${L} d=${d}: certificate holds by direct evaluation and the witness is real`, () => {
      const r = bstar(L, d);
      const min = directMin(r.bstar, d, L);
      assert.ok(min.f >= -TOLERANCE, `direct min ${min.f} at m=${min.m}`);
      assert.ok(Math.abs(min.f - r.certificate.minF) < 1e-8, `certificate ${r.certificate.minF} vs direct ${min.f}`);
      assert.ok(r.witness, 'witness present');
      const w = r.witness!;
      assert.ok(w.base < r.bstar && rel(w.base, r.bstar) <= 1e-6, `witness base ${w.base} vs b* ${r.bstar}`);
      assert.ok(w.m < L);
      const f = fDirect(w.base, d, w.m);
      assert.ok(f < 0, `f at witness = ${f}`);
      assert.ok(Math.abs(f - w.f) < 1e-9);
    });
  }

  it('no base on a fine grid below b* is valid (independent brute force, d = 64, L = 400)', () => {
    const L = 400,
      d = 64;
    const r = bstar(L, d);
    let firstValid = Infinity;
    for (let b = 1.0001; b < r.bstar * 1.5; b *= 1.001) {
      const valid = firstNegativeDirect(b, d, L) === null;
      if (b < r.bstar) assert.ok(!valid, `grid base ${b} below b*=${r.bstar} is valid`);
      else if (valid) {
        firstValid = b;
        break;
      }
    }
    assert.ok(r.bstar <= firstValid);
    assert.ok(directMin(r.bstar, d, L).f >= -TOLERANCE);
  });

  it('b* = 1 where every base is valid (L ≤ 2) and has no witness', () => {
    const r = bstar(2, 128);
    assert.equal(r.bstar, 1);
    assert.equal(r.witness, null);
  });
});

describe('lmax', () => {
  it('matches the first negative m by direct evaluation', () => {
    const L = 6000;
    for (const [base, d] of [
      [1e4, 128],
      [5e3, 64],
      [2.7e4, 128],
      [3e5, 96],
      [1234.5, 256],
      [26952.34, 128],
    ] as const) {
      assert.equal(lmax(base, d, L), firstNegativeDirect(base, d, L), `base ${base} d ${d}`);
    }
  });
  it('is null exactly for valid bases', () => {
    assert.equal(lmax(4293.44, 128, 1024), null);
    assert.notEqual(lmax(4293.0, 128, 1024), null);
    // Just above b*(2048) most bases are invalid again: validity is not monotone in b.
    const b2 = bstar(2048, 128).bstar;
    const above = [1.001, 1.01, 1.05, 1.1].map((k) => lmax(b2 * k, 128, 2048));
    assert.ok(
      above.some((x) => x !== null),
      'some base above b* is invalid',
    );
  });
});

describe('threshold', () => {
  it('is ≥ b*, below the proven bound, and the proven bound base is valid', () => {
    const L = 2048,
      d = 128;
    const t = threshold(L, d);
    const b = bstar(L, d).bstar;
    assert.ok(t.threshold >= b && t.threshold <= t.certifiedAbove);
    assert.equal(lmax(t.certifiedAbove, d, L), null);
    assert.equal(lmax(t.certifiedAbove * 3.7, d, L), null);
    // The estimate is the largest invalid base found, so it must itself be invalid (or b*).
    if (t.threshold > b) assert.notEqual(lmax(t.threshold, d, L), null);
    // Reference estimate 2.28e4 (numpy fine grid).
    assert.ok(rel(t.threshold, 2.28e4) < 0.05, `threshold ${t.threshold}`);
    assert.match(t.guarantee, /estimate/);
  });
});

describe('bstar: cancellation and bad input', () => {
  it('an aborted signal stops the sweep with a cancelled RopeError', () => {
    assert.throws(
      () => bstar(4096, 128, { signal: { aborted: true } }),
      (e: unknown) => e instanceof RopeError && e.code === 'cancelled',
    );
    const sig = { aborted: false };
    assert.throws(
      () =>
        bstar(32768, 128, {
          signal: sig,
          onProgress: () => {
            sig.aborted = true;
          },
        }),
      (e: unknown) => e instanceof RopeError && e.code === 'cancelled',
    );
  });
  const bad: [string, () => unknown, string][] = [
    ['L < 1', () => bstar(0, 128), 'invalid-length'],
    ['L fractional', () => bstar(10.5, 128), 'invalid-length'],
    ['L beyond max', () => bstar(MAX_LENGTH + 1, 128), 'unsupported-length'],
    ['L NaN', () => bstar(NaN, 128), 'invalid-length'],
    ['L Infinity', () => lmax(1e4, 128, Infinity), 'invalid-length'],
    ['d odd', () => bstar(1024, 127), 'invalid-dimension'],
    ['d zero', () => lmax(1e4, 0, 1024), 'invalid-dimension'],
    ['base 1', () => lmax(1, 128, 1024), 'invalid-base'],
    ['base < 1', () => lmax(0.5, 128, 1024), 'invalid-base'],
    ['base NaN', () => lmax(NaN, 128, 1024), 'invalid-base'],
    ['base Infinity', () => lmax(Infinity, 128, 1024), 'invalid-base'],
  ];
  for (const [name, fn, code] of bad) {
    it(`${name} → RopeError ${code}`, () => {
      assert.throws(fn, (e: unknown) => e instanceof RopeError && e.code === code && e.message.length > 10);
    });
  }
});

describe('bstar: degenerate head dimension', () => {
  it('d = 2 has no valid base for L ≥ 3 (f = cos m): a clear error, not a hang', () => {
    assert.throws(
      () => bstar(3, 2),
      (e: unknown) => e instanceof RopeError && e.code === 'invalid-dimension' && /no base is valid/.test(e.message),
    );
    assert.equal(bstar(2, 2).bstar, 1);
  });
  it('d = 4 still has a (large) b*, certified by direct evaluation', () => {
    const r = bstar(300, 4);
    assert.ok(directMin(r.bstar, 4, 300).f >= -TOLERANCE);
    assert.ok(r.witness && fDirect(r.witness.base, 4, r.witness.m) < 0);
  });
});

describe('bstar: independent consistency checks for d = 64, 96, 256', () => {
  // Seed 001's grid search always lands on a valid base, so it can only be ≥ b*; bases sampled below
  // b* must all be invalid (lmax finds a failing m); b* itself must be valid.
  for (const [L, d] of [
    [2000, 64],
    [2000, 96],
    [1500, 256],
  ]) {
    it(`L=${L} d=${d}`, () => {
      const r = bstar(L, d);
      assert.equal(lmax(r.bstar, d, L), null);
      const su = suGridBstar(L, d).bstar;
      assert.ok(su >= r.bstar && su < r.bstar * 1.01, `grid ${su} vs b* ${r.bstar}`);
      let seed = 12345;
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let k = 0; k < 150; k++) {
        const b = 1 + (r.bstar - 1) * rand();
        assert.notEqual(lmax(b, d, L), null, `base ${b} below b* is valid`);
      }
      for (let k = 1; k <= 50; k++) assert.notEqual(lmax(r.bstar * (1 - k * 2e-6), d, L), null);
    });
  }
});

describe('bstar at 2^20 against an independent direct scan (test/support/bstarReference)', function () {
  this.timeout(60000);
  it('b*(2^20, 128): min f over all m < L at b* ≥ −1e-7 by Math.pow/Math.cos, an invalid base 1e-6 below, and the float64 reference value', () => {
    const L = 1 << 20;
    const r = bstar(L, 128);
    assert.ok(rel(r.bstar, 6.537496e7) < 1e-6, `b* = ${r.bstar}`);
    const check = checkBstarClaim(r.bstar, 128, L);
    assert.ok(check.minAt.f >= -TOLERANCE, `direct min ${check.minAt.f} at m = ${check.minAt.m}`);
    assert.ok(Math.abs(check.minAt.f - r.certificate.minF) < 1e-8, `certificate ${r.certificate.minF} vs direct ${check.minAt.f}`);
    assert.ok(check.below.witness, `no m < L with f < −1e-7 at ${check.below.base}`);
    assert.ok(check.holds);
  });
});
