/**
 * The proven table shipped as data (shared/bstar/table): its rows are facts of the current proof
 * code, cover the catalog's rotary dims on a ladder of 4 rungs per octave, and a random sample is
 * re-proven on every run by an independent float64 scan (the seed is printed; ROPE_LENS_TABLE_SEED
 * replays one).
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { LADDER, LADDER_MAX, LADDER_MIN, ladderCeil } from '../../shared/bstar/table/ladder';
import { PROOF_CODE_VERSION } from '../../shared/bstar/table/codeVersion';
import { TABLE_DIMS } from '../../shared/bstar/table/dims';
import { tableBstar, tableRobustBase, tableRows, tableValidAbove } from '../../shared/bstar/table/provenTable';
import { proofSourcesHash } from '../../shared/node/proofSources';
import { CATALOG } from '../../shared/config/catalog';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import { ropeGroups } from '../../shared/config/attentionGroups';
import { nextNice } from '../../shared/fixes/chooseBase';
import { robustNeighbourhood } from '../../shared/bstar/index';
import { validate } from './helpers/jsonSchemaLite';
import { firstInvalidM, invalidAcrossNeighbourhood, seeded } from './helpers/independentScan';
import table from '../../shared/bstar/table/proven.json';
import schema from '../../shared/bstar/table/proven.schema.json';

const ROOT = join(__dirname, '..', '..');

describe('the proven table', function () {
  this.timeout(120_000);

  it('PROOF_CODE_VERSION is the hash of the proof sources (edit one: update it and regenerate the table)', () => {
    assert.equal(PROOF_CODE_VERSION, proofSourcesHash(ROOT));
  });

  it('the ladder runs from 1,024 to 16,777,216 tokens with 4 rungs per octave; a length maps to the rung at or above it', () => {
    assert.equal(LADDER[0], LADDER_MIN);
    assert.equal(LADDER[LADDER.length - 1], LADDER_MAX);
    assert.equal(LADDER.length, 4 * 14 + 1);
    for (let i = 1; i < LADDER.length; i++) assert.ok(LADDER[i] / LADDER[i - 1] < 1.2, `${LADDER[i - 1]} → ${LADDER[i]}`);
    for (const L of [1, 1024, 1025, 20000, 262144, 262145, LADDER_MAX]) {
      const r = ladderCeil(L)!;
      assert.ok(r >= L && LADDER.includes(r), `${L} → ${r}`);
      assert.ok(LADDER.indexOf(r) === 0 || LADDER[LADDER.indexOf(r) - 1] < L, `${L}: ${r} is not the lowest rung above`);
    }
    assert.equal(ladderCeil(262144), 262144);
    assert.equal(ladderCeil(LADDER_MAX + 1), undefined);
    assert.equal(ladderCeil(Number.NaN), undefined);
  });

  it('covers every rotary dim of the catalog', () => {
    const dims = new Set<number>();
    for (const m of CATALOG) {
      const rope = readModelRope(parseJsonDocument(JSON.stringify(m.config)));
      if (!rope) continue;
      dims.add(rope.rotaryDim.value);
      for (const g of ropeGroups(rope)) dims.add(g.rotaryDim.value);
    }
    assert.ok(dims.size >= 5, [...dims].join(', '));
    assert.deepEqual(
      [...dims].filter((d) => !TABLE_DIMS.includes(d)),
      [],
    );
  });

  it('matches its schema; every row is on the ladder, for a listed dim, with facts of the current code', () => {
    assert.deepEqual(validate(table, schema as never), []);
    const rows = tableRows();
    assert.ok(rows.length >= TABLE_DIMS.length * 8, `only ${rows.length} rows`);
    for (const r of rows) {
      assert.ok(LADDER.includes(r.length) && TABLE_DIMS.includes(r.dim), `${r.length}/${r.dim}`);
      for (const f of [r.bstar, r.robust, r.threshold]) if (f) assert.equal(f.codeVersion, PROOF_CODE_VERSION, `${r.length}/${r.dim}`);
    }
  });

  it('is monotone in the length: b* and the smallest robust base never fall from one rung to the next', () => {
    for (const d of TABLE_DIMS) {
      let b = 0,
        c = 0;
      for (const L of LADDER) {
        const bs = tableBstar(L, d)?.value;
        const rb = tableRobustBase(L, d);
        if (bs !== undefined) {
          assert.ok(bs >= b * (1 - 1e-12), `b*(${L}, ${d}) = ${bs} < ${b}`);
          b = bs;
        }
        if (rb && rb.rung === L) {
          assert.ok(rb.value >= c, `robust(${L}, ${d}) = ${rb.value} < ${c}`);
          assert.ok(bs === undefined || 0.9 * rb.value >= bs, `robust(${L}, ${d}) = ${rb.value}: its neighbourhood reaches below b*`);
          c = rb.value;
        }
      }
    }
  });

  it('a random sample of short rows re-proven by an independent float64 scan', () => {
    const seed = Number(process.env.ROPE_LENS_TABLE_SEED) || Date.now() % 1e9;
    console.log(`      seed ${seed} (ROPE_LENS_TABLE_SEED=${seed} replays it)`);
    const rand = seeded(seed);
    const short = tableRows().filter((r) => r.length <= 4096 && r.robust && r.bstar);
    assert.ok(short.length >= 8);
    for (let k = 0; k < 3; k++) {
      const r = short[Math.floor(rand() * short.length)];
      const { length: L, dim: d } = r;
      const at = `L = ${L}, d = ${d} (seed ${seed})`;
      // b*: valid itself, and a base 1e-6 below it is not (b* is the left end of its island).
      assert.equal(firstInvalidM(r.bstar!.value * (1 + 1e-12), d, L), null, `b* invalid at ${at}`);
      assert.notEqual(firstInvalidM(r.bstar!.value * (1 - 1e-6), d, L), null, `a base below b* is valid at ${at}`);
      // The robust base: 161 bases across its ±10% all valid; the round base below it is not robust.
      const c = r.robust!.base;
      assert.deepEqual(invalidAcrossNeighbourhood(c, d, L, 161), [], `robust base ${c} at ${at}`);
      const below = c - (nextNice(c) - c);
      if (0.9 * below > r.bstar!.value) assert.equal(robustNeighbourhood(below, d, L).robust, false, `${below} is robust too at ${at}`);
      // The threshold: every base above it valid on a fine sample, the invalid base just below it invalid.
      if (r.threshold?.located) {
        assert.notEqual(firstInvalidM(r.threshold.invalidAt, d, L), null, `invalidAt is valid at ${at}`);
        for (let j = 0; j < 40; j++) {
          const b: number = r.threshold.validAbove * Math.pow(4, rand());
          assert.equal(firstInvalidM(b, d, L), null, `${b} above the threshold is invalid at ${at}`);
        }
      }
    }
  });

  it('answers a length from the rung at or above it, and says which', () => {
    const r = tableRobustBase(4000, 128)!;
    assert.equal(r.rung, 4096);
    assert.equal(r.value, tableRobustBase(4096, 128)!.value);
    const v = tableValidAbove(4000, 128)!;
    assert.equal(v.rung, 4096);
    assert.equal(v.located, false, 'a threshold located at 4,096 is only a bound at 4,000');
    assert.equal(tableValidAbove(4096, 128)!.located, true);
    assert.equal(tableBstar(4000, 128), undefined, 'b* of another length is not b* here');
  });
});
