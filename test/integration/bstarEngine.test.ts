import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BoundEngine } from '../../shared/node/engine';
import { bstar as bstarSync, lmax as lmaxSync, fDirect } from '../../shared/bstar/index';
import { RopeError } from '../../shared/core/errors';

const isCode = (code: string) => (e: unknown) => e instanceof RopeError && e.code === code;

describe('BoundEngine (worker thread, cache, cancellation)', function () {
  let dir: string;
  let engine: BoundEngine;
  before(function () {
    // The worker npm test built (dist/bstarWorker.js); the build runs once, not per suite.
    const workerScript = join(__dirname, '..', '..', 'dist', 'bstarWorker.js');
    if (!existsSync(workerScript)) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'bstar-worker-'));
    engine = new BoundEngine({ workerScript, cacheSize: 4 });
  });
  after(async () => {
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('computes b* off the main thread, reports the CPU backend, then answers from the cache', async () => {
    const fractions: number[] = [];
    const r = await engine.bstar(2048, 128, { onProgress: (f) => fractions.push(f) });
    assert.equal(r.backend, 'cpu');
    assert.equal(r.cached, false);
    assert.equal(r.bstar, bstarSync(2048, 128).bstar);
    assert.ok(fractions.length > 0 && fractions[fractions.length - 1] === 1);
    const again = await engine.bstar(2048, 128);
    assert.equal(again.cached, true);
    assert.equal(again.bstar, r.bstar);
    assert.equal(engine.peekBstar(2048, 128)?.bstar, r.bstar);
  });

  it('starts from a cached shorter length (its b* is a lower bound) and still returns the exact b* with a witness', async () => {
    await engine.bstar(1500, 96);
    const r = await engine.bstar(3000, 96);
    const ref = bstarSync(3000, 96).bstar;
    assert.ok(Math.abs(r.bstar - ref) / ref < 1e-9, `${r.bstar} vs ${ref}`);
    assert.ok(r.witness && r.witness.base < r.bstar && fDirect(r.witness.base, 96, r.witness.m) < 0);
  });

  it('auto stays on the CPU below the GPU crossover without asking for an adapter; without an adapter gpu is refused with a reason', async () => {
    let probes = 0;
    const none = new BoundEngine({
      workerScript: join(__dirname, '..', '..', 'dist', 'bstarWorker.js'),
      gpuProbe: () => {
        probes++;
        return { available: false, software: false, adapter: 'none', precise: false, reason: 'no adapter (test)' };
      },
      adapterProbe: async () => ({ info: null, reason: 'no adapter (test)' }),
    });
    try {
      const r = await none.bstar(1024, 64, { backend: 'auto' });
      assert.equal(r.backend, 'cpu');
      assert.match(r.backendReason, /below the GPU crossover/);
      assert.equal(probes, 0);
      await assert.rejects(
        none.bstar(1500, 64, { backend: 'gpu' }),
        (e: unknown) => e instanceof RopeError && /gpu backend unavailable: no adapter \(test\)/.test(e.message),
      );
      // Changed with issue 36: auto decides b* without asking for an adapter at all (the GPU would take only
      // the exact scans), so the server never loads Dawn for it; proofs, parallel work, do ask.
      const asked = probes;
      const far = await none.chooseBackend('auto', 1 << 20, 64);
      assert.equal(far.backend, 'cpu');
      assert.match(far.reason, /only the exact scans/);
      assert.equal(probes, asked);
      assert.deepEqual(await none.chooseProofBackend('auto', 64), { backend: 'cpu', reason: 'auto: no GPU (no adapter (test))' });
    } finally {
      await none.dispose();
    }
  });

  it('lmax and threshold run on the worker', async () => {
    assert.deepEqual(await engine.lmax(1e4, 128, 20000), { lmax: lmaxSync(1e4, 128, 20000), backend: 'cpu' });
    const t = await engine.threshold(1024, 128);
    assert.ok(t.threshold >= t.bstar && t.threshold < t.certifiedAbove);
  });

  it('a cancelled long b* stops within 50 ms and the worker is free again', async () => {
    const ac = new AbortController();
    // cpu: the sweep itself is what is cancelled here (auto would first open a WebGPU adapter where one
    // exists, a one-time ~1 s job on the worker; the cancel releases the caller but that job finishes).
    const p = engine.bstar(1 << 20, 128, { signal: ac.signal, backend: 'cpu' });
    await new Promise((r) => setTimeout(r, 150));
    const t0 = Date.now();
    ac.abort();
    await assert.rejects(p, isCode('cancelled'));
    assert.ok(Date.now() - t0 < 50, `released after ${Date.now() - t0} ms`);
    // The worker stops at its next batch boundary: a small job right after completes promptly.
    const t1 = Date.now();
    await engine.lmax(5e5, 128, 4096);
    assert.ok(Date.now() - t1 < 1000, `next job waited ${Date.now() - t1} ms`);
    assert.equal(engine.peekBstar(1 << 20, 128), undefined);
  });

  it('bad input rejects with a RopeError, never hangs', async () => {
    await assert.rejects(engine.bstar(0, 128), isCode('invalid-length'));
    await assert.rejects(engine.bstar(1024, 7), isCode('invalid-dimension'));
    await assert.rejects(engine.lmax(1, 128, 1024), isCode('invalid-base'));
    await assert.rejects(engine.lmax(Number.NaN, 128, 1024), isCode('invalid-base'));
    await assert.rejects(engine.bstar(1 << 30, 128), isCode('unsupported-length'));
  });
});
