/**
 * Deep and odd inputs judged as their consumer would, and the linear helpers that replaced
 * backtracking patterns (shared/core/text.ts, launch/vars.ts pathAfterVariables).
 */
import { strict as assert } from 'node:assert';
import { beforeFirst, trailingRun, trimTrailing } from '../../shared/core/text';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { pathAfterVariables } from '../../shared/launch/vars';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';

const oracle = createSyncOracle();

describe('deep inputs', () => {
  const nested = (n: number) => `{"rope_theta": 10000, "max_position_embeddings": 4096, "a": ${'{"a": '.repeat(n)}1${'}'.repeat(n)}}`;

  it('a config.json nested 100,000 levels deep is parse/invalid-json (Python: RecursionError), and the log holds no stack trace', () => {
    const log: string[] = [];
    const a = analyzeText(nested(100_000), { fileName: '/m/config.json', oracle, log: (l) => log.push(l) });
    assert.deepEqual(
      a.diagnostics.map((d) => `${d.code} ${d.severity}`),
      ['parse/invalid-json error'],
    );
    assert.match(a.diagnostics[0].message, /maximum recursion depth exceeded/);
    assert.equal(log.filter((l) => /\n\s+at /.test(l)).length, 0, log.join('\n'));
  });

  it('the JSON reader does not build a tree past 2,000 levels and says where it stopped; 1,500 levels still parse', () => {
    const deep = parseJsonDocument(`[${'['.repeat(2500)}${']'.repeat(2500)}]`);
    assert.equal(deep.root, undefined);
    assert.equal(deep.problems[0].offset, 2000);
    assert.match(deep.problems[0].message, /nested more than 2,000 levels/);
    // Brackets inside strings and comments are not nesting.
    assert.notEqual(parseJsonDocument(`{"a": "${'['.repeat(5000)}"} // ${'{'.repeat(5000)}`).root, undefined);
    assert.notEqual(parseJsonDocument(`${'['.repeat(1500)}${']'.repeat(1500)}`).root, undefined);
  });

  it('a nesting Python accepts (500 levels) is not refused', () => {
    const a = analyzeText(nested(500), { fileName: '/m/config.json', oracle });
    assert.ok(!a.diagnostics.some((d) => d.code === 'parse/invalid-json'));
  });
});

describe('linear string helpers', () => {
  it('trimTrailing, trailingRun and beforeFirst do what the patterns they replace did', () => {
    assert.equal(trimTrailing('a//', '/'), 'a');
    assert.equal(trimTrailing('///', '/'), '');
    assert.equal(trimTrailing('a \t x \t', ' \t'), 'a \t x');
    assert.equal(trailingRun('  key', ' \t'), '');
    assert.equal(trailingRun('x\t  ', ' \t'), '\t  ');
    assert.equal(beforeFirst('--max-model-len=8192=x', '='), '--max-model-len');
    assert.equal(beforeFirst('--flag', '='), '--flag');
  });

  it('pathAfterVariables: the part of a sourced path after its last folder holding a variable', () => {
    assert.equal(pathAfterVariables('$(dirname "$0")/lib/env.sh'), 'lib/env.sh');
    assert.equal(pathAfterVariables('${ROOT}/env.sh'), 'env.sh');
    assert.equal(pathAfterVariables('$ROOT/$SUB/env.sh'), 'env.sh');
    assert.equal(pathAfterVariables('lib/env.sh'), 'env.sh');
    assert.equal(pathAfterVariables('$ROOT/env-$V.sh'), undefined);
    assert.equal(pathAfterVariables('$ROOT/lib/'), undefined);
    assert.equal(pathAfterVariables('$ROOT'), undefined);
  });
});

describe('fuzz regressions', () => {
  it('a vLLM YAML whose next line is over-indented: no message quotes a value the file does not hold (seed 1733887476, path 615)', () => {
    const text = 'model: meta-llama/Llama-3.1-8B-Instruct\nmax-model-len: 131072\n    tensor-parallel-size: "NaN"\n';
    const a = analyzeText(text, { fileName: '/srv/vllm.yaml', oracle });
    for (const d of a.diagnostics) assert.ok(!d.message.includes('131072 tensor-parallel-size'), d.message);
    // The value the YAML parser guessed is not judged at all (vLLM's loader refuses the file).
    assert.ok(!a.diagnostics.some((d) => d.code === 'launch/bad-value'));
  });

  it("a refused bare value in a vLLM YAML is quoted as the user's text, never printed bare (seed 1888554430, path 14767)", () => {
    const text = '\uFEFF  # vllm serve --config …\nmodel: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: "NaN"\n  tensor-parallel-size: 2\n';
    const bad = analyzeText(text, { fileName: 'train.yaml', oracle }).diagnostics.find((d) => d.code === 'launch/bad-value');
    assert.equal(bad?.message, "vLLM stops at startup: its parser refuses 'NaN'.");
  });

  it('a long refused value is elided inside its quotes (seed 1474086869, path 30904)', () => {
    const text =
      '  # vllm serve --config vllm-qwen2.5-128k.yaml\r\nmodel: Qwen/Qwen2.5-7B-Instruct\r\nmax-model-len: {"short_factor":"NaN","type":"linear","seq_length":2.8560853511919754e+90,"hidden_size":"NaN"}\r\ntensor-parallel-size: 2\r\n';
    const bad = analyzeText(text, { fileName: 'train.yaml', oracle }).diagnostics.find((d) => d.code === 'launch/bad-value');
    assert.equal(bad?.message, `vLLM stops at startup: its parser refuses '{"short_factor":"NaN","type":"linear","s…'.`);
  });
});
