// A short device run that survives a timeout: every b* run is appended to $OUT/quick.jsonl as it ends.
//   node quick.mjs <path of cli.js> <output folder>   (MEASURE_SCRIPT=quick.mjs bash test/device/run.sh)
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
const [cli, out] = process.argv.slice(2);
const f = out + '/quick.jsonl';
function run(args, label, limit) {
  return new Promise((res) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let so = '',
      se = '';
    p.stdout.on('data', (d) => (so += d));
    p.stderr.on('data', (d) => (se += d));
    const t = setTimeout(() => p.kill('SIGKILL'), limit);
    p.on('close', (code, signal) => {
      clearTimeout(t);
      let j = null;
      try {
        j = JSON.parse(so);
      } catch {}
      const r = {
        label,
        code,
        signal,
        stderrTail: se
          .split('\n')
          .filter((l) => l && !/^Warning: max/.test(l))
          .slice(-8)
          .join('\n'),
        wallMs: Math.round(performance.now() - t0),
        bstar: j?.bstar,
        ms: j?.ms,
        backend: j?.backend,
        reason: j?.backendReason,
        gpu: j?.gpu,
        m: j?.witness?.m,
      };
      appendFileSync(f, JSON.stringify(r) + '\n');
      res(r);
    });
  });
}
const b = (L, d, be, lim) => run(['bound', '--length', String(L), '--head-dim', String(d), '--backend', be, '--json'], `${be} ${L} ${d}`, lim);
// QUICK_LOG2=12,14 tries the script here (llvmpipe) at small lengths.
const LENGTHS = (process.env.QUICK_LOG2 ?? '20,22,24').split(',').map((k) => 1 << Number(k));
const cpu = [];
for (const d of [64, 128]) for (const L of LENGTHS) cpu.push(b(L, d, 'cpu', 150000));
// The GPU path runs the CPU's sweep with its exact scans pruned on the GPU: about the CPU's time, so
// the same limit; shortest first, so a slow device still leaves figures behind.
for (const d of [128, 64]) for (const L of LENGTHS) await b(L, d, 'gpu', 150000);
for (const L of [1 << 18, 1 << 16]) {
  await b(L, 128, 'gpu', 15000);
  await b(L, 128, 'cpu', 15000);
}
await Promise.all(cpu);
// The kernel rows (device copy, RoPE in both layouts in GB/s, the f_b screen in pairs/s, errors vs float64).
await new Promise((res) => {
  const p = spawn(process.execPath, [cli, 'bench', '--kernels', '--only', 'webgpu', '--size', 'large', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let so = '';
  p.stdout.on('data', (d) => (so += d));
  const t = setTimeout(() => p.kill('SIGKILL'), 120000);
  p.on('close', (code) => {
    clearTimeout(t);
    appendFileSync(f, JSON.stringify({ label: 'bench --kernels --only webgpu --size large', code, out: so.slice(0, 20000) }) + '\n');
    res(null);
  });
});
