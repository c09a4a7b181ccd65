/**
 * Hostile bound requests through the BoundEngine's own API: a long b* (L = 2^20, d = 64) is
 * cancelled and the worker really stops (a tiny job queued behind it answers promptly), and
 * lengths beyond the supported maximum are refused at once instead of hanging. The assertions
 * are generous (shared machine); `npm run bench` records the precise cancellation time.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BoundEngine } from '../../shared/node/engine';
import { bstar as bstarSync, lmax as lmaxSync } from '../../shared/bstar/index';
import { RopeError } from '../../shared/core/errors';
import { createBoundComputer } from '../../server/boundComputer';
import { defaultWorkerScript } from '../../shared/node/engine';

describe('hostile bound requests (BoundEngine)', function () {
  this.timeout(60000);
  let dir: string;
  let engine: BoundEngine;
  before(function () {
    // The worker npm test built (dist/bstarWorker.js); the build runs once, not per suite.
    const workerScript = join(__dirname, '..', '..', 'dist', 'bstarWorker.js');
    if (!existsSync(workerScript)) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'hostile-bstar-'));
    engine = new BoundEngine({ workerScript });
  });
  after(async () => {
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cancelling b*(2^20, 64) releases the caller and frees the worker', async () => {
    const ac = new AbortController();
    let progressed = false;
    const job = engine.bstar(1 << 20, 64, {
      signal: ac.signal,
      onProgress: () => {
        progressed = true;
      },
    });
    const outcome = job.then(
      () => 'finished',
      (e: unknown) => (e instanceof RopeError ? e.code : String(e)),
    );
    // Let the sweep get going on the worker before cancelling.
    const started = Date.now();
    while (!progressed && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    ac.abort();
    assert.equal(await outcome, 'cancelled');
    const released = Date.now() - t0;
    // The worker runs one job at a time: this one answers only after the cancelled sweep stopped.
    const next = await engine.lmax(5e5, 64, 64);
    const freed = Date.now() - t0;
    assert.deepEqual(next, { lmax: lmaxSync(5e5, 64, 64), backend: 'cpu' });
    assert.ok(released < 500, `caller released after ${released} ms`);
    assert.ok(freed < 1000, `worker free after ${freed} ms (a full b*(2^20, 64) takes seconds)`);
    assert.equal(engine.peekBstar(1 << 20, 64), undefined, 'a cancelled answer is not cached');
  });

  it('lengths beyond the supported maximum are refused at once, never computed', async () => {
    for (const L of [1e12, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      const t0 = Date.now();
      await assert.rejects(engine.bstar(L, 128), (e: unknown) => e instanceof RopeError && /length/.test(e.code));
      await assert.rejects(engine.lmax(1e4, 128, L), (e: unknown) => e instanceof RopeError && /length/.test(e.code));
      assert.ok(Date.now() - t0 < 500, `L=${L} refused after ${Date.now() - t0} ms`);
    }
  });

  it('absurd bases and head dims are refused with a RopeError', async () => {
    for (const base of [1, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await assert.rejects(engine.lmax(base, 128, 4096), (e: unknown) => e instanceof RopeError && e.code === 'invalid-base', `base ${base}`);
    }
    for (const d of [0, 127, -2, 1.5]) {
      await assert.rejects(engine.bstar(4096, d), (e: unknown) => e instanceof RopeError && e.code === 'invalid-dimension', `d ${d}`);
    }
    // 1e300 is a valid (absurdly large) base: lmax answers quickly, no overflow into NaN.
    const huge = await engine.lmax(1e300, 128, 4096);
    assert.ok(huge.lmax === null || Number.isFinite(huge.lmax), `lmax(1e300) = ${huge.lmax}`);
  });

  it('the server stops an idle bound worker and starts a fresh one for the next question', async function () {
    if (!existsSync(defaultWorkerScript())) this.skip(); // needs dist/bstarWorker.js (npm run build)
    const computer = createBoundComputer('cpu', 50);
    try {
      assert.equal(await computer.lmax(1e4, 128, 20000), lmaxSync(1e4, 128, 20000));
      await new Promise((r) => setTimeout(r, 300)); // past the idle limit: the worker was terminated
      assert.equal(await computer.lmax(5e5, 128, 4096), lmaxSync(5e5, 128, 4096));
      assert.equal(await computer.bstar(1024, 64), bstarSync(1024, 64).bstar);
    } finally {
      await computer.dispose?.();
    }
  });
});
