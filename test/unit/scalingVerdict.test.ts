/**
 * One rule for scalings (advice/scalingVerdict.ts, docs/judgement.md): trained frequencies are judged
 * by the bound, a scaling used without training by its reach and its vendor's validation, the bound
 * then information that never says "holds to".
 */
import { strict as assert } from 'node:assert';
import { boundInformation, judgeRewrite, reachOf, verdictPasses, verdictText } from '../../shared/advice/scalingVerdict';
import { adviseRewrite, rank } from '../../shared/advice/advice';
import { catalogConfigText, CATALOG } from '../../shared/config/catalog';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import type { ModelRope } from '../../shared/config/modelRope';

const service = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver });

function ropeOf(id: string): ModelRope {
  const entry = CATALOG.find((e) => e.id === id);
  assert.ok(entry, id);
  const rope = service.describe(catalogConfigText(entry), { fileName: `${id}/config.json` }).rope;
  assert.ok(rope, id);
  return rope;
}

describe('one rule for scalings (scalingVerdict)', () => {
  it('reach is factor × original (dynamic NTK reaches the length it runs at)', () => {
    assert.equal(reachOf({ kind: 'yarn', factor: 4, original: 32768 }, 4096, 131072), 131072);
    assert.equal(reachOf({ kind: 'linear', factor: 3 }, 4096, 16384), 12288);
    assert.equal(reachOf({ kind: 'dynamic', factor: 2 }, 4096, 16384), 16384);
  });

  it('untrained: "covers" whatever the bound says, the bound as information without "holds to"; trained: the bound', () => {
    const bound = { lmax: 66234, length: 131072 };
    const served = judgeRewrite(bound, 'untrained', { kind: 'yarn', factor: 4, original: 32768, from: 32768, validatedBy: "Qwen's model card" });
    assert.equal(verdictText(served), "covers 131,072, validated by Qwen's model card");
    assert.ok(verdictPasses(served));
    assert.equal(served.lmax, 66234, 'the bound is kept as information');
    const info = boundInformation(served)!;
    assert.match(info, /66,234 of 131,072, is information/);
    assert.doesNotMatch(`${verdictText(served)} ${info}`, /holds to|fails/);

    const trained = judgeRewrite(bound, 'trained', { kind: 'yarn', factor: 4, original: 32768, from: 32768 });
    assert.equal(verdictText(trained), 'holds to 66,234 of 131,072');
    assert.ok(!verdictPasses(trained));
    assert.equal(boundInformation(trained), undefined);
    assert.equal(verdictText(judgeRewrite({ lmax: null, length: 16384 }, 'trained')), 'meets the bound at 16,384');

    // A scaling that stops short says how far it reaches, not a bound.
    const short = judgeRewrite({ lmax: null, length: 131072 }, 'untrained', { kind: 'linear', factor: 3, from: 32768 });
    assert.equal(verdictText(short), 'reaches 98,304 of 131,072');
    assert.ok(!verdictPasses(short));
  });

  it("Qwen2.5-7B at 131,072 untrained: Qwen's recipe is preferred and covers it; trained, the bound judges it", () => {
    const rope = ropeOf('Qwen/Qwen2.5-7B');
    const served = adviseRewrite({ rope, length: 131072, trained: 32768 })!;
    assert.ok(served.preferred.recipe, served.preferred.label);
    assert.equal(served.preferred.verdict?.judgedBy, 'reach');
    assert.match(served.why, /^the vendor's recipe \(it covers 131,072, validated by Qwen's model card; the bound .* is information/);
    assert.doesNotMatch(served.why, /holds to/);
    const trained = adviseRewrite({ rope, length: 131072, trained: 32768, training: true })!;
    const recipe = trained.options.find((o) => o.recipe)!;
    assert.match(verdictText(recipe.verdict!), /^holds to [\d,]+ of 131,072$/);
  });

  it('trained ranking: a base meets the bound only with its ±10% proven; among those that do, the smallest change', () => {
    const meets = { lmax: null, length: 16384, judgedBy: 'bound' as const };
    const holds = (m: number) => ({ lmax: m, length: 16384, judgedBy: 'bound' as const });
    const options = [
      { kind: 'linear' as const, verdict: holds(6825), change: 1.386 },
      { kind: 'raise-base' as const, verdict: meets, change: 0.97, robust: false },
      { kind: 'raise-base' as const, verdict: meets, change: 2.175, robust: true },
      { kind: 'yarn' as const, verdict: meets, change: 2.5 },
    ];
    const ranked = rank(options, true);
    assert.deepEqual(
      ranked.map((o) => o.change),
      [2.175, 2.5, 0.97, 1.386],
    );
    // Untrained, the same options are ranked by reach (all cover here) and the family, not by the bound.
    const untrained = rank(
      [
        { kind: 'ntk' as const, verdict: { lmax: 56262, length: 65536, judgedBy: 'reach' as const, reach: 65536 } },
        { kind: 'llama3' as const, verdict: { lmax: null, length: 65536, judgedBy: 'reach' as const, reach: 65536 } },
        { kind: 'yarn' as const, verdict: { lmax: null, length: 65536, judgedBy: 'reach' as const, reach: 32768 } },
      ],
      false,
      'llama3',
    );
    assert.deepEqual(
      untrained.map((o) => o.kind),
      ['llama3', 'ntk', 'yarn'],
    );
  });
});
