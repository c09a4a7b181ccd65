/**
 * Proofs split into parts on a shared pool of threads (shared/node/splitProver.ts, the table job's
 * prover, with the proof worker bundled here): the same verdicts and witnesses as one thread, for
 * robust and failing candidates, with parts of several callers and priorities in the queue at once
 * and the later priorities capped to one thread.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { robustNeighbourhood } from '../../shared/bstar/index';
import { partPool } from '../../shared/node/splitProver';

const ROOT = join(__dirname, '..', '..');

describe('proofs split into parts on a shared pool', function () {
  this.timeout(120000);
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-split-'));
    await build({
      entryPoints: [join(ROOT, 'shared/node/proofWorker.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: join(dir, 'proofWorker.js'),
      logLevel: 'warning',
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the single-threaded verdicts and witnesses, whatever the split and the priority', async () => {
    const pool = partPool(join(dir, 'proofWorker.js'), 3, 1);
    try {
      const cases = [
        [16384, 128, [700000, 770000, 830000, 1300000], 0, 3],
        [32768, 64, [5.5e7, 6e7, 9e7, 1.2e8], 1, 2],
      ] as const;
      const asked = cases.flatMap(([L, d, cs, priority, parts]) =>
        cs.map((c) => ({ L, d, c, priority, parts, split: pool.prove(c, d, L, { parts, priority }) })),
      );
      assert.ok(pool.waiting() > 0, 'every proof was asked before any answered: parts wait in the queue');
      let failing = 0;
      for (const a of asked) {
        const one = robustNeighbourhood(a.c, a.d, a.L);
        const split = await a.split;
        assert.equal(split.robust, one.robust, `${a.c} at ${a.L}, d = ${a.d}`);
        if (!one.robust && !split.robust) {
          failing++;
          assert.deepEqual(split.witness, one.witness, `${a.c} at ${a.L}, d = ${a.d}`);
          assert.equal(split.undecided, one.undecided);
        }
      }
      assert.ok(failing >= 2, `only ${failing} failing candidates: the witness path is not exercised`);
      assert.equal(pool.waiting(), 0);
    } finally {
      await pool.close();
    }
  });
});
