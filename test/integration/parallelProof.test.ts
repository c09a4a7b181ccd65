/**
 * The CLI's proof on several threads (shared/node/parallelProof.ts, the built dist/proofWorker.js)
 * gives the single-threaded proof's verdict and witness: robust and failing candidates at 16,384 and
 * 32,768 tokens (some fail in the grid, some only between grid points), split into 2 and 3 threads.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { robustNeighbourhood } from '../../shared/bstar/index';
import { parallelProver } from '../../shared/node/parallelProof';
import { buildOnce } from '../support/build';

const ROOT = join(__dirname, '..', '..');

describe('neighbourhood proofs split across threads', function () {
  this.timeout(120000);
  before(() => buildOnce());

  for (const threads of [2, 3]) {
    it(`${threads} threads: the same verdicts and witnesses as one`, () => {
      const prove = parallelProver({ threads, minLength: 0, script: join(ROOT, 'dist', 'proofWorker.js') });
      let failing = 0;
      for (const [L, d, candidates] of [
        [16384, 128, [700000, 770000, 830000, 1300000, 2000000]],
        [32768, 64, [5.5e7, 6e7, 9e7, 1.2e8]],
      ] as const) {
        for (const c of candidates) {
          const one = robustNeighbourhood(c, d, L);
          const split = prove(c, d, L);
          assert.equal(split.robust, one.robust, `${c} at ${L}, d = ${d}`);
          if (!one.robust && !split.robust) {
            failing++;
            assert.deepEqual(split.witness, one.witness, `${c} at ${L}, d = ${d}`);
            assert.equal(split.undecided, one.undecided);
          }
        }
      }
      assert.ok(failing >= 2, `only ${failing} failing candidates: the witness path is not exercised`);
    });
  }

  it('while the caller blocks on the threads it is ticked (onWait), so a live line can be redrawn', () => {
    let ticks = 0;
    const prove = parallelProver({ threads: 2, minLength: 0, script: join(ROOT, 'dist', 'proofWorker.js'), waitTickMs: 1, onWait: () => ticks++ });
    assert.equal(prove(830000, 128, 32768).robust, robustNeighbourhood(830000, 128, 32768).robust);
    assert.ok(ticks > 0, 'no wait tick during a proof on two threads');
  });

  it('below its minimum length it proves on the calling thread (no worker script needed)', () => {
    const prove = parallelProver({ threads: 4, script: join(ROOT, 'no-such-worker.js') });
    assert.deepEqual(prove(830000, 128, 16384).robust, robustNeighbourhood(830000, 128, 16384).robust);
  });
});
