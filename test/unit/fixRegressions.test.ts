/**
 * Issue 26: fixes that broke what they fixed, and two verdicts, each on a real-layout file
 * (test/fixtures/launch/fixes/README.md; configs and axolotl YAML from the corpus).
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { checkStrictJson } from '../../shared/document/strictJson';
import { checkYamlStrict } from '../../shared/document/yamlStrict';
import { checkExecForms } from '../../shared/launch/execForm';
import { loadShellParser } from '../../shared/node/shellParser';
import type { ShellParser } from '../../shared/launch/types';
import type { FileAnalysis, Finding, Fix } from '../../shared/service/types';

const oracle = createSyncOracle();
const dir = 'test/fixtures/launch/fixes';
let shell: ShellParser;

function analyze(text: string, fileName: string, verifyFixes?: boolean): FileAnalysis {
  return analyzeText(text, { fileName, oracle, shellParser: shell, ...(verifyFixes === undefined ? {} : { verifyFixes }) });
}
function one(a: FileAnalysis, code: string): Finding {
  const hits = a.diagnostics.filter((d) => d.code === code);
  assert.equal(
    hits.length,
    1,
    `one ${code} in ${JSON.stringify(
      a.diagnostics.map((d) => [d.code, d.message]),
      null,
      1,
    )}`,
  );
  return hits[0];
}
function apply(text: string, fix: Fix): string {
  return applyTextEdits(text, new LineIndex(text), fix.edits);
}
function serious(a: FileAnalysis): string[] {
  return a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => d.code);
}

describe('issue 26: fixes verified as the consumer reads them', function () {
  this.timeout(60_000);
  before(async () => {
    shell = await loadShellParser();
  });

  it('gpt-oss: a dead rope-scaling override is removed, not renamed into one that replaces its own YaRN', () => {
    const path = `${dir}/gpt-oss-hf-overrides-hyphen.sh`;
    const text = readFileSync(path, 'utf8');
    const d = one(analyze(text, path), 'launch/override-key-ignored');
    assert.match(said(d), /openai\/gpt-oss-120b ships its own YaRN factor 32 over 4,096/);
    assert.equal(d.fixes.length, 1);
    assert.match(d.fixes[0].title, /^Remove --hf-overrides, whose only key rope-scaling is dead/);
    const fixed = apply(text, d.fixes[0]);
    assert.doesNotMatch(fixed, /hf-overrides/);
    assert.match(fixed, /--max-model-len 131072\n$/);
    const after = analyze(fixed, path);
    assert.deepEqual(serious(after), []);
    assert.ok(!after.launches![0].replacesModelScaling);
    // What the rename would have done: a live override in place of the model's YaRN (no beta_fast/beta_slow).
    const renamed = text.replace('"rope-scaling"', '"rope_scaling"');
    assert.equal(analyze(renamed, path).launches![0].replacesModelScaling, true);
  });

  it('gpt-oss in a vLLM --config YAML: the same dead key, the same removal', () => {
    const text =
      'model: openai/gpt-oss-120b\ntensor-parallel-size: 2\nmax-model-len: 131072\nhf-overrides:\n  rope-scaling:\n    rope_type: yarn\n    factor: 32.0\n    original_max_position_embeddings: 4096\n';
    const d = one(analyze(text, 'vllm.yaml'), 'launch/override-key-ignored');
    assert.equal(d.fixes.length, 1);
    assert.match(d.fixes[0].title, /whose only key rope-scaling is dead/);
    assert.equal(apply(text, d.fixes[0]), 'model: openai/gpt-oss-120b\ntensor-parallel-size: 2\nmax-model-len: 131072\n');
    assert.equal(analyze(text.replace('rope-scaling', 'rope_scaling'), 'vllm.yaml').serving!.replacesModelScaling, true);
  });

  for (const [name, path, parses] of [
    ['a Dockerfile exec-form list', `${dir}/Dockerfile.max-model-len-joined`, (t: string) => checkExecForms(t).length === 0],
    ['a compose list', `${dir}/compose-joined/compose.yaml`, (t: string) => checkYamlStrict(t).length === 0],
  ] as const) {
    it(`"Set max-model-len" on "--max-model-len=65536" in ${name} keeps the word one valid string`, () => {
      const text = readFileSync(path, 'utf8');
      const d = one(analyze(text, path), 'vllm/max-model-len-exceeds');
      const fix = d.fixes.find((f) => f.title === 'Set max-model-len to 32768');
      assert.ok(fix, d.fixes.map((f) => f.title).join(' / '));
      const fixed = apply(text, fix!);
      assert.ok(fixed.includes('"--max-model-len=32768"]'), fixed);
      assert.ok(parses(fixed));
      // The list reads back as the same list with the new value.
      const list = (t: string): string[] =>
        path.endsWith('.yaml') ? parseYaml(t).services['vllm-qwen25-7b-instruct'].command : JSON.parse(/ENTRYPOINT (\[.*\])/.exec(t)![1]);
      assert.deepEqual(
        list(fixed),
        list(text).map((w) => w.replace('65536', '32768')),
      );
      assert.deepEqual(serious(analyze(fixed, path)), []);
    });
  }

  it('"--max-model-len=65536" double-quoted in a shell script is rewritten inside its quotes', () => {
    const text = '#!/bin/sh\nvllm serve Qwen/Qwen2.5-7B-Instruct "--max-model-len=65536"\n';
    const d = one(analyze(text, 'serve.sh'), 'vllm/max-model-len-exceeds');
    const fixed = apply(text, d.fixes.find((f) => f.title === 'Set max-model-len to 32768')!);
    assert.equal(fixed, '#!/bin/sh\nvllm serve Qwen/Qwen2.5-7B-Instruct "--max-model-len=32768"\n');
  });

  it('axolotl: YaRN with the declared context writes overrides_of_model_config once, holding both keys', () => {
    // axolotl's own context-extension example, on Qwen2.5-7B (declares 131,072 over a trained 32,768) at 262,144.
    const real = readFileSync('test/fixtures/corpus/training/axolotl-context-extension-yarn_v2_8k.yaml', 'utf8')
      .replace(/^base_model: .*$/m, 'base_model: Qwen/Qwen2.5-7B')
      .replace(/^sequence_len: 8192$/m, 'sequence_len: 262144');
    const withoutOverrides = real.replace(/overrides_of_model_config:\n(  .*\n)+\n/, '');
    const emptyOverrides = real.replace(/overrides_of_model_config:\n(  .*\n)+/, 'overrides_of_model_config:\n');
    assert.notEqual(withoutOverrides, real);
    assert.notEqual(emptyOverrides, real);
    for (const text of [withoutOverrides, emptyOverrides]) {
      const d = one(analyze(text, 'yarn_qwen.yaml', false), 'training/context-exceeded');
      const yarn = d.fixes.find((f) => f.kind === 'yarn')!;
      assert.match(yarn.title, /max_position_embeddings 262144/);
      const fixed = apply(text, yarn);
      assert.deepEqual(checkYamlStrict(fixed), [], fixed);
      assert.equal(fixed.match(/^overrides_of_model_config:/gm)?.length, 1, fixed);
      const over = parseYaml(fixed).overrides_of_model_config;
      // rope_theta: on transformers 5 (axolotl's line) the dict replaces rope_parameters whole, base included.
      assert.deepEqual(over, {
        rope_scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 32768, rope_theta: 1000000 },
        max_position_embeddings: 262144,
      });
    }
  });

  it('llama-server with --rope-freq-base already the NTK base for x4: only the cap lift, never scaling on top', () => {
    const path = `${dir}/llama-server-raised-base.sh`;
    const text = readFileSync(path, 'utf8');
    const a = analyze(text, path);
    const d = one(a, 'launch/length-exceeds-derived');
    assert.match(said(d), /raised --rope-freq-base 2,000,000 \(the NTK-aware base for ×4\) covers 32,768/);
    assert.ok(!a.diagnostics.some((x) => x.code === 'launch/beyond-trained'));
    const preferred = d.fixes.find((f) => f.preferred)!;
    assert.equal(preferred.title, 'Lift the cap: --override-kv llama.context_length=int:32768');
    for (const f of d.fixes) assert.doesNotMatch(f.edits.map((e) => e.newText).join(' '), /--rope-scaling|--rope-freq-base|--rope-scale/, f.title);
    const fixed = apply(text, preferred);
    assert.match(fixed, /--port 8080 \\\n {2}--override-kv llama\.context_length=int:32768\n$/);
    assert.deepEqual(serious(analyze(fixed, path)), []);
    // The unverified builders would still stack: the rule itself offers no scaling on the raised base.
    const built = one(analyze(text, path, false), 'launch/length-exceeds-derived');
    assert.ok(
      built.fixes.every((f) => !/YaRN|NTK|linear/.test(f.title)),
      built.fixes.map((f) => f.title).join(' / '),
    );
  });

  it('a `\\ # comment` continuation is an error on the `\\`; the fix moves the comment above and continues the line', () => {
    const path = `${dir}/broken-continuation.sh`;
    const text = readFileSync(path, 'utf8');
    const a = analyze(text, path);
    // Read as bash runs it, the command has no --max-model-len.
    assert.equal(a.launches![0].requestedLength, null);
    const d = one(a, 'launch/broken-continuation');
    assert.equal(d.severity, 'error');
    assert.deepEqual(d.range, { start: { line: 5, character: 27 }, end: { line: 5, character: 28 } });
    assert.match(said(d), /bash runs the next line \(`--max-model-len 32768 \\`\) as a command of its own/);
    const fixed = apply(text, d.fixes[0]);
    assert.match(fixed, /\n# two GPUs\nvllm serve Qwen\/Qwen2\.5-7B-Instruct \\\n {2}--tensor-parallel-size 2 \\\n {2}--max-model-len 32768/);
    const after = analyze(fixed, path);
    assert.deepEqual(serious(after), []);
    assert.equal(after.launches![0].requestedLength, 32768);
    // Two spaces before the comment, or spaces alone, break it the same way; a proper `\` does not.
    for (const tail of ['\\  # two GPUs', '\\   '])
      assert.equal(one(analyze(text.replace('\\ # two GPUs', tail), path), 'launch/broken-continuation').severity, 'error');
    assert.ok(!analyze(text.replace('\\ # two GPUs', '\\'), path).diagnostics.some((x) => x.code === 'launch/broken-continuation'));
  });

  it("a config.json Python's json refuses is an error at the offending comma, with the repair", () => {
    const real = readFileSync('test/fixtures/corpus/models/meta-llama-3-8b.json', 'utf8');
    const missing = real.replace('"max_position_embeddings": 8192,', '"max_position_embeddings": 8192');
    const trailing = real.replace(/("vocab_size": \d+)\n/, '$1,\n');
    assert.notEqual(missing, real);
    assert.notEqual(trailing, real);
    for (const [text, what, mark] of [
      [missing, /Expecting ',' delimiter/, '"'],
      [trailing, /Illegal trailing comma before end of object/, ','],
    ] as const) {
      const a = analyze(text, 'config.json');
      const d = one(a, 'parse/invalid-json');
      assert.equal(d.severity, 'error');
      assert.match(said(d), what);
      const l = new LineIndex(text);
      const at = text.slice(l.offsetAt(d.range.start), l.offsetAt(d.range.end));
      // Where Python stops: the next key after a missing comma, the trailing comma itself.
      assert.equal(at, mark);
      const fixed = apply(text, d.fixes[0]);
      assert.equal(fixed, real);
    }
    assert.equal(checkStrictJson(real).syntax, undefined);
    assert.ok(!analyze(real, 'config.json').diagnostics.some((x) => x.code === 'parse/invalid-json'));
  });

  it("the strict JSON checker accepts and refuses what Python's json does", function () {
    const cases = [
      '{"a": 1}',
      '{"a": 1,}',
      '[1, 2,]',
      '{"a": NaN, "b": -Infinity}',
      '{"a": 01}',
      '{"a": .5}',
      '{"a": +1}',
      "{'a': 1}",
      '{"a": 1} // c',
      '{"a": "x\ty"}',
      '{"a": "\\q"}',
      '{"a": "\\u00e9"}',
      '\ufeff{"a": 1}',
      '{"a": 1, "a": 2}',
      '{"a" 1}',
      '[1 2]',
      '{"a": true, "b": null}',
      '',
      '  [] ',
      '{"a": 1}}',
      '{"a": 1e5, "b": -0.5E-3}',
    ];
    const ours = cases.map((c) => checkStrictJson(c).syntax === undefined);
    const py = spawnSync('python3', ['-c', 'import json,sys\nfor c in json.load(sys.stdin):\n  try: json.loads(c); print(1)\n  except Exception: print(0)'], {
      input: JSON.stringify(cases),
      encoding: 'utf8',
    });
    if (py.status !== 0) {
      // Without Python, the answers Python 3 gives (checked when it is there).
      assert.deepEqual(ours, [
        true,
        false,
        false,
        true,
        false,
        false,
        false,
        false,
        false,
        false,
        false,
        true,
        false,
        true,
        false,
        false,
        true,
        false,
        true,
        false,
        true,
      ]);
      return;
    }
    assert.deepEqual(
      ours,
      py.stdout
        .trim()
        .split('\n')
        .map((x) => x === '1'),
      cases.join(' | '),
    );
    assert.equal(checkStrictJson('{"a": 1, "a": 2}').duplicates.length, 1);
  });
});
