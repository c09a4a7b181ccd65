/**
 * The WebGPU backend where an adapter exists: here and in CI that is Mesa's llvmpipe through EGL
 * (surfaceless, OpenGL ES, WebGPU compatibility mode; .ci/run installs the packages), on a lent
 * machine a real GPU. Each suite is skipped, with the reason, where there is none.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BoundEngine, GpuInfoValue } from '../../shared/node/engine';
import { run } from '../../server/cli/bound';
import { GpuBridge } from '../../shared/node/gpuBridge';
import { packFrequencies, screenEpsilon } from '../../shared/node/fbWebgpu';
import { fAt, thetas } from '../../shared/rope/fb';

const workerScript = join(__dirname, '..', '..', 'dist', 'bstarWorker.js');
const built = existsSync(workerScript) && existsSync(join(__dirname, '..', '..', 'dist', 'webgpuWorker.js'));

describe('WebGPU backend (llvmpipe here, a GPU where one is lent)', function () {
  this.timeout(300_000);
  let engine: BoundEngine;
  let info: GpuInfoValue;
  before(async function () {
    if (!built) {
      console.log('      skipped: dist/ not built (node esbuild.mjs)');
      this.skip();
    }
    process.env.EGL_PLATFORM ??= 'surfaceless';
    engine = new BoundEngine({ workerScript });
    // As --backend gpu asks (insist): auto only describes a software rasterizer, it does not open or calibrate it.
    info = await engine.gpuInfo(128, true);
    if (!info.available) {
      console.log(`      skipped: ${info.reason}`);
      this.skip();
    }
  });
  after(async () => {
    await engine?.dispose();
  });

  it('the adapter passes the calibration against float64 (error within the proven ε)', () => {
    assert.equal(info.precise, true, info.reason);
    assert.ok(info.maxError! > 0 && info.maxError! * 2 <= info.eps!, `${info.maxError} vs ε ${info.eps}`);
  });

  // 2^18 at d = 128 and 2^20 at d = 64: where the H100 run hung or died (a garbage-collected Dawn
  // instance), and where a screen that chose its own witnesses ended a few ulps away from the CPU.
  for (const [L, d] of [
    [4096, 64],
    [6000, 128],
    [12288, 96],
    [100_003, 64],
    [1 << 18, 128],
    [1 << 20, 64],
  ] as const) {
    it(`b*(${L}, ${d}) on the GPU is the CPU's to the last bit: value, witness and certificate`, async () => {
      const cpu = new BoundEngine({ workerScript });
      try {
        const c = await cpu.bstar(L, d, { backend: 'cpu' });
        const g = await engine.bstar(L, d, { backend: 'gpu' });
        assert.equal(g.backend, 'gpu');
        assert.ok(g.gpu && g.gpu.gpuScans > 0 && g.gpu.cpuScans === 0 && !g.gpu.fallback, JSON.stringify(g.gpu));
        assert.equal(g.bstar, c.bstar);
        assert.deepEqual(g.witness, c.witness);
        assert.deepEqual(g.certificate, c.certificate);
      } finally {
        await cpu.dispose();
      }
    });
  }

  it('a GPU job reports progress, is cancelled like a CPU one, and the engine answers the next job', async () => {
    const ac = new AbortController();
    let progressed!: () => void;
    const firstProgress = new Promise<void>((r) => (progressed = r));
    const p = engine.bstar(1 << 20, 128, { backend: 'gpu', signal: ac.signal, onProgress: (f) => f > 0 && progressed() });
    await firstProgress;
    ac.abort();
    await assert.rejects(p, (e: Error & { code?: string }) => e.code === 'cancelled');
    assert.equal(engine.peekBstar(1 << 20, 128), undefined);
    const cpu = new BoundEngine({ workerScript });
    try {
      const [g, c] = await Promise.all([engine.bstar(20_000, 128, { backend: 'gpu' }), cpu.bstar(20_000, 128, { backend: 'cpu' })]);
      assert.equal(g.backend, 'gpu');
      assert.equal(g.bstar, c.bstar);
    } finally {
      await cpu.dispose();
    }
  });

  it('rope-lens bound --backend gpu prints the same b* as --backend cpu, and --json says which backend ran and why', async () => {
    const outs: Record<string, { bstar: number; backend: string; backendReason: string; gpu?: unknown }> = {};
    for (const b of ['cpu', 'gpu']) {
      const lines: string[] = [];
      assert.equal(await run(['--length', '8k', '--head-dim', '64', '--backend', b, '--json'], { out: (t) => lines.push(t), err: () => {} }), 0);
      outs[b] = JSON.parse(lines.join(''));
    }
    assert.equal(outs.gpu.bstar, outs.cpu.bstar);
    assert.equal(outs.cpu.backend, 'cpu');
    assert.equal(outs.gpu.backend, 'gpu');
    assert.match(outs.gpu.backendReason, /requested \(--backend gpu\): .*WebGPU on /);
    assert.ok(outs.gpu.gpu);
    // auto on a software rasterizer, or below the crossover, stays on the CPU and says why.
    const lines: string[] = [];
    await run(['--length', '8k', '--head-dim', '64', '--json'], { out: (t) => lines.push(t), err: () => {} });
    assert.match(JSON.parse(lines.join('')).backendReason, /^auto: /);
  });
});

describe('WGSL f_b screen kernel (through the bridge to its device thread)', function () {
  this.timeout(120_000);
  it('single values agree with float64 within the proven ε at m up to 2^24; chunk minima are minima', function () {
    if (!built) {
      console.log('      skipped: dist/ not built (node esbuild.mjs)');
      this.skip();
    }
    process.env.EGL_PLATFORM ??= 'surfaceless';
    const { bridge, reason } = GpuBridge.open();
    if (!bridge) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    try {
      const bases = [2e4, 1e6, 6.5e7];
      for (const d of [64, 128]) {
        const th = bases.map((b) => thetas(b, d));
        const count = 300,
          stride = 55_001,
          offset = 12_345;
        const out = bridge!.minima({ freq: packFrequencies(th), n: d / 2, bases: bases.length, count, stride, offset, chunk: 1 });
        let worst = 0;
        for (let j = 0; j < bases.length; j++)
          for (let k = 0; k < count; k++) worst = Math.max(worst, Math.abs(out[j * count + k] - fAt(th[j], offset + k * stride)));
        assert.ok(worst > 0 && worst <= screenEpsilon(d / 2), `d = ${d}: ${worst} vs ε ${screenEpsilon(d / 2)}`);
        const grouped = bridge!.minima({ freq: packFrequencies(th), n: d / 2, bases: bases.length, count, stride, offset, chunk: 4 });
        assert.equal(grouped[1], Math.min(out[4], out[5], out[6], out[7]));
      }
    } finally {
      bridge!.dispose();
    }
  });

  it('keeps answering through many screens and garbage collections (the H100 hang: a collected Dawn instance)', function () {
    if (!built) this.skip();
    process.env.EGL_PLATFORM ??= 'surfaceless';
    const { bridge, reason } = GpuBridge.open();
    if (!bridge) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    try {
      // Before the instance was held, the device thread aborted or stopped answering 37–64 screens in
      // (std::system_error, a mutex assertion, or a mapAsync that never settled), once a GC had run.
      const L = 1 << 18;
      for (let r = 0; r < 100; r++) {
        const th = thetas(1e5 * (1 + r), 128);
        const out: Float32Array = bridge!.minima({ freq: packFrequencies([th]), n: 64, bases: 1, count: L, chunk: 2 });
        assert.equal(out.length, L / 2);
        if (r % 50 === 0) assert.ok(Math.abs(out[7] - Math.min(fAt(th, 14), fAt(th, 15))) <= screenEpsilon(64));
      }
    } finally {
      bridge!.dispose();
    }
  });
});

describe('bench --kernels: WebGPU rows in Node (llvmpipe here: plumbing and accuracy, not GPU speed)', function () {
  this.timeout(300_000);
  it('the device copy, RoPE in both layouts and the f_b screen run on the adapter, each with its error against float64', function () {
    if (!built) this.skip();
    const r = spawnSync(
      process.execPath,
      [join(__dirname, '..', '..', 'dist', 'cli.js'), 'bench', '--kernels', '--only', 'webgpu', '--repeats', '2', '--warmup', '1', '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM ?? 'surfaceless' },
        timeout: 280_000,
      },
    );
    assert.equal(r.status, 0, r.stderr.slice(-2000));
    const run = JSON.parse(r.stdout) as {
      environment: string;
      results: { id: string; backend: string; error?: string; medianMs?: number; maxAbsError?: number; ratioToMemcpy?: number }[];
    };
    if (/no WebGPU/.test(run.environment)) {
      console.log(`      skipped: ${run.environment}`);
      this.skip();
    }
    const row = (id: string) => {
      const x = run.results.find((q) => q.id === id);
      assert.ok(x && !x.error && x.medianMs! > 0 && /^WebGPU: /.test(x.backend), `${id}: ${JSON.stringify(x)}`);
      return x!;
    };
    assert.equal(row('memcpy-webgpu').maxAbsError, 0);
    for (const id of ['rope-rotate-half-webgpu', 'rope-interleaved-webgpu']) {
      const x = row(id);
      assert.ok(x.maxAbsError! < 1e-5 && x.ratioToMemcpy! > 0, `${id}: ${x.maxAbsError}`);
    }
    assert.ok(row('fb-webgpu').maxAbsError! <= screenEpsilon(64), 'f_b screen error within the proven ε');
  });
});
