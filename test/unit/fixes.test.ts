import { strict as assert } from 'node:assert';
import { parseDocumentText } from '../../shared/document/parse';
import { DocumentEditor } from '../../shared/fixes/documentEditor';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { float, floatText } from '../../shared/fixes/render';
import { roundUpNice } from '../../shared/fixes/chooseBase';
import type { TextEdit } from '../../shared/service/types';

function edit(text: string, format: 'json' | 'yaml', f: (e: DocumentEditor) => TextEdit[]): string {
  const doc = parseDocumentText(text, format);
  const out = applyTextEdits(text, doc.lines, f(new DocumentEditor(doc)));
  assert.deepEqual(parseDocumentText(out, format).problems, [], `result must parse:\n${out}`);
  return out;
}

describe('fix edits: JSON', () => {
  it('replaces a null rope_scaling with a tab-indented block in a tab-indented file', () => {
    const out = edit('{\n\t"a": 1,\n\t"rope_scaling": null\n}\n', 'json', (e) =>
      e.set(['rope_scaling'], { rope_type: 'yarn', factor: float(4), original_max_position_embeddings: 32768 }),
    );
    assert.equal(
      out,
      '{\n\t"a": 1,\n\t"rope_scaling": {\n\t\t"rope_type": "yarn",\n\t\t"factor": 4.0,\n\t\t"original_max_position_embeddings": 32768\n\t}\n}\n',
    );
  });

  it("inserts a missing key with CRLF line ends and the file's indentation", () => {
    const out = edit('{\r\n  "a": 1,\r\n  "b": 2\r\n}\r\n', 'json', (e) => e.set(['rope_theta'], 40889.94));
    assert.equal(out, '{\r\n  "a": 1,\r\n  "b": 2,\r\n  "rope_theta": 40889.94\r\n}\r\n');
  });

  it('keeps a one-line dump on one line', () => {
    const text = '{"a": 1, "rope_scaling": {"type": "linear", "factor": 2}}';
    const out = edit(text, 'json', (e) => e.setObject(['rope_scaling'], { rope_type: 'yarn', factor: float(4), original_max_position_embeddings: 4096 }));
    assert.equal(out, '{"a": 1, "rope_scaling": {"factor": 4.0, "rope_type": "yarn", "original_max_position_embeddings": 4096}}');
  });

  it('removes a middle key, and the last key with its comma', () => {
    const text = '{\n  "type": "linear",\n  "rope_type": "linear",\n  "factor": 2.0\n}';
    assert.equal(
      edit(text, 'json', (e) => e.remove(['type'])),
      '{\n  "rope_type": "linear",\n  "factor": 2.0\n}',
    );
    assert.equal(
      edit(text, 'json', (e) => e.remove(['factor'])),
      '{\n  "type": "linear",\n  "rope_type": "linear"\n}',
    );
  });

  it('replaces a scalar as a whole token and skips edits that change nothing', () => {
    const text = '{"rope_theta": 10000, "factor": 4.0}';
    const doc = parseDocumentText(text, 'json');
    const ed = new DocumentEditor(doc);
    assert.deepEqual(ed.set(['rope_theta'], 180000), [{ range: { start: { line: 0, character: 15 }, end: { line: 0, character: 20 } }, newText: '180000' }]);
    assert.deepEqual(ed.set(['factor'], float(4)), []);
  });
});

describe('fix edits: YAML', () => {
  it('adds a block under an existing map, keeping comments, blank lines and `500_000`', () => {
    const text = 'base_model: x\nsequence_len: 4096 # len\nmodel_config:\n  rope_theta: 500_000\n\nlr: 1\n';
    const out = edit(text, 'yaml', (e) => e.set(['model_config', 'rope_scaling'], { rope_type: 'yarn', factor: float(2) }));
    assert.equal(
      out,
      'base_model: x\nsequence_len: 4096 # len\nmodel_config:\n  rope_theta: 500_000\n  rope_scaling:\n    rope_type: yarn\n    factor: 2.0\n\nlr: 1\n',
    );
  });

  it('creates a missing parent map at the end of the file', () => {
    const out = edit('base_model: x\nsequence_len: 4096\n', 'yaml', (e) => e.set(['overrides_of_model_config', 'rope_theta'], 40889.94));
    assert.equal(out, 'base_model: x\nsequence_len: 4096\noverrides_of_model_config:\n  rope_theta: 40889.94\n');
  });

  it('inserts into a flow map with a trailing comma, keeping the comma style', () => {
    const out = edit('m: {rope_theta: 1e6, seq: 500_000,}\n', 'yaml', (e) => e.set(['m', 'factor'], float(2)));
    assert.equal(out, 'm: {rope_theta: 1e6, seq: 500_000, factor: 2.0,}\n');
  });

  it('writes JSON-like keys into a GPT-NeoX flow document with comments', () => {
    const out = edit('{\n  "seq_length": 2048,\n  # comment\n  "rotary_pct": 0.25\n  }\n', 'yaml', (e) => e.set(['rotary_emb_base'], 40000.5));
    assert.equal(out, '{\n  "seq_length": 2048,\n  # comment\n  "rotary_pct": 0.25,\n  "rotary_emb_base": 40000.5\n  }\n');
  });

  it('removes a block entry with its lines, and fills an empty value', () => {
    const text = 'a: 1\nrope_scaling:\n  type: linear\n  factor: 2\nb: 2\n';
    assert.equal(
      edit(text, 'yaml', (e) => e.remove(['rope_scaling'])),
      'a: 1\nb: 2\n',
    );
    assert.equal(
      edit('x: 1\nrope_scaling:\ny: 2\n', 'yaml', (e) => e.set(['rope_scaling'], 'yarn')),
      'x: 1\nrope_scaling: yarn\ny: 2\n',
    );
  });

  it('keeps CRLF in YAML insertions', () => {
    const out = edit('a: 1\r\nm:\r\n  k: 2\r\n', 'yaml', (e) => e.set(['m', 'rope_theta'], 1000000));
    assert.equal(out, 'a: 1\r\nm:\r\n  k: 2\r\n  rope_theta: 1000000\r\n');
  });
});

describe('fix values', () => {
  it('writes floats with a decimal point PyYAML reads as float', () => {
    assert.equal(floatText(4), '4.0');
    assert.equal(floatText(40889.94), '40889.94');
    assert.equal(floatText(1e21), '1000000000000000000000.0');
  });
  it('rounds bases up to two significant digits', () => {
    assert.equal(roundUpNice(231643.6), 240000);
    assert.equal(roundUpNice(54000), 54000);
    assert.equal(roundUpNice(5.849617e7), 59000000);
  });
});
