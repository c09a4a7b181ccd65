/**
 * The base suggested "with margin" (pretraining fix, planner's robust base): the smallest round base
 * whose ±10% neighbourhood is valid on the checked grid, compared with a brute-force scan that shares
 * no code with shared/bstar (Math.pow and Math.cos for every m < L).
 */
import { strict as assert } from 'node:assert';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { bstar, lmax, robustNeighbourhood } from '../../shared/bstar';
import { NEIGHBOURHOOD, chooseValidBase, nextNice, roundUpNice } from '../../shared/fixes/chooseBase';
import { REFERENCE_TOLERANCE, directFirstBelow } from '../support/bstarReference';

const oracle = createSyncOracle();
const validDirect = (base: number, d: number, L: number) => directFirstBelow(base, d, L, -REFERENCE_TOLERANCE) === null;
const robustDirect = (c: number, d: number, L: number) => NEIGHBOURHOOD.every((k) => validDirect(c * k, d, L));

/**
 * Brute force over every round base from `start` up to `chosen`, each one's 41-point grid checked
 * directly: the invalid bases found, for judging the candidates below `chosen`.
 */
function invalidBasesUpTo(start: number, chosen: number, d: number, L: number): number[] {
  const bad: number[] = [];
  for (let c = roundUpNice(start); c < chosen; c = nextNice(c)) {
    for (const k of NEIGHBOURHOOD) if (!validDirect(c * k, d, L)) bad.push(c * k);
  }
  return bad;
}

describe('robust base (smallest round base valid across ±10%)', () => {
  it('the grid has 41 points from −10% to +10%, the 21 at 1% steps among them', () => {
    assert.equal(NEIGHBOURHOOD.length, 41);
    assert.equal(Math.max(...NEIGHBOURHOOD), 1.1);
    assert.equal(Math.min(...NEIGHBOURHOOD), 0.9);
    for (let j = -10; j <= 10; j++)
      assert.ok(
        NEIGHBOURHOOD.some((k) => Math.abs(k - (1 + j / 100)) < 1e-12),
        `1 + ${j}%`,
      );
  });

  it('round numbers step by their second significant digit', () => {
    assert.equal(nextNice(54000), 55000);
    assert.equal(nextNice(99000), 100000);
    assert.equal(nextNice(100000), 110000);
    assert.equal(nextNice(26952.3), 27000);
  });

  for (const [L, d] of [
    [1024, 128],
    [2048, 64],
    [4096, 128],
    [8192, 128],
  ] as const) {
    it(`L = ${L}, d = ${d}: its grid is valid, and every smaller round base has an invalid base within its ±10% (brute force)`, function () {
      this.timeout(120000);
      const b = bstar(L, d).bstar;
      const start = b / 0.9;
      const chosen = chooseValidBase(
        start,
        (x) => lmax(x, d, L),
        (c) => {
          const v = robustNeighbourhood(c, d, L);
          return v.robust ? null : v.witness.base;
        },
      )!;
      assert.ok(robustDirect(chosen, d, L), `${chosen}: a grid point fails`);
      const bad = invalidBasesUpTo(start, chosen, d, L);
      for (let c = roundUpNice(start); c < chosen; c = nextNice(c)) {
        assert.ok(
          bad.some((p) => p >= 0.9 * c && p <= 1.1 * c),
          `${c} < ${chosen}: no invalid base found within its ±10%`,
        );
      }
    });
  }

  it('a pretraining config at 4,096 tokens (d = 128): the offered base holds across its ±10% neighbourhood', () => {
    const yaml =
      '{\n  "num_layers": 24,\n  "hidden_size": 4096,\n  "num_attention_heads": 32,\n  "seq_length": 4096,\n  "max_position_embeddings": 4096,\n  "pos_emb": "rotary",\n  "rotary_pct": 1.0,\n  "rotary_emb_base": 10000,\n  "train_micro_batch_size_per_gpu": 4\n}\n';
    const a = analyzeText(yaml, { fileName: 'pretrain.yml', oracle, verifyFixes: true });
    const d = a.diagnostics.find((x) => x.code === 'rope/base-below-bound')!;
    assert.equal(d.severity, 'warning');
    const fix = d.fixes.find((f) => f.kind === 'raise-base')!;
    const m = /Raise rotary_emb_base to (\d+) \(valid for every base within ±10% at 4,096 tokens, proven\)/.exec(fix.title);
    assert.ok(m, fix.title);
    const base = Number(m[1]);
    // 54,000 (the old "with margin" answer) fails at 52,920 = 0.98 × 54,000.
    assert.ok(!validDirect(52920, 128, 4096));
    assert.notEqual(base, 54000);
    for (let j = -10; j <= 10; j++) assert.ok(validDirect(base * (1 + j / 100), 128, 4096), `${base} × ${1 + j / 100}`);
  });
});
