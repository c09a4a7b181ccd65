/**
 * Device measurement for issue 36 (bundled by prepare.sh to .device/dist/proof.js, run by run.sh with
 * MEASURE_SCRIPT=dist/proof.js): for L = 2^17, 2^20 and d = 64, 128, a 4,096-base validity map and
 * neighbourhood proofs of three candidates, on the GPU and on the CPU, with the answers compared.
 * Every figure is appended to $OUT/proof.jsonl (one JSON object a line) and $OUT/proof.txt as soon as
 * it is measured, so a run cut short still leaves what it measured.
 * The CPU side is capped: the map on the CPU runs on every 64th base only (time per base extrapolated
 * to 4,096, stated as such; answers compared on those bases), and a CPU proof stops after CPU_CAP_MS
 * (the ratio is then a lower bound).
 * MEASURE_SCALE=small: L = 2^11, 2^12, for a local end-to-end check on llvmpipe.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { BoundEngine, EngineMap, EngineRobust } from '../../shared/node/engine';
import { certifiedValidAbove } from '../../shared/bstar/threshold';
import { logGrid } from '../../shared/bstar/validityMap';
import { nextNice, roundUpNice } from '../../shared/fixes/chooseBase';

const out = process.argv[3] ?? process.env.OUT ?? '.';
mkdirSync(out, { recursive: true });
const small = process.env.MEASURE_SCALE === 'small';
const LENGTHS = small ? [1 << 11, 1 << 12] : [1 << 17, 1 << 20];
const DIMS = [64, 128];
const MAP_BASES = small ? 512 : 4096;
const CPU_MAP_EVERY = Number(process.env.CPU_MAP_EVERY ?? 64);
const CPU_CAP_MS = Number(process.env.CPU_CAP_MS ?? (small ? 120_000 : 45_000));

function emit(o: Record<string, unknown>): void {
  appendFileSync(join(out, 'proof.jsonl'), `${JSON.stringify({ at: new Date().toISOString(), ...o })}\n`);
  appendFileSync(
    join(out, 'proof.txt'),
    `${Object.entries(o)
      .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(' ')}\n`,
  );
}

async function timed<T>(f: (signal: AbortSignal) => Promise<T>, capMs?: number): Promise<{ v: T | null; ms: number; capped: boolean }> {
  const ac = new AbortController();
  const timer = capMs ? setTimeout(() => ac.abort(), capMs) : undefined;
  const t0 = performance.now();
  try {
    const v = await f(ac.signal);
    return { v, ms: performance.now() - t0, capped: false };
  } catch (e) {
    if ((e as { code?: string }).code === 'cancelled') return { v: null, ms: performance.now() - t0, capped: true };
    throw e;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

const witnessOf = (r: EngineRobust | null) => (r && !r.verdict.robust ? r.verdict.witness : null);

async function main(): Promise<void> {
  const gpu = new BoundEngine();
  const cpu = new BoundEngine();
  emit({ kind: 'start', scale: small ? 'small' : 'full', cpu: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`, node: process.version });
  const info = await gpu.gpuInfo(128);
  emit({ kind: 'adapter', ...info });
  // Warm both workers (thread start, JIT) so the first timed job measures the work.
  await cpu.lmax(1e4, 128, 4096, { backend: 'cpu' });
  await gpu.validityMap([1e4, 1e5], 128, 4096, { backend: 'gpu' });
  if (!info.available || !info.precise) {
    emit({ kind: 'end', reason: 'no precise WebGPU adapter: nothing to compare' });
    await gpu.dispose();
    await cpu.dispose();
    return;
  }
  for (const L of LENGTHS) {
    for (const d of DIMS) {
      // The map: 4,096 log-spaced bases from L (below b* for every practical d) to the proven all-valid bound.
      const hi = certifiedValidAbove(L, d);
      const bases = logGrid(L, hi, MAP_BASES);
      const g = await timed(() => gpu.validityMap(bases, d, L, { backend: 'gpu' }));
      const gm = g.v as EngineMap;
      const lastInvalid = [...gm.map.lmax.keys()].reverse().find((k) => gm.map.lmax[k] < L);
      const firstValid = gm.map.lmax.findIndex((x) => x >= L);
      emit({
        kind: 'map',
        backend: gm.backend,
        L,
        d,
        bases: bases.length,
        from: bases[0],
        to: hi,
        ms: Math.round(g.ms),
        exactBlocks: gm.map.stats.exactBlocks,
        firstValidBase: firstValid >= 0 ? bases[firstValid] : null,
        lastInvalidBase: lastInvalid !== undefined ? bases[lastInvalid] : null,
      });
      const subset = bases.filter((_, k) => k % CPU_MAP_EVERY === 0);
      const c = await timed(() => cpu.validityMap(subset, d, L, { backend: 'cpu' }));
      const cm = c.v as EngineMap;
      const same = subset.every((_, i) => cm.map.lmax[i] === gm.map.lmax[i * CPU_MAP_EVERY]);
      const cpuPerBase = c.ms / subset.length;
      emit({
        kind: 'map-cpu',
        L,
        d,
        bases: subset.length,
        ms: Math.round(c.ms),
        extrapolatedMsFor: bases.length,
        extrapolatedMs: Math.round(cpuPerBase * bases.length),
        ratioCpuOverGpu: +((cpuPerBase * bases.length) / g.ms).toFixed(2),
        identical: same,
        note: `CPU timed on every ${CPU_MAP_EVERY}th base, extrapolated per base`,
      });
      // Two candidates: above the map's last invalid base (expected robust), and just above its first valid one (expected not).
      // A third, robust for certain (its whole neighbourhood lies above the proven all-valid bound): the
      // proof's worst case, every cell of every m scanned, timed on both backends.
      const candidates = [
        lastInvalid !== undefined ? nextNice(bases[lastInvalid] / 0.9) : roundUpNice(bases[0]),
        firstValid >= 0 ? roundUpNice(bases[firstValid] / 0.9) : roundUpNice(bases[0] * 2),
        nextNice(hi / 0.9),
      ];
      for (const cand of candidates) {
        const gp = await timed(() => gpu.robust(cand, d, L, { backend: 'gpu' }));
        const gr = gp.v as EngineRobust;
        emit({
          kind: 'proof',
          backend: gr.backend,
          L,
          d,
          candidate: cand,
          robust: gr.robust,
          witness: witnessOf(gr),
          ms: Math.round(gp.ms),
          stats: gr.verdict.stats,
          reason: gr.backendReason,
        });
        const cp = await timed((signal) => cpu.robust(cand, d, L, { backend: 'cpu', signal }), CPU_CAP_MS);
        const cr = cp.v;
        emit({
          kind: 'proof-cpu',
          L,
          d,
          candidate: cand,
          robust: cr ? cr.robust : null,
          ms: Math.round(cp.ms),
          capped: cp.capped,
          ratioCpuOverGpu: +(cp.ms / gp.ms).toFixed(2),
          ratioIsLowerBound: cp.capped,
          identical: cr ? cr.robust === gr.robust && JSON.stringify(witnessOf(cr)) === JSON.stringify(witnessOf(gr)) : null,
        });
      }
    }
  }
  emit({ kind: 'end' });
  await gpu.dispose();
  await cpu.dispose();
}

main().then(
  () => process.exit(0),
  (e) => {
    emit({ kind: 'error', message: (e as Error)?.stack ?? String(e) });
    process.exit(1);
  },
);
