/**
 * The proven threshold (shared/bstar/provenThreshold.ts): ±10% neighbourhood proofs chained down from
 * certifiedAbove. On a synthetic validity set (the chain's logic) the proven neighbourhoods cover
 * [provenAbove, certifiedAbove] without a gap and stop just above the largest invalid base, including
 * one the estimate missed; on the real f_b, the 16,384-token estimate's miss is found and located.
 */
import { strict as assert } from 'node:assert';
import { proveThreshold } from '../../shared/bstar/provenThreshold';
import { lmax, robustNeighbourhood, threshold } from '../../shared/bstar/index';

describe('proven threshold', () => {
  it('synthetic: covers [provenAbove, certifiedAbove] without gaps and stops just above an invalid stretch the estimate missed', async () => {
    // Invalid: every base ≤ 1,000 (the estimate) and the stretch [5,000, 5,300] above it.
    const invalid = (b: number) => b <= 1000 || (b >= 5000 && b <= 5300);
    const proven: [number, number][] = [];
    const r = await proveThreshold(
      1000,
      1e6,
      (c) => {
        const lo = 0.9 * c;
        const hi = 1.1 * c;
        // The proof's witness: the top of the invalid part of [lo, hi] (as a top-down proof finds first).
        const top = hi >= 5000 && lo <= 5300 ? Math.min(hi, 5300) : lo <= 1000 ? Math.min(hi, 1000) : undefined;
        if (top !== undefined) return { robust: false, witness: { base: top, m: 1, f: -1 } };
        proven.push([lo, hi]);
        return { robust: true };
      },
      (b) => !invalid(b),
    );
    assert.equal(r.located, true);
    assert.ok(r.provenAbove > 5300 && r.provenAbove < 5300 * (1 + 1e-6), `${r.provenAbove}`);
    assert.ok(invalid(r.invalidAt.base) && r.invalidAt.from === 'proof');
    proven.sort((a, b) => a[0] - b[0]);
    assert.ok(proven[0][0] <= r.provenAbove && proven[proven.length - 1][1] >= 1e6);
    for (let k = 1; k < proven.length; k++) assert.ok(proven[k][0] <= proven[k - 1][1], `gap between ${proven[k - 1][1]} and ${proven[k][0]}`);
  });

  it('an undecided cell stops the chain and says so (nothing below the last proven rung is claimed)', async () => {
    let n = 0;
    const r = await proveThreshold(
      1000,
      1e5,
      () => (++n < 3 ? { robust: true } : { robust: false, witness: { base: 1, m: 0, f: 0 }, undecided: true }),
      () => true,
    );
    assert.equal(r.located, false);
    assert.match(r.stopped ?? '', /could not be decided/);
    assert.ok(r.provenAbove > 1e5 * Math.pow(0.9 / 1.1, 2) * 0.9 * 0.99);
  });

  it('L = 16,384, d = 128: the 2% grid estimate (563,783) misses an invalid base at 1.32e6; the proof finds and locates it', async function () {
    this.timeout(60_000);
    const L = 16384;
    const d = 128;
    const t = threshold(L, d);
    const r = await proveThreshold(
      t.threshold,
      t.certifiedAbove,
      (c) => {
        const v = robustNeighbourhood(c, d, L);
        return v.robust ? { robust: true } : { robust: false, witness: v.witness, undecided: v.undecided };
      },
      (b) => lmax(b, d, L) === null,
    );
    assert.equal(r.located, true);
    assert.ok(r.provenAbove > 2 * t.threshold, `proven ${r.provenAbove} vs estimate ${t.threshold}`);
    // Independent direct cosines: the invalid base below the proven end fails; bases above it hold.
    const f = (b: number, m: number) => {
      let s = 0;
      for (let i = 0; i < d / 2; i++) s += Math.cos(m * Math.pow(b, (-2 * i) / d));
      return s;
    };
    const bad = lmax(r.invalidAt.base, d, L);
    assert.ok(bad !== null && f(r.invalidAt.base, bad) < -1e-7);
    for (const k of [1 + 1e-8, 1.001, 1.1, 2]) assert.equal(lmax(r.provenAbove * k, d, L), null, `${k}`);
  });
});
