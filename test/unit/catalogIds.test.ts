/**
 * The catalog keeps what it had: every id and alias in test/fixtures/catalogIds.json (a committed
 * list) must still name a catalog entry, resolve offline as a base model (training configs, serving
 * configs, `plan`, `serve` all go through the resolver) and name the same model by its identity.
 * The list was lost once (gemma-3 4b/12b when the catalog moved to models.json): an entry or a
 * family's size variant that disappears fails here with its id.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, findCatalogEntry, namesOf } from '../../shared/config/catalog';
import { catalogResolver } from '../../shared/config/resolve';
import { identifyModel } from '../../shared/config/identity';

const LIST: { ids: string[] } = JSON.parse(readFileSync(join(__dirname, '../fixtures/catalogIds.json'), 'utf8'));

describe('catalog ids (committed list)', () => {
  it('the list is not empty and has gemma-3 in every size', () => {
    assert.ok(LIST.ids.length >= 230, `only ${LIST.ids.length} ids`);
    for (const size of ['1b', '4b', '12b', '27b']) {
      assert.ok(LIST.ids.includes(`google/gemma-3-${size}-it`), `gemma-3-${size}-it missing from the list`);
    }
  });

  it('every listed id still names a catalog entry that answers to it', () => {
    const lost = LIST.ids.filter((id) => {
      const e = findCatalogEntry(id);
      return !e || !namesOf(e).some((n) => n.toLowerCase() === id.toLowerCase());
    });
    assert.deepEqual(lost, [], `catalog entries lost: ${lost.join(', ')}`);
  });

  it('every catalog id is in the list (a new entry is protected once listed)', () => {
    const listed = new Set(LIST.ids.map((s) => s.toLowerCase()));
    const missing = CATALOG.flatMap(namesOf).filter((id) => !listed.has(id.toLowerCase()));
    assert.deepEqual(missing, [], `add to test/fixtures/catalogIds.json: ${missing.join(', ')}`);
  });

  it('every listed id of a RoPE model resolves offline as a base model, with its identity', () => {
    const failures: string[] = [];
    for (const id of LIST.ids) {
      const e = findCatalogEntry(id);
      if (!e || e.noRope) continue;
      const hit = catalogResolver.resolve([id], '/work/train.yaml');
      if (!hit) failures.push(`${id}: not resolved`);
      else if (hit.from !== `catalog:${e.id}`) failures.push(`${id}: resolved from ${hit.from}`);
      else if (identifyModel({ nameOrPath: id })?.identity.id !== e.id) failures.push(`${id}: identity ${identifyModel({ nameOrPath: id })?.identity.id}`);
    }
    assert.deepEqual(failures, []);
  });

  it('google/gemma-3-4b-it: linear ×8 on global layers, sliding window 1,024, trained at 32,768', () => {
    const hit = catalogResolver.resolve(['google/gemma-3-4b-it'], '/work/train.yaml')!;
    assert.equal(hit.rope.scaling?.type, 'linear');
    assert.equal(hit.rope.slidingWindow?.value, 1024);
    assert.equal(hit.rope.trainedContext?.value, 32768);
    assert.equal(hit.rope.rotaryDim.value, 256);
  });
});
