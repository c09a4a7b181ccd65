/**
 * Huge id2label / label2id maps (a classifier with a million labels makes a 30 MB config.json) are
 * read without a node per label (shared/document/labelMaps.ts): the map's node spans the original
 * text with no children, every offset after it is exact, and Python's verdicts (a syntax error, a
 * duplicate key inside the map) are those of the full parse, at the same place.
 */
import { strict as assert } from 'node:assert';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { checkStrictJson } from '../../shared/document/strictJson';
import { largeLabelMapInteriors } from '../../shared/document/labelMaps';

/** A config whose id2label holds `n` labels, with RoPE keys before and after it. */
function withLabels(n: number, entry = (i: number) => `"${i}": "LABEL_${i}_xxxxxxxxxxxxxxxxxxxx"`): string {
  const labels = Array.from({ length: n }, (_, i) => entry(i)).join(', ');
  return `{\n  "model_type": "llama",\n  "id2label": {${labels}},\n  "rope_scaling": {"rope_type": "linear", "factor": 2.0},\n  "rope_theta": 500000\n}\n`;
}

const N = 40_000; // ~1.5 MB of labels: past the 1 MB threshold
const text = withLabels(N);

describe('huge label maps (labelMaps.ts)', () => {
  it('the tree keeps the map as one childless node spanning it, and the exact offsets of the keys after it', () => {
    const doc = parseJsonDocument(text);
    assert.deepEqual(doc.problems, []);
    const kids = doc.root!.children!;
    const map = kids.find((c) => c.key === 'id2label')!;
    assert.equal(map.kind, 'object');
    assert.deepEqual(map.children, []);
    assert.equal(map.offset, text.indexOf('{"0"'));
    assert.equal(map.offset + map.length, text.indexOf('},\n  "rope_scaling"') + 1);
    const scaling = kids.find((c) => c.key === 'rope_scaling')!;
    assert.equal(scaling.keyOffset, text.indexOf('"rope_scaling"'));
    assert.equal(text.slice(scaling.offset, scaling.offset + scaling.length), '{"rope_type": "linear", "factor": 2.0}');
    const theta = kids.find((c) => c.key === 'rope_theta')!;
    assert.equal(theta.value, 500000);
    assert.equal(text.slice(theta.offset, theta.offset + theta.length), '500000');
    assert.equal(doc.lines.positionAt(theta.offset).line, 4);
  });

  it("Python's json accepts the file: no syntax problem, no duplicate", () => {
    assert.deepEqual(checkStrictJson(text), { duplicates: [] });
  });

  it('a duplicate key deep in the map: not elided, and the duplicate is reported where it is', () => {
    const broken = withLabels(N, (i) => `"${i === N - 5 ? 7 : i}": "L${i}_xxxxxxxxxxxxxxxxxxxxxxxxxxxx"`);
    assert.deepEqual(largeLabelMapInteriors(broken), []);
    const dups = checkStrictJson(broken).duplicates;
    assert.equal(dups.length, 1);
    assert.equal(dups[0].offset, broken.indexOf(`"7": "L${N - 5}_`));
  });

  it('label2id (labels as keys, not in sequence) is elided too; a repeated label is caught', () => {
    const byLabel = withLabels(N, (i) => `"LABEL_${i}_xxxxxxxxxxxxxxxxxxxx": ${i}`).replace('"id2label"', '"label2id"');
    assert.equal(largeLabelMapInteriors(byLabel).length, 1);
    const repeated = byLabel.replace(`"LABEL_${N - 1}_`, '"LABEL_3_');
    assert.deepEqual(largeLabelMapInteriors(repeated), []);
  });

  // What Python's json.loads says of a bad entry deep in the map: its message, and where.
  for (const [bad, message, at] of [
    ['"a": 01', "Expecting ',' delimiter", 6],
    ['"a": NaN', undefined, 0],
    ['"a": "x\ty"', 'Invalid control character at', 7],
    ['"a" 1', "Expecting ':' delimiter", 4],
  ] as const) {
    it(`'${bad}' deep in the map: not elided, and Python's verdict is the full parse's (${message ?? 'accepted'})`, () => {
      const where = text.indexOf(', "', Math.floor(text.length * 0.8)) + 2;
      const broken = `${text.slice(0, where)}${bad}, ${text.slice(where)}`;
      assert.deepEqual(largeLabelMapInteriors(broken), []);
      const syntax = checkStrictJson(broken).syntax;
      assert.equal(syntax?.message, message);
      if (syntax) assert.equal(syntax.offset, where + at);
    });
  }

  it('a file full of key look-alikes is read once, not once per look-alike', () => {
    // 150,000 candidates in 2 MB: a scan of the text before each would take minutes.
    const many = `{"words": [${Array(150_000).fill('"id2label"').join(', ')}], "id2label": {"0": "a"}}`;
    const t0 = performance.now();
    assert.deepEqual(largeLabelMapInteriors(many), []);
    assert.ok(performance.now() - t0 < 5_000, `${(performance.now() - t0).toFixed(0)} ms`);
  });

  it('a key look-alike inside a string, a nested map, or a small file is read as it is', () => {
    assert.deepEqual(largeLabelMapInteriors(`{"note": "x\\"id2label\\": ${'{'}", ${text.slice(1)}`.replace('"id2label": {', '"idxlabel": {')), []);
    assert.deepEqual(largeLabelMapInteriors(`{"inner": ${text}}`), []);
    assert.deepEqual(largeLabelMapInteriors('{"id2label": {"0": "a"}}'), []);
    // The real key after a look-alike in a comment and a string is still found.
    const noted = `{// "id2label": {\n"note": "see \\"id2label\\": {", ${text.slice(1)}`;
    assert.deepEqual(largeLabelMapInteriors(noted), [{ from: noted.indexOf('{"0"') + 1, to: noted.indexOf('},\n  "rope_scaling"') }]);
  });
});
