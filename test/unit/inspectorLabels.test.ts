/**
 * The Inspector's plots are referred to by their letter (docs/inspector.md, the controls' "base used
 * for (c)"), so each letter names one plot: the titles the page draws for a real config, validity
 * scan included, carry distinct letters a, b, c, d in order.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildInspectorData } from '../../shared/inspector/build';
import { inspectorInputFromText } from '../../shared/inspector/fromConfig';
import { fbChart, rewritesChart, validityChart, wavelengthChart } from '../../media/src/inspector/charts';
import { testPalette as palette } from './helpers/palette';

describe('Inspector section labels', () => {
  it('each plot has a letter of its own', () => {
    const file = join(__dirname, '..', 'fixtures', 'inspector', 'llama-2-7b.json');
    const d = buildInspectorData(inspectorInputFromText(readFileSync(file, 'utf8'), file), { targetLength: 8192 }, { fbBuckets: 64 });
    const validity = validityChart(d, palette);
    assert.ok(validity, 'the validity plot is drawn for this config');
    const titles = [wavelengthChart(d, palette), rewritesChart(d, palette, new Set()), fbChart(d, palette), validity].map((c) => c.title);
    const letters = titles.map((t) => /^([a-z]) · /.exec(t)?.[1]);
    assert.deepEqual(letters, ['a', 'b', 'c', 'd'], titles.join(' | '));
  });
});
