import { strict as assert } from 'node:assert';
import { elide, jsonQuote, pyNumber, pyRepr, pyStr, pyString } from '../../shared/core/quote';
import { MAX_QUOTED_CHARS } from '../../shared/core/limits';

describe('values quoted in messages (core/quote)', () => {
  it('prints small values exactly as Python repr does', () => {
    // Each right-hand side is what CPython 3 prints for json.loads of the same text.
    assert.equal(pyRepr({ type: 'linear', factor: 2, original: null, on: true }), "{'type': 'linear', 'factor': 2, 'original': None, 'on': True}");
    assert.equal(pyRepr([1, 'x', [false]]), "[1, 'x', [False]]");
    assert.equal(pyString("it's"), '"it\'s"');
    assert.equal(pyString('a\'b"c'), "'a\\'b\"c'");
    assert.equal(pyString('tab\there\n'), "'tab\\there\\n'");
    assert.equal(pyString('\u0001'), "'\\x01'");
  });

  it("prints floats in Python's notation (1e-05, 1e+16, 0.0001, 8.0 for float keys)", () => {
    assert.equal(pyNumber(0.5), '0.5');
    assert.equal(pyNumber(1e-5), '1e-05');
    assert.equal(pyNumber(0.0001), '0.0001');
    assert.equal(pyNumber(1.5e300), '1.5e+300');
    assert.equal(pyNumber(1e16, true), '1e+16');
    assert.equal(pyNumber(123456789012345.6), '123456789012345.6');
    assert.equal(pyNumber(-2.5e-7), '-2.5e-07');
    assert.equal(pyNumber(8, true), '8.0');
    assert.equal(pyNumber(2 ** 53), '9007199254740992');
    assert.equal(
      pyRepr({ factor: 8, original_max_position_embeddings: 8192 }, { floatKeys: new Set(['factor']) }),
      "{'factor': 8.0, 'original_max_position_embeddings': 8192}",
    );
  });

  it('str() prints a string bare and anything else as its repr', () => {
    assert.equal(pyStr('yarn'), 'yarn');
    assert.equal(pyStr({ a: 'b' }), "{'a': 'b'}");
    assert.equal(pyStr(null), 'None');
  });

  it('elides a long or deeply nested value after a short prefix, whatever its size', () => {
    let deep: unknown = { long_factor: 127 };
    for (let i = 0; i < 100_000; i++) deep = { x: deep }; // far deeper than any recursion could follow
    const r = pyRepr({ factor: deep });
    assert.ok(r.length <= MAX_QUOTED_CHARS + 1, r);
    assert.ok(r.startsWith("{'factor': {'x': {'x': "), r);
    assert.ok(r.endsWith('…'));
    const list = pyRepr(Array.from({ length: 1_000_000 }, (_, i) => i));
    assert.ok(list.length <= MAX_QUOTED_CHARS + 1 && list.startsWith('[0, 1, 2, ') && list.endsWith('…'), list);
    const long = pyRepr('y'.repeat(1_000_000));
    assert.equal(long, "'" + 'y'.repeat(MAX_QUOTED_CHARS - 1) + '…');
    assert.equal(jsonQuote({ x: 'z'.repeat(500) }, { max: 20 }), '{"x":"zzzzzzzzzzzzzz…');
  });

  it('never splits a surrogate pair', () => {
    assert.equal(elide('ab😀cd', 3), 'ab…');
    assert.equal(elide('short', 10), 'short');
  });
});
