/**
 * RoPE kernels and the benchmark runner. The float64 reference is itself checked against
 * properties that hold for any rotation (one-hot inputs, norm per pair, inverse rotation, the
 * permutation between the two layouts); every implementation (plain TypeScript, gpu.js in cpu
 * mode and in its default mode, which is WebAssembly here) is then checked against it.
 */
import { strict as assert } from 'node:assert';
import { GPU } from 'gpu.js';
import {
  RopeShape,
  ROPE_LAYOUTS,
  applyRopeReference,
  applyRopeTs,
  createRopeKernel,
  maxAbsError,
  randomTensor,
  ropeTables,
  MAX_ROPE_ELEMENTS,
} from '../../shared/gpu/ropeKernels';
import { defaultInvFreq } from '../../shared/rope/invFreq';
import { quantile, summarize } from '../../shared/kernelBench/stats';
import { BenchCase, memcpyCase, runBenchmarks } from '../../shared/kernelBench/runner';
import { SIZES, benchConfig, fbCases, fbMinDirect, gpuFbScan, ropeCases } from '../../shared/kernelBench/cases';
import { RopeError } from '../../shared/core/errors';
import { parseBenchPageMessage } from '../../shared/kernelBench/messages';

const shape: RopeShape = { tokens: 7, heads: 3, headDim: 16, rotaryDim: 12 };
const n = shape.tokens * shape.heads * shape.headDim;
const inv = defaultInvFreq(10000, shape.rotaryDim);
// Positions from 5000 on: angles of thousands of radians, where float32 angle arithmetic would fail.
const tables = ropeTables(inv, shape.tokens, 5000);

describe('RoPE float64 reference', () => {
  it('rotates a one-hot channel exactly as the layout pairs it', () => {
    const t = 3,
      h = 1,
      i = 2,
      half = shape.rotaryDim / 2;
    const angle = (5000 + t) * inv[i];
    const at = (d: number) => (t * shape.heads + h) * shape.headDim + d;
    // rotate-half: channel i pairs with i + half.
    const x = new Float64Array(n);
    x[at(i)] = 1;
    const rh = applyRopeReference(x, shape, 'rotate-half', tables);
    assert.ok(Math.abs(rh[at(i)] - Math.cos(angle)) < 1e-12);
    assert.ok(Math.abs(rh[at(i + half)] - Math.sin(angle)) < 1e-12);
    // interleaved: channel 2i pairs with 2i + 1.
    const y = new Float64Array(n);
    y[at(2 * i + 1)] = 1;
    const il = applyRopeReference(y, shape, 'interleaved', tables);
    assert.ok(Math.abs(il[at(2 * i)] + Math.sin(angle)) < 1e-12);
    assert.ok(Math.abs(il[at(2 * i + 1)] - Math.cos(angle)) < 1e-12);
    // Every other channel stays 0.
    assert.equal(
      rh.reduce((s, v) => s + (v !== 0 ? 1 : 0), 0),
      2,
    );
  });

  it("keeps each pair's norm, passes non-rotary channels through, and inverts with −angle", () => {
    const x = randomTensor(n, 7);
    const inverse = { ...tables, sin64: tables.sin64.map((v) => -v) };
    for (const layout of ROPE_LAYOUTS) {
      const out = applyRopeReference(x, shape, layout, tables);
      const back = applyRopeReference(out, shape, layout, inverse);
      assert.ok(maxAbsError(back, x).maxAbs < 1e-12, `${layout}: inverse`);
      for (let row = 0; row < shape.tokens * shape.heads; row++) {
        const b = row * shape.headDim;
        for (let d = shape.rotaryDim; d < shape.headDim; d++) assert.equal(out[b + d], x[b + d]);
        let nx = 0,
          no = 0;
        for (let d = 0; d < shape.rotaryDim; d++) {
          nx += x[b + d] ** 2;
          no += out[b + d] ** 2;
        }
        assert.ok(Math.abs(nx - no) < 1e-12);
      }
    }
  });

  it('the two layouts are the same rotation up to a channel permutation', () => {
    const x = randomTensor(n, 99);
    const half = shape.rotaryDim / 2;
    // interleaved position 2i ↔ rotate-half position i; 2i+1 ↔ i + half.
    const perm = (d: number) => (d >= shape.rotaryDim ? d : d % 2 === 0 ? d / 2 : (d - 1) / 2 + half);
    const xp = new Float32Array(n);
    for (let row = 0; row < shape.tokens * shape.heads; row++) {
      const b = row * shape.headDim;
      for (let d = 0; d < shape.headDim; d++) xp[b + perm(d)] = x[b + d];
    }
    const il = applyRopeReference(x, shape, 'interleaved', tables);
    const rh = applyRopeReference(xp, shape, 'rotate-half', tables);
    for (let row = 0; row < shape.tokens * shape.heads; row++) {
      const b = row * shape.headDim;
      for (let d = 0; d < shape.headDim; d++) assert.ok(Math.abs(il[b + d] - rh[b + perm(d)]) < 1e-15);
    }
  });
});

describe('RoPE kernels against the float64 reference', () => {
  const x = randomTensor(n, 3);
  const gpus = [new GPU({ mode: 'cpu' }), new GPU()];
  after(() => {
    for (const g of gpus) void g.destroy();
  });

  for (const layout of ROPE_LAYOUTS) {
    it(`${layout}: TypeScript baseline and gpu.js kernels agree to float32 rounding`, () => {
      const ref = applyRopeReference(x, shape, layout, tables);
      const ts = maxAbsError(applyRopeTs(x, shape, layout, tables), ref);
      // float32 data and tables: a few units of 2^-24 relative to values of size ~1.
      assert.ok(ts.maxAbs < 5e-7, `TypeScript ${ts.maxAbs}`);
      for (const g of gpus) {
        const k = createRopeKernel(g, shape, layout);
        const e = maxAbsError(k.run(x, tables), ref);
        assert.ok(e.maxAbs < 5e-7, `${k.backend()}: ${e.maxAbs}`);
        assert.match(k.backend(), /Kernel$/);
        k.destroy();
      }
    });
  }

  it('would catch a wrong kernel (the check is not vacuous)', () => {
    const ref = applyRopeReference(x, shape, 'rotate-half', tables);
    const wrong = applyRopeTs(x, shape, 'interleaved', tables);
    assert.ok(maxAbsError(wrong, ref).maxAbs > 0.1);
  });

  it('refuses shapes it cannot index exactly', () => {
    assert.throws(() => createRopeKernel(gpus[0], { tokens: 1 << 14, heads: 32, headDim: 128, rotaryDim: 128 }, 'interleaved'), RopeError);
    assert.throws(() => createRopeKernel(gpus[0], { ...shape, rotaryDim: 13 }, 'interleaved'), RopeError);
  });
});

describe('benchmark cases', () => {
  it('every RoPE case verifies against float64 after running', async () => {
    const cfg = { ...benchConfig('small'), shape: { tokens: 16, heads: 2, headDim: 64, rotaryDim: 64 } };
    const cases = ropeCases(cfg, [{ label: 'gpu.js cpu', gpu: new GPU({ mode: 'cpu' }) }]);
    assert.equal(cases.length, 4);
    for (const c of cases) {
      await c.run();
      const v = c.verify!();
      assert.ok(v.maxAbs < 5e-7 && v.refMax > 0.5, `${c.id}: ${v.maxAbs}`);
    }
  });

  it('f_b scan baseline matches direct cosines; direct minimum matches a hand check', async () => {
    const cfg = { ...benchConfig('small'), fbLength: 512, fbBases: 3, shape: { tokens: 1, heads: 1, headDim: 16, rotaryDim: 16 } };
    const [ts] = fbCases(cfg, []);
    await ts.run();
    assert.ok(ts.verify!().maxAbs < 1e-9);
    // The b* engine's gpu.js screen (cpu mode here) in the same harness: float32 minima near float64.
    const [, gpuCase] = fbCases(cfg, [gpuFbScan('gpu.js cpu', new GPU({ mode: 'cpu' }))]);
    await gpuCase.run();
    const e = gpuCase.verify!();
    assert.ok(e.maxAbs < 1e-4 && e.refMax > 0.1, `screen error ${e.maxAbs}`);
    assert.equal(gpuCase.backend(), 'CPUKernel');
    gpuCase.teardown?.();
    // f_b(0) = d/2 and f ≤ d/2 everywhere: the minimum over [0, 1) is exactly d/2.
    assert.deepEqual(Array.from(fbMinDirect([1e4], 16, 1)), [8]);
  });
});

describe('benchmark runner', () => {
  it("quantiles match numpy's linear interpolation", () => {
    assert.equal(quantile([4, 1, 3, 2], 0.5), 2.5);
    assert.equal(quantile([1, 2, 3, 4, 5], 0.25), 2);
    assert.equal(quantile([10, 20], 0.75), 17.5);
    const s = summarize([3, 1, 2, 100]);
    assert.equal(s.median, 2.5);
    assert.equal(s.max, 100);
    assert.throws(() => quantile([], 0.5), RopeError);
  });

  /** A case whose every call takes `ms` on a fake clock. */
  function fake(clock: { t: number }, id: string, ms: number, bytes?: number, kind: BenchCase['kind'] = 'rope'): BenchCase {
    let calls = 0;
    return {
      id,
      label: id,
      kind,
      impl: 'fake',
      backend: () => `calls=${calls}`,
      elements: 1000,
      bytes,
      run: () => {
        calls++;
        clock.t += ms;
      },
      verify: () => ({ maxAbs: 0.5, refMax: 2 }),
    };
  }

  it('times warm-up and repeats separately and derives throughput and the memcpy ratio', async () => {
    const clock = { t: 0 };
    const run = await runBenchmarks(
      [fake(clock, 'mem', 1, 8e6, 'memcpy'), fake(clock, 'k', 4, 8e6), fake(clock, 'scan', 2)],
      { warmup: 2, repeats: 5 },
      'test',
      { now: () => clock.t },
    );
    const [mem, k, scan] = run.results;
    assert.equal(mem.samplesMs.length, 5);
    assert.equal(mem.backend, 'calls=7', 'warm-up calls ran but were not timed');
    assert.equal(mem.gbPerSec, 8); // 8e6 B in 1 ms
    assert.equal(k.gbPerSec, 2);
    assert.equal(k.ratioToMemcpy, 0.25);
    assert.equal(k.elementsPerSec, 250000);
    assert.equal(k.relError, 0.25);
    assert.equal(scan.gbPerSec, null, 'compute-bound: no GB/s');
    assert.equal(run.memcpyGBs, 8);
  });

  it('stops between calls when cancelled and records a failing case without stopping', async () => {
    const clock = { t: 0 };
    const signal = { aborted: false };
    const boom: BenchCase = {
      ...fake(clock, 'boom', 1),
      run: () => {
        throw new Error('no WebGL2');
      },
    };
    let seen = 0;
    const run = await runBenchmarks([boom, fake(clock, 'a', 1), fake(clock, 'b', 1)], { warmup: 1, repeats: 3 }, 'test', {
      now: () => clock.t,
      signal,
      onProgress: (done) => {
        seen = done;
        if (done >= 8) signal.aborted = true;
      },
    });
    assert.equal(run.results[0].error, 'no WebGL2');
    assert.equal(run.cancelled, true);
    assert.equal(run.results.length, 2, 'the third case never started');
    assert.ok(seen >= 8);
  });

  it('memcpy case copies correctly', async () => {
    const c = memcpyCase(1000);
    await c.run();
    assert.deepEqual(c.verify!(), { maxAbs: 0, refMax: 999 });
  });
});

describe('kernel page messages', () => {
  it('accepts a real run and rejects malformed or oversized ones', async () => {
    const clock = { t: 0 };
    const c: BenchCase = {
      id: 'x',
      label: 'x',
      kind: 'rope',
      impl: 'fake',
      backend: () => 'b',
      elements: 10,
      bytes: 80,
      run: () => {
        clock.t += 1;
      },
    };
    const run = JSON.parse(JSON.stringify(await runBenchmarks([c], { warmup: 1, repeats: 2 }, 'env', { now: () => clock.t })));
    assert.equal(parseBenchPageMessage({ type: 'webview-results', run })?.type, 'webview-results');
    assert.deepEqual(parseBenchPageMessage({ type: 'export' }), { type: 'export' });
    const bad: unknown[] = [
      null,
      { type: 'export', path: '/etc/passwd' },
      { type: 'webview-results' },
      { type: 'webview-results', run: { ...run, results: [{ ...run.results[0], medianMs: 'fast' }] } },
      { type: 'webview-results', run: { ...run, results: new Array(65).fill(run.results[0]) } },
      { type: 'webview-results', run: { ...run, environment: 'x'.repeat(5000) } },
      { type: 'run-shell', cmd: 'rm -rf /' },
    ];
    for (const b of bad) assert.equal(parseBenchPageMessage(b), undefined, JSON.stringify(b)?.slice(0, 80));
  });
});

describe('kernel bench sizes', () => {
  it('every --size the CLI offers builds a valid configuration (large is 2^24 elements, the exact-index limit)', () => {
    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      const c = benchConfig(size);
      assert.ok(c.shape.tokens * c.shape.heads * c.shape.headDim <= MAX_ROPE_ELEMENTS, size);
    }
  });
});
