import { strict as assert } from 'node:assert';
import { loadsPython } from '../../shared/document/strictJson';
import { readJsonObject } from '../../shared/serving/argv';
import type { OptionUse } from '../../shared/launch/request';

/** What CPython 3.11's json.loads gave for each text (run on the dev machine, 2026-11-26). */
const PYTHON: [string, unknown][] = [
  ['NaN', Number.NaN],
  ['{"a": NaN}', { a: Number.NaN }],
  ['[1,2]', [1, 2]],
  ['{"a": -Infinity, "b": "x\\"NaN"}', { a: -Infinity, b: 'x"NaN' }],
  [' {"rope_scaling": {"rope_type": "yarn", "factor": 4.0}} ', { rope_scaling: { rope_type: 'yarn', factor: 4 } }],
];
const ERRORS: [string, string][] = [
  ['', 'Expecting value: line 1 column 1 (char 0)'],
  ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
  ['\n {x', 'Expecting property name enclosed in double quotes: line 2 column 3 (char 3)'],
  ["{'rope_theta': 1e6}", 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
];

describe("loadsPython: option values as Python's json.loads reads them", () => {
  for (const [text, value] of PYTHON) {
    it(`reads ${JSON.stringify(text)} as Python does`, () => {
      const r = loadsPython(text);
      assert.ok('value' in r, JSON.stringify(r));
      assert.deepEqual(r.value, value);
    });
  }
  for (const [text, error] of ERRORS) {
    it(`refuses ${JSON.stringify(text)} with Python's message`, () => {
      assert.deepEqual(loadsPython(text), { error });
    });
  }

  it('an override option says what json.loads gives when it is not an object, and Python’s error when it is not JSON', () => {
    const use = (value: string) => ({ value: { value } }) as unknown as OptionUse;
    assert.deepEqual(readJsonObject(use('NaN')), { error: 'the value is JSON but a number, not the object of keys the engine expects' });
    assert.deepEqual(readJsonObject(use('{"rope_theta": NaN}')).value, { rope_theta: Number.NaN });
    assert.match(
      readJsonObject(use("{'rope_theta': 1e6}")).error ?? '',
      /^json\.loads fails on the value \(Expecting property name enclosed in double quotes: line 1 column 2 \(char 1\)\)$/,
    );
  });
});
