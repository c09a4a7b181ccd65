import { strict as assert } from 'node:assert';
import { CachedBoundOracle, BoundActivity } from '../../server/boundOracle';
import { bstar } from '../../shared/bstar/index';

describe('bound progress (fractions from the sweep to the server activity)', () => {
  it("the oracle forwards a b* job's fractions with its label while it is in flight, not after", async () => {
    const activity: BoundActivity[] = [];
    let report: ((f: number) => void) | undefined;
    let finish: ((v: number) => void) | undefined;
    const oracle = new CachedBoundOracle(
      {
        bstar: (_l, _d, onProgress) => {
          report = onProgress;
          return new Promise<number>((r) => {
            finish = r;
          });
        },
        threshold: async () => 1,
        lmax: async () => null,
        robust: async () => null,
      },
      () => {},
      (a) => activity.push(a),
    );
    assert.equal(oracle.bstar(4096, 64), undefined);
    report!(0.25);
    report!(0.75);
    finish!(123);
    await oracle.idle();
    report!(0.9); // late: ignored
    const fractions = activity.filter((a) => a.fraction !== undefined);
    assert.deepEqual(
      fractions.map((a) => a.fraction),
      [0.25, 0.75],
    );
    assert.ok(fractions.every((a) => a.label === 'b*(4096, 64)' && a.pending === 1));
    assert.equal(oracle.bstar(4096, 64), 123);
  });

  it('the sweep reports rising fractions inside the last link, ending at 1', () => {
    const fractions: number[] = [];
    bstar(1 << 17, 128, { onProgress: (f) => fractions.push(f) });
    assert.equal(fractions[fractions.length - 1], 1);
    for (let k = 1; k < fractions.length; k++) assert.ok(fractions[k] >= fractions[k - 1], `fractions fall at ${k}: ${fractions[k - 1]} → ${fractions[k]}`);
    // More reports than links: progress moves while the long last link runs.
    const links = Math.ceil(Math.log2((1 << 17) / 64)) + 1;
    assert.ok(fractions.length > links, `${fractions.length} reports for ${links} links`);
  });
});
