/**
 * Huge arrays of numbers (a config padded to 20 MB) are read without a node per number
 * (shared/document/longArrays.ts): the tree keeps MAX_LAYERS + 1 elements, every offset after the
 * array is the original text's, and Python's verdict on the file (a bad number deep in the tail) is
 * unchanged, at the same place.
 */
import { strict as assert } from 'node:assert';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { checkStrictJson } from '../../shared/document/strictJson';
import { longNumberArrayTails } from '../../shared/document/longArrays';
import { MAX_LAYERS } from '../../shared/core/limits';
import { bigConfig } from '../integration/hostileInputs';

/** A ~3 MB config: the padding array, then keys after it (their offsets must survive the shortening). */
const text = bigConfig(3_000_000).replace(/\]\n\}\n$/, '],\n  "rope_scaling": {"rope_type": "linear", "factor": 2.0},\n  "tail": [1, 2]\n}\n');

describe('long number arrays (longArrays.ts)', () => {
  it('the tree keeps MAX_LAYERS + 1 elements of the long array, and the offsets of everything after it', () => {
    const doc = parseJsonDocument(text);
    assert.deepEqual(doc.problems, []);
    const kids = doc.root!.children!;
    const padding = kids.find((c) => c.key === 'padding')!;
    assert.equal(padding.children!.length, MAX_LAYERS + 1);
    assert.equal(text[padding.offset], '[');
    assert.equal(padding.offset + padding.length, text.indexOf('],\n  "rope_scaling"') + 1);
    const scaling = kids.find((c) => c.key === 'rope_scaling')!;
    assert.equal(scaling.keyOffset, text.indexOf('"rope_scaling"'));
    assert.equal(text.slice(scaling.offset, scaling.offset + scaling.length), '{"rope_type": "linear", "factor": 2.0}');
    const tail = kids.find((c) => c.key === 'tail')!;
    assert.equal(text.slice(tail.children![1].offset, tail.children![1].offset + 1), '2');
    assert.equal(doc.lines.positionAt(scaling.offset).line, text.slice(0, scaling.offset).split('\n').length - 1);
  });

  it("Python's json accepts the file: no syntax problem", () => {
    assert.equal(checkStrictJson(text).syntax, undefined);
  });

  // What Python's json.loads says of "[5,<bad>,7]": its message, and where (from the start of <bad>).
  for (const [bad, message, at] of [
    ['01', "Expecting ',' delimiter", 1],
    ['1.', "Expecting ',' delimiter", 1],
    [',', 'Expecting value', 0],
    ['+1', 'Expecting value', 0],
  ] as const) {
    it(`a '${bad}' deep in the tail: not shortened, and Python's verdict is where Python stops ("${message}")`, () => {
      const where = text.indexOf(',', Math.floor(text.length * 0.8)) + 1;
      const broken = `${text.slice(0, where)}${bad},${text.slice(where)}`;
      assert.deepEqual(longNumberArrayTails(broken), []);
      const syntax = checkStrictJson(broken).syntax!;
      assert.equal(syntax.message, message);
      assert.equal(syntax.offset, where + at);
    });
  }

  it('a small file is read as it is', () => {
    assert.deepEqual(longNumberArrayTails('{"a": [1, 2, 3]}'), []);
  });
});
