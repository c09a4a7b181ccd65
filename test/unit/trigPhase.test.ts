import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MAX_FAST_PHASE, cosPhase, sinPhase } from '../../shared/rope/trig';

// cosPhase/sinPhase replace Math.cos/Math.sin in the b* hot loops; the engine's exactness rests on
// them being within 2e-15 of Math's values (whose own reduction is exact) at every phase it uses.
describe('cosPhase / sinPhase (Cody–Waite reduction of large phases)', () => {
  const within = (x: number) => {
    const dc = Math.abs(cosPhase(x) - Math.cos(x));
    const ds = Math.abs(sinPhase(x) - Math.sin(x));
    assert.ok(dc <= 2e-15 && ds <= 2e-15, `x = ${x}: |Δcos| = ${dc}, |Δsin| = ${ds}`);
  };

  it('agree with Math.cos/Math.sin within 2e-15 on random phases up to the fast limit', () => {
    fc.assert(
      fc.property(fc.double({ min: -MAX_FAST_PHASE, max: MAX_FAST_PHASE, noNaN: true }), (x) => {
        within(x);
      }),
      { numRuns: 20000, seed: 7 },
    );
  });

  it('agree at RoPE phases m·θ_i of long contexts (m < 2^24, θ = b^(−2i/d)), near multiples of 2π and at the switch points', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: (1 << 24) - 1 }),
        fc.double({ min: 1e3, max: 1e12, noNaN: true }),
        fc.integer({ min: 0, max: 63 }),
        (m, base, i) => {
          within(m * Math.pow(base, -i / 64));
        },
      ),
      { numRuns: 20000, seed: 11 },
    );
    for (const k of [1, 254648, 1000003, 2654435, 7000000]) for (const e of [-1e-9, 0, 1e-9]) within(k * 2 * Math.PI + e);
    for (const x of [1.6e6, 1.6e6 + 1e-9, MAX_FAST_PHASE, MAX_FAST_PHASE * 1.0000001, 1e12, -3e7]) within(x);
  });

  it('are exactly Math.cos/Math.sin below 1.6e6 (no reduction there) and pass NaN/∞ through', () => {
    for (const x of [0, 1, -2.5, 12345.678, 1.5e6]) {
      assert.equal(cosPhase(x), Math.cos(x));
      assert.equal(sinPhase(x), Math.sin(x));
    }
    assert.ok(Number.isNaN(cosPhase(NaN)) && Number.isNaN(cosPhase(Infinity)) && Number.isNaN(sinPhase(-Infinity)));
  });
});
