import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { parseYamlDocument } from '../../shared/document/parseYaml';
import { child, nodeAt, pathOf, toPlain, valueRange, keyRange } from '../../shared/document/configNode';

describe('document parsing with positions', () => {
  it('keeps exact ranges in JSON with BOM, CRLF, tabs and comments', () => {
    const text = '\ufeff{\r\n\t"rope_theta": 1e6, // base\r\n\t"x": [1, 2,],\r\n}';
    const doc = parseJsonDocument(text);
    const theta = child(doc.root, 'rope_theta')!;
    assert.equal(theta.value, 1e6);
    assert.deepEqual(valueRange(doc, theta), { start: { line: 1, character: 15 }, end: { line: 1, character: 18 } });
    assert.deepEqual(keyRange(doc, theta).start, { line: 1, character: 1 });
    assert.deepEqual(toPlain(doc.root), { rope_theta: 1e6, x: [1, 2] });
  });

  it('gives a null node for a property whose value is still being typed', () => {
    const doc = parseJsonDocument('{"rope_theta": }');
    assert.equal(child(doc.root, 'rope_theta')!.kind, 'null');
    assert.ok(doc.problems.length > 0);
  });

  it('reads YAML 1.1 numbers, merge keys and aliases as PyYAML does', () => {
    const doc = parseYamlDocument('base: &b {rope_theta: 500_000}\nm:\n  <<: *b\n  seq: 8192\n');
    assert.equal(nodeAt(doc.root, ['m', 'rope_theta'])!.value, 500000);
    assert.equal(nodeAt(doc.root, ['m', 'seq'])!.value, 8192);
    assert.deepEqual(pathOf(nodeAt(doc.root, ['m', 'seq'])!), ['m', 'seq']);
    const seq = nodeAt(doc.root, ['m', 'seq'])!;
    assert.deepEqual(valueRange(doc, seq), { start: { line: 3, character: 7 }, end: { line: 3, character: 11 } });
  });

  it('refuses an alias bomb quickly instead of expanding it', () => {
    let text = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 9; i++)
      text += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    // Refused, not expanded (no wall-clock assertion here: npm run bench times the parser).
    const doc = parseYamlDocument(text);
    assert.equal(doc.root, undefined);
    assert.match(said(doc.problems[0]), /alias/);
  });
});
