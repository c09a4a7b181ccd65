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
const cpu = [];
for (const d of [64, 128]) for (const L of [1 << 20, 1 << 22, 1 << 24]) cpu.push(b(L, d, 'cpu', 150000));
for (const d of [128, 64]) for (const L of [1 << 24, 1 << 22, 1 << 20]) await b(L, d, 'gpu', 40000);
for (const L of [1 << 18, 1 << 16]) {
  await b(L, 128, 'gpu', 15000);
  await b(L, 128, 'cpu', 15000);
}
await Promise.all(cpu);
