import { strict as assert } from 'node:assert';
import { BLOCK, TOLERANCE, cos2Of, fDirect, scanMin, thetas } from '../../shared/rope/fb';
import { HeatOrder, WitnessSearch } from '../../shared/bstar/witnessSearch';
import { bstar } from '../../shared/bstar/index';

// The witness search proves nothing by itself (the sweep certifies with an exact scan), but what it
// returns must be a real witness, it must visit every block before giving up, and its orders must
// do what the sweep relies on.
describe('witness search (blocks by heat, then by last-seen minimum)', () => {
  const buf = new Float64Array(BLOCK);

  it('returns an m with f < −1e-7 by direct cosines on invalid bases, and the more-witnesses are real and distinct', () => {
    for (const [base, d, L] of [
      [2e4, 128, 65536],
      [3.3e6, 128, 200000],
      [1e9, 64, 300000],
    ] as const) {
      const th = thetas(base, d);
      const search = new WitnessSearch(L, 1024);
      const extra: number[] = [];
      const m = search.find(th, cos2Of(th), buf, undefined, (x) => extra.push(x));
      assert.ok(m >= 0 && m < L, `base ${base}: no witness`);
      assert.ok(fDirect(base, d, m) < -TOLERANCE, `base ${base}: f(${m}) = ${fDirect(base, d, m)}`);
      for (const x of extra) {
        assert.notEqual(x, m);
        assert.ok(x < L && fDirect(base, d, x) < -TOLERANCE, `extra witness ${x}`);
      }
    }
  });

  it('gives −1 only where the exact scan finds no value below −1e-7 (b* itself), including after earlier searches', () => {
    for (const [L, d] of [
      [4096, 128],
      [20000, 64],
    ] as const) {
      const b = bstar(L, d).bstar;
      const search = new WitnessSearch(L, 256);
      for (const base of [b * 0.97, b * 0.999, b]) {
        const th = thetas(base, d);
        const exactNegative = scanMin(th, 0, L, TOLERANCE).f < -TOLERANCE;
        const m = search.find(th, cos2Of(th), buf);
        if (m >= 0) search.hit(m);
        assert.equal(m >= 0, exactNegative, `L ${L} d ${d} base ${base}`);
      }
    }
  });

  it('visits the most recently hit block first (heat with exponential forgetting)', () => {
    const heat = new HeatOrder(10);
    assert.deepEqual(Array.from(heat.order.slice(0, 3)), [9, 8, 7]); // ties: top-down
    heat.hit(2);
    assert.equal(heat.order[0], 2);
    heat.hit(5);
    assert.equal(heat.order[0], 5, 'a later hit weighs more than an earlier one');
    heat.hit(2);
    assert.equal(heat.order[0], 2);
    assert.deepEqual(
      Array.from(heat.order).sort((a, b) => a - b),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      'order stays a permutation',
    );
  });
});
