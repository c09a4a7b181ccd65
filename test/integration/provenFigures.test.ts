/**
 * Only proven figures are printed as facts (issue 42): `bound --base` at a base the grid estimate of the
 * threshold misses (an invalid base above the estimate) prints no "every base … valid" figure below that
 * base; the estimate stands on its own line and says it is one.
 */
import { strict as assert } from 'node:assert';
import { run } from '../../server/cli/bound';
import { threshold } from '../../shared/bstar/index';
import { tableRow } from '../../shared/bstar/table/provenTable';
import { firstInvalidM } from '../unit/helpers/independentScan';

async function boundText(args: string[]): Promise<string> {
  const out: string[] = [];
  assert.equal(await run(args, { out: (t: string) => out.push(t), err: () => {} }), 0);
  return out.join('\n');
}

/** Every figure the text states as "every base … valid" (with or without ≈). */
function validFigures(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(?:valid above|every base (?:above|≥)) ≈? ?([\d,]+(?:\.\d+)?(?:e[+-]?\d+)?)/g)) out.push(Number(m[1].replace(/,/g, '')));
  return out;
}

describe('bound prints proven figures only', function () {
  this.timeout(120_000);

  it('--base 1317447 --length 16384 --head-dim 128: no "valid" figure below the invalid base, the estimate on its own line', async () => {
    assert.notEqual(firstInvalidM(1317447, 128, 16384), null, 'the base is invalid (independent scan)');
    const text = await boundText(['--base', '1317447', '--length', '16384', '--head-dim', '128']);
    assert.match(text, /NOT valid/);
    const figures = validFigures(text);
    assert.ok(figures.length >= 1, text);
    for (const f of figures) assert.ok(f >= 1317447, `${f} stated as valid-above, below the invalid 1,317,447:\n${text}`);
    const estimate = text.split('\n').find((l) => /estimate/.test(l));
    assert.ok(estimate && /not proven/.test(estimate) && !/valid above/.test(estimate), text);
  });

  for (const L of [4096, 8192, 16384, 65536]) {
    it(`L = ${L}, d = 128: an invalid base above the grid estimate is never under a printed "valid" figure`, async function () {
      const t = tableRow(L, 128)?.threshold;
      if (!t?.located) this.skip();
      const est = threshold(L, 128).threshold;
      // The table's proof found an invalid base just below its threshold; the estimate lies below it where the grid missed it.
      const invalid = t!.invalidAt;
      assert.notEqual(firstInvalidM(invalid, 128, L), null, `${invalid} is valid (independent scan)`);
      if (invalid <= est) this.skip();
      const text = await boundText(['--base', String(invalid), '--length', String(L), '--head-dim', '128']);
      for (const f of validFigures(text)) assert.ok(f >= invalid, `${f} < ${invalid}:\n${text}`);
    });
  }
});
