/**
 * `rope-lens bound` through the built CLI (bin/rope-lens.js → dist/): --json says which backend ran
 * each job and why; --robust proves a candidate's ±10% neighbourhood; --map summarises L_max over a
 * log grid; --threshold says how far the threshold is proven. `--backend gpu` runs on Mesa's llvmpipe
 * where it gives an adapter (as in webgpuProof.test.ts) and must give the CPU's answers.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lmax, robustNeighbourhood } from '../../shared/bstar/index';
import { logGrid } from '../../shared/bstar/validityMap';

const root = join(__dirname, '..', '..');

function bound(...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'rope-lens.js'), 'bound', ...args], {
    encoding: 'utf8',
    env: { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM ?? 'surfaceless' },
    timeout: 240_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const json = (...args: string[]) => {
  const r = bound(...args, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
};

describe('rope-lens bound: jobs, --robust, --map, the proven threshold (built CLI)', function () {
  this.timeout(300_000);
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });

  it('--json names the backend and reason of every job it ran', () => {
    const j = json('--length', '4k', '--head-dim', '128', '--robust', '66000', '--map', '--points', '64', '--backend', 'cpu');
    assert.deepEqual(Object.keys(j.jobs).sort(), ['bstar', 'map', 'robust', 'threshold']);
    for (const job of Object.values(j.jobs) as { backend: string; reason: string }[]) {
      assert.equal(job.backend, 'cpu');
      assert.ok(job.reason.length > 0);
    }
    assert.match(j.jobs.robust.reason, /--backend cpu/);
  });

  it('--robust: the verdict and witness of the neighbourhood proof, as the float64 proof gives them', () => {
    // 210,000 at 4,096 tokens (d = 96) passes the old 41-point grid but 227,549.4 in its ±10% fails (docs/gpu.md).
    const bad = json('--length', '4k', '--head-dim', '96', '--robust', '210000', '--backend', 'cpu');
    const expected = robustNeighbourhood(210000, 96, 4096);
    assert.equal(bad.robust.robust, false);
    assert.ok(!expected.robust);
    assert.deepEqual(bad.robust.witness, expected.witness);
    assert.ok(bad.robust.witness.base >= 189000 && bad.robust.witness.base <= 231000);
    assert.ok(lmax(bad.robust.witness.base, 96, 4096) !== null, 'the witness base is invalid');
    const good = bound('--length', '4k', '--head-dim', '128', '--robust', '66000');
    assert.equal(good.code, 0, good.err);
    assert.match(good.out, /robust: every base within ±10% of 66000\.000 is valid \(proven on the cpu/);
  });

  it('--map: L_max over the log grid, summarised, each grid base classified as the float64 scan does', () => {
    const j = json('--length', '2k', '--head-dim', '128', '--map', '--points', '40', '--backend', 'cpu');
    assert.equal(j.map.points, 40);
    const bases = logGrid(j.map.from, j.map.to, 40);
    const valid = bases.filter((b) => lmax(b, 128, 2048) === null);
    assert.equal(j.map.valid, valid.length);
    assert.ok(j.map.from < j.bstar && j.map.to > j.threshold);
    assert.ok(j.map.lastInvalid.base < j.map.to && lmax(j.map.lastInvalid.base, 128, 2048) === j.map.lastInvalid.lmax);
    assert.equal(bound('--length', '2k', '--head-dim', '128', '--points', '40').code, 2, '--points needs --map');
  });

  it('--threshold: the chain of proofs locates where every base becomes valid, and the text says what is proven', () => {
    const j = json('--length', '4k', '--head-dim', '128', '--threshold', '--backend', 'cpu');
    const p = j.thresholdProof;
    assert.equal(p.located, true);
    assert.ok(p.provenAbove <= j.certifiedAbove && p.provenAbove >= j.threshold);
    // Just below the proven end is an invalid base; a few bases above it are all valid.
    assert.ok(lmax(p.invalidAt.base, 128, 4096) !== null);
    for (const f of [1 + 1e-8, 1.001, 1.05, 2, 10]) assert.equal(lmax(p.provenAbove * f, 128, 4096), null, `${f}`);
    const text = bound('--length', '4k', '--head-dim', '128', '--threshold').out;
    assert.match(text, /every base above [\d.]+ is valid \(proven: \d+ ±10% neighbourhood proofs/);
  });

  it('--backend gpu (llvmpipe here): the same robust verdict and map as the CPU, and it says where it ran', function () {
    const g = bound('--length', '2k', '--head-dim', '128', '--robust', '26000', '--map', '--points', '48', '--backend', 'gpu', '--json');
    if (g.code !== 0 && /gpu backend unavailable/.test(g.err)) {
      console.log(`      skipped: ${g.err.trim().split('\n')[0]}`);
      this.skip();
    }
    assert.equal(g.code, 0, g.err);
    const gj = JSON.parse(g.out);
    const cj = json('--length', '2k', '--head-dim', '128', '--robust', '26000', '--map', '--points', '48', '--backend', 'cpu');
    assert.equal(gj.jobs.robust.backend, 'gpu', gj.jobs.robust.reason);
    assert.equal(gj.jobs.map.backend, 'gpu', gj.jobs.map.reason);
    assert.match(gj.jobs.map.reason, /requested \(--backend gpu\)/);
    assert.deepEqual(gj.robust, cj.robust);
    assert.deepEqual(gj.map, cj.map);
    assert.equal(gj.bstar, cj.bstar);
  });
});
