/**
 * Hostile YAML before the yaml package parses it (shared/document/yamlGuard.ts): parts nested past
 * MAX_YAML_NESTING are blanked with their offsets kept, the rest is read; and repeated keys are found
 * in one pass (shared/document/yamlDuplicateKeys.ts), the same ones the package's quadratic check finds.
 * Work is checked structurally (what reaches the parser), never by the clock.
 */
import { strict as assert } from 'node:assert';
import { parseAllDocuments, parseDocument } from 'yaml';
import { parseYamlDocument } from '../../shared/document/parseYaml';
import { duplicateKeyErrors } from '../../shared/document/yamlDuplicateKeys';
import { guardYamlNesting, MAX_YAML_NESTING } from '../../shared/document/yamlGuard';
import { checkYamlStrict } from '../../shared/document/yamlStrict';
import { parseYamlDocs } from '../../shared/launch/yamlScalar';

/** Deepest run of unclosed [ and { in a text (a plain count: the test inputs quote none). */
function bracketDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (const c of text) {
    if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return max;
}

const deepFlow = (d: number) => `a: 1\nlabels: ${'['.repeat(d)}${']'.repeat(d)}\nb: 2\n`;

describe('YAML nesting guard and duplicate keys', () => {
  it('a flow list nested 10,000 deep is blanked, offsets kept; the keys around it are read', () => {
    const text = deepFlow(10_000);
    const g = guardYamlNesting(text);
    assert.equal(g.text.length, text.length);
    assert.deepEqual(g.blanked, [{ offset: text.indexOf('['), length: 20_000 }]);
    assert.ok(bracketDepth(g.text) <= MAX_YAML_NESTING);
    assert.deepEqual(parseDocument(g.text).toJSON(), { a: 1, labels: null, b: 2 });
  });

  it('nesting up to the cap is left alone, one level more is not', () => {
    const at = deepFlow(MAX_YAML_NESTING);
    assert.equal(guardYamlNesting(at).text, at);
    assert.equal(guardYamlNesting(deepFlow(MAX_YAML_NESTING + 1)).blanked.length, 1);
  });

  it('an unclosed deep flow list is blanked to where the lexer ends it, not to the end of the file', () => {
    const text = `a: 1\nlabels: ${'['.repeat(200)}\nb: 2\n`;
    const g = guardYamlNesting(text);
    assert.equal(g.blanked.length, 1);
    assert.equal(parseDocument(g.text).toJSON().b, 2);
  });

  it('a line of thousands of block indicators or a node with thousands of anchors is blanked from its first indicator', () => {
    for (const [line, key] of [
      [`${'- '.repeat(5000)}x`, 'b'],
      [`${'? '.repeat(5000)}x`, 'b'],
      [`  ${'&a '.repeat(5000)}x`, 'b'],
      [`  ${'!t '.repeat(5000)}x`, 'b'],
    ]) {
      const text = `a: 1\n${key}:\n${line}\nc: 3\n`;
      const g = guardYamlNesting(text);
      assert.equal(g.blanked.length, 1, line.slice(0, 10));
      assert.equal(g.text.length, text.length);
      const json = parseDocument(g.text).toJSON();
      assert.equal(json.a, 1);
      assert.equal(json.c, 3);
    }
  });

  it('real YAML is returned as it is (the same string), block scalars holding brackets and dashes included', () => {
    const text = `a: [1, {b: [2, 3]}]\nrun: |\n  [[ -f x ]] && echo ${'- '.repeat(80)}\n  ${'['.repeat(80)}\nz: x[y # [c\n`;
    const g = guardYamlNesting(text);
    assert.deepEqual(g.blanked, []);
    assert.equal(g.text, text);
  });

  it('the launch reader, the config parser and the strict checker say what was not read', () => {
    const text = `services:\n  api:\n    image: vllm/vllm-openai:v0.6.3\n    labels: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const launch = parseYamlDocs(text);
    assert.ok(launch.problems.some((p) => p.partial && /nested more than 64 levels deep/.test(p.message) && p.offset === text.indexOf('[')));
    assert.equal((launch.docs[0].toJSON() as { services: { api: { image: string } } }).services.api.image, 'vllm/vllm-openai:v0.6.3');
    assert.ok(parseYamlDocument(text).problems.some((p) => /nested more than 64 levels deep/.test(p.message)));
    assert.ok(checkYamlStrict(text).some((p) => p.kind === 'syntax' && /nested/.test(p.message)));
  });

  it('repeated keys: the same ones, at the same keys, as the package finds with uniqueKeys', () => {
    const texts = [
      'a: 1\nb: 2\na: 3\n',
      'x:\n  k: 1\n  k: 2\n  k: 3\ny: {p: 1, q: 2, p: 3}\n',
      '- {a: 1, a: 2}\n- a: 1\n  b: 2\n',
      '1: a\n"1": b\n1: c\nnull: x\n~: y\n',
      'a: 1\n---\na: 2\nb: 3\nb: 4\n',
    ];
    for (const text of texts) {
      const theirs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false }).flatMap((d) =>
        d.errors.filter((e) => e.code === 'DUPLICATE_KEY').map((e) => e.pos[0]),
      );
      const ours = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false }).flatMap((d) => duplicateKeyErrors(d).map((e) => e.offset));
      assert.deepEqual(
        ours.sort((x, y) => x - y),
        theirs.sort((x, y) => x - y),
        text,
      );
      assert.equal(checkYamlStrict(text).filter((p) => p.kind === 'duplicate-key').length, theirs.length, text);
    }
  });
});
