/**
 * No two findings on one file contradict each other (issue 26, point 4), where that can be told
 * mechanically: every finding that quotes the context the checkpoint was trained at quotes the same
 * number, and a file told "that is how the model was trained" (a stock checkpoint) is not also told
 * its context was extended past what it was trained at. Over every JSON and YAML fixture and example,
 * and every catalog model's config raised to 4× its trained context.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { said } from './helpers/findingText';
import { CATALOG, catalogConfigText } from '../../shared/config/catalog';

const ROOT = join(__dirname, '..', '..');
const service = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver });

function files(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(json|ya?ml)$/.test(n) && !/expected|results|schema|catalogIds|sarif/.test(n)) out.push(p);
  }
  return out;
}

/** "trained at 8,192", "trained context of 32,768", "the 8,192 tokens this checkpoint was trained at". */
function trainedQuoted(message: string): number[] {
  const out: number[] = [];
  const num = (s: string) => Number(s.replace(/,/g, ''));
  for (const m of message.matchAll(/trained (?:at|context of|context) ([\d,]{3,})/g)) out.push(num(m[1]));
  for (const m of message.matchAll(/([\d,]{3,}) tokens (?:this checkpoint|the model|it) was trained at/g)) out.push(num(m[1]));
  return out;
}

describe('no two findings on one file contradict each other', function () {
  this.timeout(600000);
  const all = [...files(join(ROOT, 'examples')), ...files(join(ROOT, 'test', 'fixtures'))];
  it(`over ${all.length} fixture files and the catalog raised ×4`, () => {
    let judged = 0,
      quoting = 0;
    const problems: string[] = [];
    // The fixtures, and every catalog model's config with its context raised to 4× (the situation-3 files).
    const inputs: [string, () => string][] = all.map((f) => [f, () => readFileSync(f, 'utf8')]);
    for (const e of CATALOG.filter((x) => !x.noRope)) {
      inputs.push([
        join(ROOT, `catalog:${e.id}×4`, 'config.json'),
        () => {
          const cfg = JSON.parse(catalogConfigText(e)) as Record<string, unknown>;
          const scope = (typeof cfg['text_config'] === 'object' && cfg['text_config'] ? cfg['text_config'] : cfg) as Record<string, unknown>;
          scope['max_position_embeddings'] = 4 * e.trainedContext.value;
          return JSON.stringify(cfg, null, 2);
        },
      ]);
    }
    for (const [f, text] of inputs) {
      let a;
      try {
        a = service.analyze(text(), { fileName: f });
      } catch {
        continue; // files the service refuses are another test's business
      }
      const ts = new Set(a.diagnostics.flatMap((d) => trainedQuoted(said(d))));
      if (ts.size > 0) quoting++;
      if (ts.size > 1) problems.push(`${relative(ROOT, f)}: trained contexts ${[...ts].join(' and ')}`);
      const stock = a.diagnostics.some((d) => /That is how the model was trained/.test(said(d)));
      const extended = a.diagnostics.some((d) => d.code === 'rope/context-extended' || d.code === 'training/context-exceeded');
      if (stock && extended) problems.push(`${relative(ROOT, f)}: told both stock and extended`);
      if (a.diagnostics.length) judged++;
    }
    assert.deepEqual(problems, []);
    assert.ok(judged > 50, `judged ${judged}`);
    assert.ok(quoting > 50, `files whose findings quote a trained context: ${quoting}`);
  });
});
