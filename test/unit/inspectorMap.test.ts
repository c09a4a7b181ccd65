/**
 * Issue 36 follow-up: the Inspector's chart (d) draws the engine's validity map. The data the panel
 * gets from `ropeLens/inspector/data` (server/inspector.ts) holds the map the bound computer returned:
 * ≥ 2,000 bases from below b* to past the threshold when the map ran on a GPU, a coarser grid that
 * the caption states on the CPU, every L_max exact (checked here against an independent
 * first-negative scan), with b*, the threshold and the robust base marked.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { bstar, lmax, robustNeighbourhood, threshold } from '../../shared/bstar/index';
import { logGrid, validityMap } from '../../shared/bstar/validityMap';
import { GPU_MAP_POINTS, mapPoints, mapRange } from '../../shared/inspector/mapResolution';
import { lmaxCapped } from '../../shared/inspector/validity';
import { proveThreshold } from '../../shared/bstar/provenThreshold';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { DEFAULT_SETTINGS } from '../../shared/protocol/settings';
import { type BoundComputer, CachedBoundOracle } from '../../server/boundOracle';
import { inspectorData } from '../../server/inspector';
import { validityChart } from '../../media/src/inspector/charts';
import { testPalette as palette } from './helpers/palette';

const L = 8192;
const D = 128;

/** The pure float64 engine behind the oracle; the map job reports `ranOn` as the real one would. */
function computer(ranOn: 'cpu' | 'gpu', asked: { from: number; to: number; points: number }[]): BoundComputer {
  return {
    bstar: async (l, d) => bstar(l, d).bstar,
    threshold: async (l, d) => threshold(l, d).threshold,
    lmax: async (b, d, l) => lmax(b, d, l),
    robust: async (c, d, l) => {
      const v = robustNeighbourhood(c, d, l);
      return v.robust ? null : v.witness.base;
    },
    thresholdProof: async (l, d) => {
      const t = threshold(l, d);
      const p = await proveThreshold(
        t.threshold,
        t.certifiedAbove,
        (c) => {
          const v = robustNeighbourhood(c, d, l);
          return v.robust ? { robust: true } : { robust: false, witness: v.witness, undecided: v.undecided };
        },
        (b) => lmax(b, d, l) === null,
      );
      return { provenAbove: p.provenAbove, located: p.located, invalidAt: p.invalidAt.base, proofs: p.proofs };
    },
    validityMap: async (from, to, d, l) => {
      const points = mapPoints(ranOn, l, d);
      asked.push({ from, to, points });
      const m = validityMap(logGrid(from, to, points), d, l);
      return { bases: m.bases, lmax: m.lmax, backend: ranOn, reason: ranOn === 'gpu' ? 'auto: Test GPU, a hardware GPU' : 'auto: no GPU (none here)' };
    },
  };
}

async function panelData(ranOn: 'cpu' | 'gpu') {
  const asked: { from: number; to: number; points: number }[] = [];
  const oracle = new CachedBoundOracle(computer(ranOn, asked), () => {});
  const text = readFileSync(join(__dirname, '..', 'fixtures', 'configs', 'llama-2-7b-hf.json'), 'utf8');
  const doc = TextDocument.create('file:///w/llama-2-7b-hf/config.json', 'json', 1, text);
  const service = createRopeLensService({ oracle: createSyncOracle() });
  const r = await inspectorData(doc, { uri: doc.uri, controls: { targetLength: L }, waitForExact: true }, service, oracle, DEFAULT_SETTINGS);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return { data: r.data, exactPending: r.exactPending, asked };
}

describe('Inspector chart (d): the engine validity map', function () {
  this.timeout(60_000);

  it('resolution: ≥ 2,000 bases on a GPU, fewer on the CPU and fewer still at longer lengths', () => {
    assert.ok(GPU_MAP_POINTS >= 2000);
    assert.equal(mapPoints('gpu', 1 << 20, 128), GPU_MAP_POINTS);
    assert.ok(mapPoints('cpu', 4096, 128) < GPU_MAP_POINTS);
    assert.ok(mapPoints('cpu', 1 << 18, 128) < mapPoints('cpu', 4096, 128));
    const r = mapRange(84000, 130000, 10000);
    assert.ok(r.from < 10000 && r.to > 130000, 'the file base below b* stays on the chart');
  });

  for (const ranOn of ['gpu', 'cpu'] as const) {
    it(`${ranOn}: the panel draws the map the engine computed, with exact L_max and the markers`, async () => {
      const { data, exactPending, asked } = await panelData(ranOn);
      const v = data.validity!;
      assert.equal(exactPending, false, 'nothing left to refine once the map is in');
      assert.equal(asked.length, 1, 'one map job for the view');
      assert.equal(v.bases.length, asked[0].points);
      if (ranOn === 'gpu') assert.ok(v.bases.length >= 2000, `${v.bases.length} bases`);
      else assert.ok(v.bases.length < 2000);
      assert.match(v.engine, new RegExp(`${v.bases.length.toLocaleString('en-US')} log-spaced bases`));
      assert.match(v.engine, ranOn === 'gpu' ? /on the GPU \(auto: Test GPU/ : /on the CPU .*a hardware GPU draws more bases/);
      const exactBstar = bstar(L, D).bstar;
      const estimate = threshold(L, D).threshold;
      assert.equal(v.bstar, exactBstar);
      // The threshold marker is the proven one: valid just above it (and well above), invalid 1e-9 below.
      const exactThreshold = v.threshold!;
      assert.ok(exactThreshold >= estimate, `${exactThreshold} vs the estimate ${estimate}`);
      for (const f of [1 + 1e-8, 1.01, 1.3, 3]) assert.equal(lmax(exactThreshold * f, D, L), null, `${f}`);
      assert.notEqual(lmax(exactThreshold * (1 - 2e-9), D, L), null);
      assert.match(v.note ?? '', /threshold proven: every base above [\d.]+ is valid \(\d+ ±10% neighbourhood proofs\)/);
      assert.ok(v.robust !== undefined && v.robust > exactBstar, 'the robust base is marked');
      // From below the file's base (10,000, below b* here) to past the threshold, log-spaced.
      assert.ok(v.bases[0] <= 10000 && v.bases[0] <= exactBstar);
      assert.ok(v.bases[v.bases.length - 1] >= exactThreshold);
      for (let k = 1; k < v.bases.length; k++) assert.ok(v.bases[k] > v.bases[k - 1]);
      // Every L_max is exact: an independent first-negative scan at every 7th base agrees.
      for (let k = 0; k < v.bases.length; k += 7) assert.equal(v.lmax[k], lmaxCapped(v.bases[k], D, L), `L_max at ${v.bases[k]}`);
      // The last grid bases are valid (past the threshold) and some below it are not.
      assert.equal(v.lmax[v.lmax.length - 1], L);
      assert.ok(v.lmax.some((l) => l < L));
      assert.ok(v.islands.length >= 2, 'b*’s island and the all-valid run at least');
      // What the page draws from it: every base, its caption stating the count and backend, the markers.
      const chart = validityChart(data, palette)!;
      assert.equal((chart.data[0] as number[]).length, v.bases.length);
      assert.match(chart.caption, new RegExp(`over ${v.bases.length} bases .*${ranOn === 'gpu' ? 'on the GPU' : 'on the CPU'}`));
      assert.match(chart.caption, /threshold proven/);
    });
  }

  it('without a map job (the browser server) the panel keeps its own CPU grid and says so', async () => {
    const plain = computer('cpu', []);
    delete plain.validityMap;
    delete plain.thresholdProof;
    const oracle = new CachedBoundOracle(plain, () => {});
    const text = readFileSync(join(__dirname, '..', 'fixtures', 'configs', 'llama-2-7b-hf.json'), 'utf8');
    const doc = TextDocument.create('file:///w/c/config.json', 'json', 1, text);
    const service = createRopeLensService({ oracle: createSyncOracle() });
    const r = await inspectorData(doc, { uri: doc.uri, controls: { targetLength: L }, waitForExact: true }, service, oracle, DEFAULT_SETTINGS);
    assert.ok(r.ok);
    assert.equal(r.exactPending, false);
    assert.match(r.data.validity!.engine, /16 bases per decade/);
    assert.match(r.data.validity!.note ?? '', /threshold [\d.]+: an estimate from a 2% grid/);
  });
});
