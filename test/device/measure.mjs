// The device measurement (issue 29): b* on the GPU against the CPU, and the WebGPU kernel rows.
//   node measure.mjs <path of cli.js> <output folder>      (test/device/run.sh calls it)
// MEASURE_SCALE=small shrinks every length (a local end-to-end check on llvmpipe).
// Writes measure.json, measure.txt, bench.json, bench.txt and one .log per run into the output folder.
import { spawn } from 'node:child_process';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';

const [cli, out] = process.argv.slice(2);
if (!cli || !out) {
  console.error('usage: node measure.mjs <cli.js> <out>');
  process.exit(2);
}
const small = process.env.MEASURE_SCALE === 'small';
const BIG = small ? [1 << 11, 1 << 12, 1 << 13] : [1 << 20, 1 << 22, 1 << 24];
const CROSS = small ? [1 << 9, 1 << 10] : [1 << 14, 1 << 16, 1 << 18];
const DIMS = [64, 128];
const LIMIT_MS = small ? 300_000 : 240_000;
const logs = [];

/** Same rounding as shared/core/format.ts boundFigure (what `rope-lens bound` prints). */
const printed = (x) => (Math.abs(x) >= 1e7 ? x.toExponential(6) : x.toPrecision(8));

function cliRun(args, label) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let so = '',
      se = '';
    p.stdout.on('data', (d) => {
      so += d;
    });
    p.stderr.on('data', (d) => {
      se += d;
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), LIMIT_MS);
    p.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      logs.push(
        `== ${label}: rope-lens ${args.join(' ')} → exit ${code}, ${wallMs.toFixed(0)} ms\n${se
          .split('\n')
          .filter((l) => !/^Warning: max/.test(l))
          .join('\n')}`,
      );
      let json = null;
      try {
        json = JSON.parse(so);
      } catch {
        /* reported below */
      }
      resolve({ code, wallMs, json, stdout: json ? undefined : so.slice(0, 2000) });
    });
  });
}

const bound = (L, d, backend) => cliRun(['bound', '--length', String(L), '--head-dim', String(d), '--backend', backend, '--json'], `${backend} L=${L} d=${d}`);
const summary = (r) =>
  r.json
    ? {
        bstar: r.json.bstar,
        printed: printed(r.json.bstar),
        ms: r.json.ms,
        wallMs: Math.round(r.wallMs),
        backend: r.json.backend,
        reason: r.json.backendReason,
        gpu: r.json.gpu,
        certificateM: r.json.witness?.m,
      }
    : { error: `exit ${r.code}`, wallMs: Math.round(r.wallMs), stdout: r.stdout };

const t0 = performance.now();
const result = {
  device: existsSync(join(out, 'device.txt')) ? readFileSync(join(out, 'device.txt'), 'utf8').trim() : 'unknown',
  cpu: `${cpus()[0]?.model} ×${cpus().length}`,
  node: process.version,
  scale: small ? 'small' : 'full',
  runs: [],
  crossover: [],
};

// 1. GPU runs one after another (one GPU), nothing else running.
const gpuRuns = new Map();
for (const d of DIMS)
  for (const L of BIG) {
    gpuRuns.set(`${L}:${d}`, await bound(L, d, 'gpu'));
    console.error(`gpu L=${L} d=${d} done`);
  }
// 2. Crossover lengths, both backends, one after another.
for (const L of CROSS) {
  const g = await bound(L, 128, 'gpu');
  const c = await bound(L, 128, 'cpu');
  result.crossover.push({ length: L, headDim: 128, gpu: summary(g), cpu: summary(c), cpuOverGpu: c.json && g.json ? +(c.wallMs / g.wallMs).toFixed(2) : null });
}
console.error('crossover done');
// 3. The long CPU runs in parallel processes (one core each; ~46 s at 2^24 on the lent machine's CPU).
const cpuJobs = [];
for (const d of DIMS) for (const L of BIG) cpuJobs.push(bound(L, d, 'cpu').then((r) => [`${L}:${d}`, r]));
const cpuRuns = new Map(await Promise.all(cpuJobs));
console.error('cpu runs done');
for (const d of DIMS)
  for (const L of BIG) {
    const g = gpuRuns.get(`${L}:${d}`),
      c = cpuRuns.get(`${L}:${d}`);
    const ok = g.json && c.json;
    result.runs.push({
      length: L,
      headDim: d,
      gpu: summary(g),
      cpu: summary(c),
      identicalPrinted: ok ? printed(g.json.bstar) === printed(c.json.bstar) : null,
      relDiff: ok ? Math.abs(g.json.bstar - c.json.bstar) / c.json.bstar : null,
      cpuOverGpuWall: ok ? +(c.wallMs / g.wallMs).toFixed(2) : null,
      cpuOverGpuCompute: ok ? +(c.json.ms / g.json.ms).toFixed(2) : null,
    });
  }
// 4. The WebGPU kernel rows (plus the CPU memory copy they are listed beside).
const bench = await cliRun(
  ['bench', '--kernels', '--size', small ? 'small' : 'large', '--only', 'webgpu', '--repeats', '5', '--warmup', '2', '--json'],
  'bench --kernels',
);
result.bench = bench.json
  ? {
      environment: bench.json.environment,
      rows: bench.json.results.map((r) => ({
        id: r.id,
        label: r.label,
        backend: r.backend,
        medianMs: r.medianMs,
        elementsPerSec: r.elementsPerSec,
        gbPerSec: r.gbPerSec,
        ratioToMemcpy: r.ratioToMemcpy,
        maxAbsError: r.maxAbsError,
        error: r.error,
      })),
    }
  : { error: `exit ${bench.code}`, stdout: bench.stdout };
result.totalMs = Math.round(performance.now() - t0);

writeFileSync(join(out, 'measure.json'), JSON.stringify(result, null, 2));
if (bench.json) writeFileSync(join(out, 'bench.json'), JSON.stringify(bench.json, null, 2));
writeFileSync(join(out, 'runs.log'), logs.join('\n'));
const s = (x) =>
  x === null || x === undefined
    ? '–'
    : typeof x === 'number'
      ? Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-2 && x !== 0)
        ? x.toExponential(3)
        : String(+x.toPrecision(4))
      : String(x);
const lines = [
  `device: ${result.device}; CPU ${result.cpu}; Node ${result.node}; scale ${result.scale}; total ${(result.totalMs / 1000).toFixed(1)} s`,
  `GPU: ${result.runs[0]?.gpu.reason ?? '?'}`,
  '',
  'L         d    b* GPU          b* CPU          same printed  rel diff    GPU wall ms  CPU wall ms  CPU/GPU  (compute ms GPU / CPU; GPU scans, chunks checked)',
  ...result.runs.map((r) =>
    [
      String(r.length).padEnd(9),
      String(r.headDim).padEnd(4),
      (r.gpu.printed ?? r.gpu.error).padEnd(15),
      (r.cpu.printed ?? r.cpu.error).padEnd(15),
      String(r.identicalPrinted).padEnd(13),
      s(r.relDiff).padEnd(11),
      String(r.gpu.wallMs).padEnd(12),
      String(r.cpu.wallMs).padEnd(12),
      s(r.cpuOverGpuWall).padEnd(8),
      `(${r.gpu.ms} / ${r.cpu.ms}; ${r.gpu.gpu ? `${r.gpu.gpu.gpuScans} scans, ${r.gpu.gpu.blocksChecked} blocks${r.gpu.gpu.fallback ? `, fallback: ${r.gpu.gpu.fallback}` : ''}` : '–'})`,
    ].join(' '),
  ),
  '',
  'crossover (d = 128): L, GPU wall ms, CPU wall ms, CPU/GPU',
  ...result.crossover.map((r) => `${r.length}  ${r.gpu.wallMs}  ${r.cpu.wallMs}  ${s(r.cpuOverGpu)}  (printed ${r.gpu.printed} / ${r.cpu.printed})`),
  '',
  `bench --kernels (${result.bench.environment ?? result.bench.error})`,
  ...(result.bench.rows ?? []).map(
    (r) =>
      `${r.label.padEnd(42)} ${r.backend.slice(0, 40).padEnd(40)} ${s(r.medianMs)} ms  ${s(r.elementsPerSec)}/s  ${r.gbPerSec === null ? '' : `${s(r.gbPerSec)} GB/s  ×${s(r.ratioToMemcpy)} of copy`}  err ${s(r.maxAbsError)}${r.error ? `  ERROR ${r.error}` : ''}`,
  ),
];
writeFileSync(join(out, 'measure.txt'), lines.join('\n') + '\n');
console.log(lines.join('\n'));
