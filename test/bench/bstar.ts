/**
 * b* benchmark: the exact certified sweep for L ∈ {4096, 32768, 131072, 1048576}, d = 128, on every
 * backend this process has; the seed-001 grid-search port at L ∈ {4096, 32768} in the same run
 * (ratios); lmax at L = 2^20. Targets: b*(2^20) ≤ 10 s, ≥ 20× the grid port at 32768, lmax ≤ 0.3 s.
 * The machine is shared, so each row shows wall time and this process's CPU time; ratios use CPU time.
 */
import { BenchReport } from './report';
import { bstar, lmax } from '../../shared/bstar/index';
import { suGridBstar } from '../../shared/bstar/suGrid';
import { probeGpu } from '../../shared/node/gpuProbe';

interface Timing<T> { value: T; wall: number; cpu: number }

function timed<T>(fn: () => T): Timing<T> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

/** Best of `runs` (by CPU time): the first run also pays for JIT warm-up. */
function best<T>(runs: number, fn: () => T): Timing<T> {
  let b = timed(fn);
  for (let k = 1; k < runs; k++) {
    const t = timed(fn);
    if (t.cpu < b.cpu) b = t;
  }
  return b;
}

const fmt = (t: Timing<unknown>) => `${(t.wall / 1000).toFixed(3)} s`;
const cpuNote = (t: Timing<unknown>) => `cpu ${(t.cpu / 1000).toFixed(3)} s`;

export async function runBench(report: BenchReport): Promise<void> {
  const d = 128;
  const row = report.section('b*(L, d=128): exact certified sweep vs seed-001 grid search (float64, 1 thread)');
  const gpu = probeGpu();
  row({ name: 'backends', value: gpu.available ? 'cpu, gpu' : 'cpu', note: gpu.available ? gpu.kernel : `gpu: ${gpu.reason}` });

  const ours = new Map<number, Timing<ReturnType<typeof bstar>>>();
  for (const L of [4096, 32768, 131072, 1048576]) {
    const r = best(L >= 1048576 ? 1 : 2, () => bstar(L, d));
    ours.set(L, r);
    row({ name: `sweep cpu  L=${L}`, value: fmt(r), note: `${cpuNote(r)}; b* = ${r.value.bstar.toPrecision(10)}, min f at b* ${r.value.certificate.minF.toExponential(2)}` });
  }
  const big = ours.get(1048576)!;
  row({ name: 'target b*(2^20) ≤ 10 s', value: big.wall <= 10000 ? 'met' : 'MISSED', note: `wall ${fmt(big)}, ${cpuNote(big)}` });

  // The plain port (early exit only) is affordable at 4096; at 32768 it runs for minutes here, so the
  // port with witness caching (same answers, strictly faster) is the baseline there: a harder target.
  const plain = timed(() => suGridBstar(4096, d, { witnessCache: false }));
  row({
    name: 'Su grid port (early exit)  L=4096', value: fmt(plain),
    note: `${cpuNote(plain)}; b* = ${plain.value.bstar.toPrecision(10)}; sweep ${(plain.cpu / ours.get(4096)!.cpu).toFixed(0)}× faster`,
  });
  for (const L of [4096, 32768]) {
    const su = timed(() => suGridBstar(L, d, { witnessCache: true }));
    const ratio = su.cpu / ours.get(L)!.cpu;
    const target = L === 32768 ? (ratio >= 20 ? ' (target ≥ 20×: met)' : ' (target ≥ 20×: MISSED)') : '';
    row({
      name: `Su grid port (+witness cache)  L=${L}`, value: fmt(su),
      note: `${cpuNote(su)}; b* = ${su.value.bstar.toPrecision(10)} (grid answer); sweep ${ratio.toFixed(1)}× faster${target}`,
    });
  }

  const lrow = report.section('lmax(base, d=128, L=2^20)');
  for (const base of [5e5, big.value.bstar]) {
    const r = best(3, () => lmax(base, d, 1 << 20));
    lrow({ name: `lmax base=${base.toPrecision(7)}`, value: fmt(r), note: `${cpuNote(r)}; first failing m = ${r.value ?? 'none (valid: full scan)'}; target ≤ 0.3 s ${r.wall <= 300 ? 'met' : 'MISSED'}` });
  }
}
