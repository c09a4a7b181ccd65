/**
 * `rope-lens bound`: exact b*(L, d), the validity of a given base, or the seed-001 table.
 *   bound --length L --head-dim d [--threshold] [--robust B] [--map [--points N]] [--backend auto|gpu|cpu] [--json]
 *   bound --base B --length L --head-dim d [--json]
 *   bound --table [--head-dim 128] [--json]
 * Lengths accept k/M suffixes with 1k = 1024 (as in seed 001). Exit 0 whenever the answer was computed.
 */
import { boundFigure, grouped } from '../../shared/core/format';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { BoundEngine, Backend, type EngineProvenThreshold } from '../../shared/node/engine';
import { logGrid } from '../../shared/bstar/validityMap';
import { islandsOf } from '../../shared/inspector/validity';
import { bstarChain, lmax as scanLmax } from '../../shared/bstar/index';
import { validBaseFigure } from '../../shared/core/baseFigure';
import { checkHeadDim } from '../../shared/bstar/validate';
import { NATIVE_LOG_ENV } from '../../shared/node/adapterProbe';
import { tableValidAbove } from '../../shared/bstar/table/provenTable';

const USAGE = [
  'usage: rope-lens bound --length L --head-dim d [--threshold] [--robust B] [--map [--points N]] [--backend auto|gpu|cpu] [--json] [--verbose]',
  '       rope-lens bound --base B --length L --head-dim d [--json]',
  '       rope-lens bound --table [--head-dim 128] [--json]',
].join('\n');

/** Seed 001's published rows (L = 1k … 1M, 1k = 1024). */
export const PUBLISHED_TABLE: { label: string; length: number; thisPost: number; original: number }[] = [
  ['1k', 4.3e3, 4.3e3],
  ['2k', 1.2e4, 1.6e4],
  ['4k', 2.7e4, 2.7e4],
  ['8k', 8.4e4, 8.4e4],
  ['16k', 2.3e5, 3.1e5],
  ['32k', 6.3e5, 6.4e5],
  ['64k', 2.1e6, 2.1e6],
  ['128k', 4.9e6, 7.8e6],
  ['256k', 2.4e7, 3.6e7],
  ['512k', 5.8e7, 6.4e7],
  ['1M', 6.5e7, 5.1e8],
].map(([label, thisPost, original], k) => ({ label: label as string, length: 1024 << k, thisPost: thisPost as number, original: original as number }));

/** Integer with optional binary suffix: 4096, 4k, 128K, 1M (1k = 1024). */
export function parseLength(text: string, what: string): number {
  const m = /^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([kKmM]?)\s*$/.exec(text);
  if (!m) throw new UsageError(`${what} must be a positive integer (k/M suffixes allowed, 1k = 1024), got '${text}'`);
  const mult = m[2] === '' ? 1 : m[2].toLowerCase() === 'k' ? 1024 : 1024 * 1024;
  const v = Number(m[1]) * mult;
  if (!Number.isInteger(v)) throw new UsageError(`${what} must be an integer, got '${text}'`);
  return v;
}

function parseNumber(text: string, what: string): number {
  const v = Number(text);
  if (text.trim() === '' || Number.isNaN(v)) throw new UsageError(`${what} must be a number, got '${text}'`);
  return v;
}

const fmt = boundFigure;

/** b* as printed: rounded up to the shortest figure that is itself valid for (L, d) (issue 33); else the plain figure. */
function bstarFigure(b: number, length: number, headDim: number): string {
  return validBaseFigure(b, (x) => scanLmax(x, headDim, length), 'figure', false) ?? fmt(b);
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const a = parseCliArgs(
    {
      args: argv,
      options: {
        length: { type: 'string' },
        'head-dim': { type: 'string' },
        base: { type: 'string' },
        backend: { type: 'string' },
        table: { type: 'boolean', default: false },
        threshold: { type: 'boolean', default: false },
        robust: { type: 'string' },
        map: { type: 'boolean', default: false },
        points: { type: 'string' },
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    USAGE,
  ).values;
  // --verbose: the GPU library's own log lines (kept out of stderr otherwise) are passed on.
  if (a.verbose) process.env[NATIVE_LOG_ENV] = '1';
  if (a.help) {
    io.out(USAGE);
    return EXIT_OK;
  }

  if (a.table) {
    if (a.length !== undefined || a.base !== undefined || a.threshold) throw new UsageError(`--table takes only --head-dim and --json\n${USAGE}`);
    return table(a['head-dim'] === undefined ? 128 : parseLength(a['head-dim'], '--head-dim'), a.json, io);
  }
  if (a.length === undefined || a['head-dim'] === undefined) throw new UsageError(`--length and --head-dim are required\n${USAGE}`);
  const length = parseLength(a.length, '--length');
  const headDim = parseLength(a['head-dim'], '--head-dim');
  const backend = (a.backend ?? 'auto') as Backend;
  if (!['auto', 'gpu', 'cpu'].includes(backend)) throw new UsageError(`--backend must be auto, gpu or cpu, got '${backend}'`);

  const engine = new BoundEngine();
  try {
    const t0 = Date.now();
    if (a.base !== undefined) {
      if (a.backend !== undefined) throw new UsageError(`--backend applies to the --length/--head-dim form only\n${USAGE}`);
      if (a.robust !== undefined || a.map) throw new UsageError(`--robust and --map apply to the --length/--head-dim form\n${USAGE}`);
      if (a.threshold) throw new UsageError(`--threshold applies to the --length/--head-dim form (--base always prints it)\n${USAGE}`);
      const base = parseNumber(a.base, '--base');
      const { lmax } = await engine.lmax(base, headDim, length);
      const t = await engine.threshold(length, headDim);
      const above = provenValidAbove(length, headDim, t.certifiedAbove);
      const out = {
        base,
        length,
        headDim,
        lmax,
        valid: lmax === null,
        bstar: t.bstar,
        threshold: t.threshold,
        validAbove: above,
        ms: Date.now() - t0,
      };
      if (a.json) io.out(JSON.stringify(out));
      else {
        io.out(
          lmax === null
            ? `base ${base} is valid for L = ${length}, d = ${headDim}: f_b(m) ≥ 0 for every m < ${length}`
            : `base ${base} is NOT valid for L = ${length}, d = ${headDim}: f_b(m) < 0 first at m = ${lmax} (it satisfies the bound up to length ${lmax})`,
        );
        io.out(`  b*(L, d) = ${bstarFigure(t.bstar, length, headDim)}`);
        io.out(`  ${validAboveLine(above)}`);
        io.out(`  ${estimateLine(t.threshold, lmax === null ? undefined : base)}`);
        if (lmax === null && base < above.value) io.out('  note: valid, but bases just above or below may not be; validity is not monotone in the base');
        io.out(`  ${out.ms} ms`);
      }
      return EXIT_OK;
    }
    if (a.points !== undefined && !a.map) throw new UsageError(`--points applies to --map\n${USAGE}`);
    const points = a.points === undefined ? MAP_POINTS : parseLength(a.points, '--points');
    if (points < 2 || points > MAX_MAP_POINTS) throw new UsageError(`--points must be between 2 and ${MAX_MAP_POINTS}, got ${points}`);
    const candidate = a.robust === undefined ? undefined : parseNumber(a.robust, '--robust');
    const progress = progressLine(io, `b*(${length}, ${headDim})`);
    const r = await engine.bstar(length, headDim, { backend, onProgress: progress });
    // The threshold scans a grid of bases over all m < L: it costs as much as b* again, so only on request
    // (and the map, which runs from b* to past the threshold, needs it too).
    const live = liveStatus(io);
    live.step(
      a.threshold
        ? `proving how far the threshold holds (L = ${length}, d = ${headDim})`
        : a.map
          ? `locating the threshold (L = ${length}, d = ${headDim})`
          : '',
    );
    const t = a.threshold
      ? await engine.provenThreshold(length, headDim, { backend })
      : a.map
        ? await engine.threshold(length, headDim, { backend })
        : undefined;
    live.step(candidate !== undefined ? `proving every base within ±10% of ${candidate}` : '');
    const robust = candidate !== undefined ? await engine.robust(candidate, headDim, length, { backend }) : undefined;
    live.step(a.map ? `validity map over ${points} bases` : '');
    const mapRange = t ? { from: r.bstar / 1.25, to: t.threshold * 1.5 } : undefined;
    const map = a.map && mapRange ? await engine.validityMap(logGrid(mapRange.from, mapRange.to, points), headDim, length, { backend }) : undefined;
    live.stop();
    const w = r.witness;
    const proven = t && 'proven' in t ? (t as EngineProvenThreshold) : undefined;
    const out = {
      length,
      headDim,
      bstar: r.bstar,
      ...(t ? { threshold: t.threshold, certifiedAbove: t.certifiedAbove } : {}),
      ...(proven ? { thresholdProof: proven.proven } : {}),
      witness: w ? { m: w.m, f: w.f, base: w.base } : null,
      ...(robust
        ? {
            robust: {
              candidate,
              robust: robust.robust,
              witness: robust.verdict.robust ? null : robust.verdict.witness,
              undecided: !robust.verdict.robust && robust.verdict.undecided,
            },
          }
        : {}),
      ...(map ? { map: summariseMap(map.map.bases, map.map.lmax, length) } : {}),
      backend: r.backend,
      backendReason: r.backendReason,
      // Which backend ran each job and why (the threshold's grid scans always run in float64 on the CPU).
      jobs: {
        bstar: { backend: r.backend, reason: r.backendReason, ms: r.ms },
        ...(t ? { threshold: { backend: 'cpu', reason: 'the estimate grid is scanned in float64 on the CPU' } } : {}),
        ...(proven ? { thresholdProof: { backend: proven.proofBackend, reason: proven.proofReason } } : {}),
        ...(robust ? { robust: { backend: robust.backend, reason: robust.backendReason, ms: robust.ms, ...(robust.gpu ? { gpu: robust.gpu } : {}) } } : {}),
        ...(map ? { map: { backend: map.backend, reason: map.backendReason, ms: map.ms, ...(map.gpu ? { gpu: map.gpu } : {}) } } : {}),
      },
      ...(r.gpu ? { gpu: r.gpu } : {}),
      ms: Date.now() - t0,
    };
    if (a.json) io.out(JSON.stringify(out));
    else {
      io.out(
        `b*(L = ${length}, d = ${headDim}) = ${bstarFigure(r.bstar, length, headDim)}   (exact, float64, rounded up to a valid figure; f ≥ −1e-7 counts as non-negative)`,
      );
      io.out(`  certificate: min over m < L of f at b* = ${r.certificate.minF.toExponential(3)} (m = ${r.certificate.argminM})`);
      if (w)
        io.out(
          `  witness: base ${fmt(w.base)} (b*·(1 − ${((r.bstar - w.base) / r.bstar).toExponential(1)})) fails at m = ${w.m} (f = ${w.f.toExponential(3)})`,
        );
      if (proven) io.out(`  ${thresholdLine(proven)}`);
      else if (t) io.out(`  ${validAboveLine(provenValidAbove(length, headDim, t.certifiedAbove))}\n  ${estimateLine(t.threshold)}`);
      else {
        const tabled = tableValidAbove(length, headDim);
        io.out(
          tabled
            ? `  ${validAboveLine(provenValidAbove(length, headDim, Number.POSITIVE_INFINITY))}`
            : '  where every base becomes valid: run with --threshold (proven by ±10% neighbourhood proofs where affordable)',
        );
      }
      io.out('  note: b* is the left end of a narrow valid island; bases just above b* are mostly invalid again');
      if (robust) {
        const v = robust.verdict;
        io.out(
          v.robust
            ? `  robust: every base within ±10% of ${fmt(candidate!)} is valid (proven on the ${robust.backend}: ${robust.backendReason})`
            : `  robust: NOT proven for ${fmt(candidate!)}: base ${fmt(v.witness.base)} ${v.undecided ? 'could not be decided' : `fails at m = ${v.witness.m} (f = ${v.witness.f.toExponential(3)})`} (${robust.backend}: ${robust.backendReason})`,
        );
      }
      if (map)
        io.out(`  ${mapLines(summariseMap(map.map.bases, map.map.lmax, length)).join('\n  ')}\n  map: ${map.backend} (${map.backendReason}), ${map.ms} ms`);
      io.out(`  backend: ${r.backend} (${r.backendReason}), ${out.ms} ms`);
    }
    return EXIT_OK;
  } finally {
    io.status?.('');
    await engine.dispose();
  }
}

/** Bases in `bound --map` unless --points says (the Inspector's CPU map is as coarse; a GPU draws more). */
const MAP_POINTS = 256;
const MAX_MAP_POINTS = 65536;

interface MapSummary {
  points: number;
  from: number;
  to: number;
  valid: number;
  /** Runs of consecutive valid grid bases, [first, last]. */
  islands: [number, number][];
  /** The largest invalid grid base and its L_max (null: none on the grid). */
  lastInvalid: { base: number; lmax: number } | null;
}

function summariseMap(bases: number[], lmax: number[], length: number): MapSummary {
  let lastInvalid: MapSummary['lastInvalid'] = null;
  for (let k = bases.length - 1; k >= 0 && !lastInvalid; k--) if (lmax[k] < length) lastInvalid = { base: bases[k], lmax: lmax[k] };
  return {
    points: bases.length,
    from: bases[0],
    to: bases[bases.length - 1],
    valid: lmax.filter((l) => l >= length).length,
    islands: islandsOf(bases, lmax, length),
    lastInvalid,
  };
}

function mapLines(m: MapSummary): string[] {
  const shown = m.islands.slice(0, 6).map(([a, b]) => (a === b ? fmt(a) : `${fmt(a)}–${fmt(b)}`));
  return [
    `map: L_max over ${m.points} bases from ${fmt(m.from)} to ${fmt(m.to)} (log grid, exact per base): ${m.valid} valid`,
    `  valid runs: ${shown.join(', ')}${m.islands.length > shown.length ? `, … (${m.islands.length} in all)` : ''}`,
    m.lastInvalid ? `  largest invalid grid base: ${fmt(m.lastInvalid.base)} (L_max = ${m.lastInvalid.lmax})` : '  every grid base is valid',
  ];
}

function thresholdLine(t: EngineProvenThreshold): string {
  const p = t.proven;
  const est = `estimate ${fmt(t.threshold)} (2% grid)`;
  if (p.located) {
    return `every base above ${figureUp(p.provenAbove)} is valid (proven: ${p.proofs} ±10% neighbourhood proofs down from ${t.certifiedAbove.toExponential(2)}; ${fmt(p.invalidAt.base)} just below is invalid; ${est})`;
  }
  const why = p.stopped ?? t.proofReason;
  return `every base ≥ ${figureUp(p.provenAbove)} is valid (proven; the proofs stopped there: ${why})\n  ${estimateLine(t.threshold)}`;
}

interface ValidAbove {
  /** Every base ≥ value is valid at the length asked (proven). */
  value: number;
  /** The length it was proven at (≥ the length asked). */
  provenAt: number;
  /** True when it is the threshold itself (an invalid base lies just below it). */
  located: boolean;
  how: string;
}

/** The best proven "every base ≥ X is valid": the proven table's (at L or the rung above), else the certified bound. */
function provenValidAbove(length: number, headDim: number, certifiedAbove: number): ValidAbove {
  const t = tableValidAbove(length, headDim);
  if (t && t.value <= certifiedAbove) {
    const how =
      t.rung === length
        ? `proven ahead of time by ±10% neighbourhood proofs on ${t.backend}: the proven table`
        : `proven at ${grouped(t.rung)} tokens, the proven table's length at or above ${grouped(length)} (${t.backend}): valid for every m < ${grouped(t.rung)} means valid for every m < ${grouped(length)}`;
    return { value: t.value, provenAt: t.rung, located: t.located, how };
  }
  return { value: certifiedAbove, provenAt: length, located: false, how: 'a loose certified bound; `--threshold` proves a tighter one' };
}

function validAboveLine(v: ValidAbove): string {
  const x = figureUp(v.value);
  return v.located ? `every base above ${x} is valid, and one just below is not (${v.how})` : `every base ≥ ${x} is valid (${v.how})`;
}

/** A "valid from here up" figure, rounded up (rounding down could print a figure below an invalid base). */
function figureUp(x: number): string {
  const shown = fmt(x);
  if (Number(shown) >= x) return shown;
  // The shown figure's last digit, one step up.
  const digits = shown.includes('e') ? 7 : 8;
  const step = Math.pow(10, Math.floor(Math.log10(x)) - digits + 1);
  return fmt(Math.ceil(x / step) * step);
}

/**
 * The grid estimate of the threshold, on its own line and named for what it is: the largest invalid
 * base a 2% grid found, not a bound (an invalid base above it can exist, and `invalidBase` may be one).
 */
function estimateLine(estimate: number, invalidBase?: number): string {
  const beaten = invalidBase !== undefined && invalidBase > estimate ? `; this base is invalid and larger, so the estimate is low here` : '';
  return `estimate, not proven: the largest invalid base a 2% grid of bases found is ≈ ${fmt(estimate)}${beaten}`;
}

/**
 * A live status line for steps whose end is not known in advance: the step and the seconds it has
 * run, redrawn four times a second on a terminal (nothing elsewhere), so a long proof never looks hung.
 */
function liveStatus(io: CliIO): { step(text: string): void; stop(): void } {
  const status = io.status;
  if (!status) return { step() {}, stop() {} };
  let text = '';
  let since = Date.now();
  const draw = () => status(text ? `${text}… ${((Date.now() - since) / 1000).toFixed(1)} s` : '');
  const timer = setInterval(draw, 250);
  timer.unref?.();
  return {
    step(t) {
      text = t;
      since = Date.now();
      draw();
    },
    stop() {
      clearInterval(timer);
      status('');
    },
  };
}

/** A `[ 42%] computing b*(…)` status line on a terminal, at most every 100 ms; undefined when there is none. */
function progressLine(io: CliIO, label: string): ((fraction: number) => void) | undefined {
  if (!io.status) return undefined;
  let last = 0;
  return (fraction) => {
    const now = Date.now();
    if (now - last < 100 && fraction < 1) return;
    last = now;
    io.status!(`[${(100 * fraction).toFixed(0).padStart(3)}%] computing ${label} (an estimate: the sweep's end is not known in advance)`);
  };
}

function table(headDim: number, json: boolean, io: CliIO): number {
  checkHeadDim(headDim);
  const t0 = Date.now();
  const links = bstarChain(PUBLISHED_TABLE[PUBLISHED_TABLE.length - 1].length, headDim);
  const byLength = new Map(links.map((l) => [l.length, l.bstar]));
  const rows = PUBLISHED_TABLE.map((p) => ({ label: p.label, length: p.length, bstar: byLength.get(p.length)!, thisPost: p.thisPost, original: p.original }));
  if (json) {
    io.out(JSON.stringify({ headDim, rows, ms: Date.now() - t0 }));
    return EXIT_OK;
  }
  io.out(`b*(L, d = ${headDim}): exact float64 values beside seed 001's published rows (1k = 1024)`);
  io.out(`${'L'.padEnd(6)}${'length'.padStart(9)}${'exact b*'.padStart(16)}${'"This Post"'.padStart(13)}${'"Original"'.padStart(12)}`);
  for (const r of rows) {
    io.out(
      `${r.label.padEnd(6)}${String(r.length).padStart(9)}${bstarFigure(r.bstar, r.length, headDim).padStart(16)}${r.thisPost.toExponential(1).padStart(13)}${r.original.toExponential(1).padStart(12)}`,
    );
  }
  if (headDim !== 128) io.out('(the published rows are for d = 128)');
  io.out(`${Date.now() - t0} ms`);
  return EXIT_OK;
}
