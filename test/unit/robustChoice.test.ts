/**
 * One chooser of the robust base for the check fix, the planner and the Inspector
 * (shared/fixes/robustChoice.ts): the proven table's answer where it holds one, the same base the live
 * search finds at a rung, and a proven (independently scanned) base at lengths between rungs, with a
 * message that says at which length it was proven.
 */
import { strict as assert } from 'node:assert';
import { bstar, lmax, robustNeighbourhood } from '../../shared/bstar/index';
import { chooseValidBase, roundUpNice } from '../../shared/fixes/chooseBase';
import { chooseRobustBase, rungNote } from '../../shared/fixes/robustChoice';
import { tableRobustBase, tableRows, tableValidAbove } from '../../shared/bstar/table/provenTable';
import { LADDER_MAX } from '../../shared/bstar/table/ladder';
import { invalidAcrossNeighbourhood } from './helpers/independentScan';

const prove = (d: number, L: number) => (c: number) => {
  const v = robustNeighbourhood(c, d, L);
  return v.robust ? null : v.witness.base;
};

describe('chooseRobustBase: the proven table first, the live search otherwise', function () {
  this.timeout(120_000);

  for (const [L, d] of [
    [4096, 128],
    [2048, 64],
    [8192, 96],
  ] as const) {
    it(`at the rung L = ${L}, d = ${d}: the table gives the live search's base, without proving`, () => {
      const start = bstar(L, d).bstar / 0.9;
      const live = chooseValidBase(start, (x) => lmax(x, d, L), prove(d, L));
      let asked = 0;
      const fromTable = chooseRobustBase(
        start,
        d,
        L,
        () => {
          asked++;
          return null;
        },
        () => {
          asked++;
          return null;
        },
      );
      assert.deepEqual(fromTable, { base: live, provenAt: L, from: 'table' });
      assert.equal(asked, 0, 'the table answered without the oracles');
      assert.equal(rungNote(fromTable!, L), '');
    });
  }

  it('between rungs: the base of the rung above, proven at the length asked (independent scan), and the message says so', () => {
    const L = 3000,
      d = 128;
    const c = chooseRobustBase(
      1,
      d,
      L,
      () => undefined,
      () => undefined,
    )!;
    assert.equal(c.from, 'table');
    assert.equal(c.provenAt, 3444);
    assert.deepEqual(invalidAcrossNeighbourhood(c.base, d, L, 161), []);
    assert.match(rungNote(c, L), /proven at 3,444 tokens, the proven table's length at or above 3,000/);
  });

  it('above the proven threshold the first round base is robust without a proof; in between, the live search runs', () => {
    const L = 4096,
      d = 128;
    const v = tableValidAbove(L, d)!;
    const high = chooseRobustBase(
      2 * v.value,
      d,
      L,
      () => undefined,
      () => undefined,
    )!;
    assert.deepEqual(high, { base: roundUpNice(2 * v.value), provenAt: L, from: 'table' });
    assert.deepEqual(invalidAcrossNeighbourhood(high.base, d, L, 81), []);
    // Above the table's robust base, below the threshold / 0.9 (16,384 tokens: 830,000 and 1,321,078): proven live.
    const M = 16384;
    const start = 9e5;
    assert.ok(start > tableRobustBase(M, d)!.value && start * 0.9 < tableValidAbove(M, d)!.value);
    const live = chooseRobustBase(start, d, M, (x) => lmax(x, d, M), prove(d, M))!;
    assert.equal(live.from, 'live');
    assert.equal(
      live.base,
      chooseValidBase(start, (x) => lmax(x, d, M), prove(d, M)),
    );
    // The search is remembered (and, with a persistent store plugged, kept for the next run): no oracle is asked again.
    const fail = (): null => assert.fail('asked again');
    assert.deepEqual(chooseRobustBase(start, d, M, fail, fail), live);
  });

  it("past the table's last rung for a dim, the live search starts at the robust base of the rung below (no round base under it is robust)", () => {
    const top = new Map<number, number>();
    for (const r of tableRows()) if (r.robust && r.length > (top.get(r.dim) ?? 0)) top.set(r.dim, r.length);
    const [d, rung] = [...top].find(([dim, L]) => L < LADDER_MAX && !tableRobustBase(L + 1, dim))!;
    const floor = tableRobustBase(rung, d)!.value;
    const asked: number[] = [];
    const c = chooseRobustBase(
      10,
      d,
      rung + 1,
      () => null,
      (x) => {
        asked.push(x);
        return null;
      },
    )!;
    assert.deepEqual(c, { base: floor, provenAt: rung + 1, from: 'live' });
    assert.deepEqual(asked, [floor], 'no candidate below the floor was proven');
  });

  it('lengths the table does not reach, and dims it does not hold, go to the live search', () => {
    assert.equal(
      chooseRobustBase(
        1e5,
        128,
        1 << 25,
        () => undefined,
        () => undefined,
      ),
      undefined,
    );
    const c = chooseRobustBase(1e5, 62, 4096, (x) => lmax(x, 62, 4096), prove(62, 4096))!;
    assert.equal(c.from, 'live');
  });
});
