/**
 * Robust bases proven over their whole ±10% neighbourhood (shared/bstar/neighbourhood.ts), checked
 * against a fine-grid float64 scan written here (its own θ by Math.pow and its own complex-rotation
 * recurrence, re-synced from Math.cos/Math.sin every 256 steps; no code shared with shared/bstar), and
 * the screened proof (what the WebGPU backend does) against the CPU's: same verdict, same witness.
 */
import { simulatedScreen } from './helpers/simulatedScreen';
import { strict as assert } from 'node:assert';
import { bstar, lmax, robustNeighbourhood } from '../../shared/bstar';
import { proofGrid, proveNeighbourhood } from '../../shared/bstar/neighbourhood';
import { logGrid, validityMap } from '../../shared/bstar/validityMap';
import { NEIGHBOURHOOD, chooseValidBase } from '../../shared/fixes/chooseBase';
import { robustBase } from '../../shared/planner/options';
import { REFERENCE_TOLERANCE, directFirstBelow } from '../support/bstarReference';

const TOL = REFERENCE_TOLERANCE;

/** min over m < L of f_b(m) by a complex rotation z_i ← z_i·e^{iθ_i}, re-synced every 256 m (error ~1e-12). */
function scanMin(base: number, d: number, L: number): { f: number; m: number } {
  const n = d / 2;
  const th = Array.from({ length: n }, (_, i) => Math.pow(base, (-2 * i) / d));
  const cr = th.map(Math.cos),
    sr = th.map(Math.sin);
  const re = new Float64Array(n),
    im = new Float64Array(n);
  let best = { f: Infinity, m: -1 };
  for (let m = 0; m < L; m++) {
    if (m % 256 === 0) {
      for (let i = 0; i < n; i++) {
        re[i] = Math.cos(m * th[i]);
        im[i] = Math.sin(m * th[i]);
      }
    }
    let s = 0;
    for (let i = 0; i < n; i++) s += re[i];
    if (s < best.f) best = { f: s, m };
    for (let i = 0; i < n; i++) {
      const r = re[i] * cr[i] - im[i] * sr[i];
      im[i] = re[i] * sr[i] + im[i] * cr[i];
      re[i] = r;
    }
  }
  return best;
}

/** The fine-grid scan: `points` log-spaced bases across [0.9c, 1.1c]; the invalid ones (min f < −tol, with a margin for the recurrence). */
function fineScanInvalid(c: number, d: number, L: number, points: number): number[] {
  const bad: number[] = [];
  for (let k = 0; k < points; k++) {
    const b = 0.9 * c * Math.pow(1.1 / 0.9, k / (points - 1));
    if (scanMin(b, d, L).f < -TOL - 1e-9) bad.push(b);
  }
  return bad;
}

const prove = (d: number, L: number) => (c: number) => {
  const v = robustNeighbourhood(c, d, L);
  return v.robust ? null : v.witness.base;
};
/** The ladder as it was: the 41-point grid only. */
const gridOnly = () => null;

describe('robust bases proven over the continuum of their ±10% neighbourhood', function () {
  this.timeout(300_000);

  for (const [L, d, points] of [
    [4096, 128, 1001],
    [4096, 64, 1001],
    [8192, 128, 601],
    [16384, 128, 301],
    [32768, 64, 201],
  ] as const) {
    it(`L = ${L}, d = ${d}: the rule's and the planner's robust bases pass an independent ${points}-base float64 scan of their neighbourhood`, () => {
      const b = bstar(L, d).bstar;
      const rule = chooseValidBase(b / 0.9, (x) => lmax(x, d, L), prove(d, L))!;
      const planner = robustBase(10000, d, L)!.base;
      for (const c of new Set([rule, planner])) {
        assert.ok(c > 0, `no robust base for L = ${L}, d = ${d}`);
        assert.deepEqual(fineScanInvalid(c, d, L, points), [], `${c}: invalid bases within ±10%`);
      }
    });
  }

  it('4,096 tokens, d = 96: the 41-point grid passes 210,000, whose neighbourhood holds an invalid base; the proof finds it and the ladder moves on', () => {
    const L = 4096,
      d = 96;
    // The ladder from a model base of 205,000 (valid itself): the grid alone stopped at 210,000.
    assert.equal(lmax(205000, d, L), null);
    assert.equal(
      chooseValidBase(205000, (x) => lmax(x, d, L), gridOnly),
      210000,
    );
    const v = robustNeighbourhood(210000, d, L);
    assert.equal(v.robust, false);
    if (v.robust) return;
    const w = v.witness;
    assert.ok(w.base >= 0.9 * 210000 && w.base <= 1.1 * 210000, `witness ${w.base} outside the neighbourhood`);
    // Independently invalid, and strictly between two of the 41 grid points.
    assert.ok(directFirstBelow(w.base, d, L, -TOL) !== null, `${w.base} is valid by direct cosines`);
    assert.ok(!NEIGHBOURHOOD.some((k) => Math.abs(210000 * k - w.base) < 1e-6 * w.base), 'the witness is a grid point');
    assert.ok(
      NEIGHBOURHOOD.every((k) => directFirstBelow(210000 * k, d, L, -TOL) === null),
      'a grid point fails: not a case the grid misses',
    );
    const now = robustBase(205000, d, L)!.base;
    assert.ok(now > 210000);
    assert.deepEqual(fineScanInvalid(now, d, L, 1001), []);
  });

  it('16,384 tokens, d = 128: the base the 41-point grid chose (770,000) is not robust, proven by a witness checked with direct cosines', () => {
    const L = 16384,
      d = 128;
    const b = bstar(L, d).bstar;
    const old = chooseValidBase(b / 0.9, (x) => lmax(x, d, L), gridOnly)!;
    assert.equal(old, 770000);
    const v = robustNeighbourhood(old, d, L);
    assert.equal(v.robust, false);
    if (v.robust) return;
    assert.ok(directFirstBelow(v.witness.base, d, L, -TOL) !== null);
    assert.ok(v.witness.base >= 0.9 * old && v.witness.base <= 1.1 * old);
    const now = chooseValidBase(b / 0.9, (x) => lmax(x, d, L), prove(d, L))!;
    assert.ok(now > old);
  });

  it('a planted narrow invalid stretch: a candidate whose 41 grid points are valid but whose neighbourhood is not is refused', () => {
    // Search the ladder at 4,096 tokens for every candidate the grid passes and the proof refuses; each
    // refusal's witness must be invalid by direct cosines and lie between grid points.
    const L = 4096,
      d = 96;
    let refused = 0;
    for (let c = 150000; c <= 300000; c += 10000) {
      if (!NEIGHBOURHOOD.every((k) => lmax(c * k, d, L) === null)) continue;
      const v = robustNeighbourhood(c, d, L);
      if (v.robust) {
        assert.deepEqual(fineScanInvalid(c, d, L, 201), [], `${c} proven robust but the scan finds invalid bases`);
        continue;
      }
      refused++;
      assert.ok(directFirstBelow(v.witness.base, d, L, -TOL) !== null, `${c}: witness ${v.witness.base} is valid by direct cosines`);
    }
    assert.ok(refused >= 2, `only ${refused} grid-passing candidates refused`);
  });
});

describe('the screened proof and map (what the GPU backend runs) give the CPU answer', function () {
  this.timeout(300_000);
  const screen = simulatedScreen(0.0315);
  for (const [L, d, candidates] of [
    [2048, 128, [13000, 26000, 30000]],
    [4096, 96, [210000, 240000, 260000]],
    [4096, 128, [54000, 64000, 66000]],
  ] as const) {
    it(`L = ${L}, d = ${d}: verdicts and witnesses identical for ${candidates.join(', ')}`, () => {
      for (const c of candidates) {
        const cpu = proveNeighbourhood(c, d, L);
        const gpu = proveNeighbourhood(c, d, L, { screen, subcells: 16 });
        assert.equal(gpu.stats.screened, true);
        assert.equal(gpu.robust, cpu.robust, `${c}`);
        if (!gpu.robust && !cpu.robust) assert.deepEqual(gpu.witness, cpu.witness, `${c}`);
        assert.ok(gpu.stats.exactBlocks <= cpu.stats.exactBlocks, `${c}: the screen made more float64 work`);
      }
    });
  }

  it('the proof grid gets finer with L (the derivative bound grows with m)', () => {
    assert.ok(proofGrid(1e6, 128, 32768).length > proofGrid(1e6, 128, 4096).length);
  });

  it('validity map: exact L_max per base, the same with and without the screen, and the same as lmax', () => {
    const L = 4096,
      d = 128;
    const bases = logGrid(20000, 200000, 120);
    const cpu = validityMap(bases, d, L);
    const gpu = validityMap(bases, d, L, { screen: simulatedScreen(0.0315) });
    assert.deepEqual(gpu.lmax, cpu.lmax);
    assert.ok(gpu.stats.screened && gpu.stats.exactBlocks < cpu.stats.exactBlocks);
    for (let k = 0; k < bases.length; k += 7) {
      const direct = directFirstBelow(bases[k], d, L, -TOL);
      assert.equal(cpu.lmax[k], direct ? direct.m : L, `base ${bases[k]}`);
      assert.equal(cpu.lmax[k], lmax(bases[k], d, L) ?? L);
    }
  });
});
