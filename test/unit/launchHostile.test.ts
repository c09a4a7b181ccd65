/**
 * Hostile input for every launch adapter: nothing throws, spans stay exact, and what can be read
 * is read. Timings are measured in `npm run bench` (test/bench/launch.ts), never asserted here.
 */
import { strict as assert } from 'node:assert';
import { readLaunchFile } from '../../shared/launch/index';
import { readShellScript } from '../../shared/launch/shell';
import type { LaunchFile, ShellParser } from '../../shared/launch/types';
import { hugeOneLine, longScript } from '../launch/hostileScripts';
import { after, argvOf, assertExactSpans, shellParser } from './helpers/launch';

const NAMES = ['run.sh', 'Dockerfile', 'docker-compose.yml', 'deploy.yaml', 'Modelfile'];

/** Deterministic junk: control characters, NUL, lone surrogates, quotes, brackets and launch words. */
function junk(seed: number, length: number): string {
  const alphabet = [
    '\0',
    '\x01',
    '\x7f',
    '\uD800',
    '\uDFFF',
    '\uFFFD',
    '"',
    "'",
    '`',
    '$(',
    '${',
    '((',
    '\\',
    '\n',
    '\r\n',
    ' ',
    '<<EOF',
    '[',
    '{',
    '}',
    'vllm serve ',
    '--max-model-len ',
    '4096',
    'FROM ',
    'CMD [',
    'services:',
    'PARAMETER num_ctx ',
    '"""',
    'é',
    '😀',
  ];
  let s = seed >>> 0;
  let out = '';
  while (out.length < length) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out += alphabet[s % alphabet.length];
  }
  return out;
}

describe('launch files: hostile input', function () {
  this.timeout(120000);
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });
  const readAll = (text: string): (LaunchFile | undefined)[] =>
    NAMES.map((n) => {
      const f = readLaunchFile(text, n, { shell });
      if (f) assertExactSpans(text, f);
      return f;
    });

  it('empty and blank files: nothing, no throw', () => {
    for (const text of ['', ' ', '\n\n', '\r\n', '\uFEFF']) for (const f of readAll(text)) assert.ok(!f || f.format === 'modelfile');
  });

  it('unterminated quotes: the command before the quote is kept and the problem is said', () => {
    for (const text of [
      'vllm serve "m --max-model-len 4096\nnext line\n',
      "vllm serve 'm\n",
      "vllm serve $'m\n",
      'vllm serve m --x "$(date\n',
      'vllm serve m --y `oops\n',
    ]) {
      const r = readShellScript(text, shell);
      assertExactSpans(text, r);
      assert.equal(r.invocations[0]?.argv[0].value, 'vllm', text);
      assert.ok(r.problems.length > 0, `a problem for ${JSON.stringify(text)}`);
    }
  });

  it('heredocs: bodies are not commands, an unterminated one swallows the rest', () => {
    const text =
      'cat <<-EOF > x.sh\n\tvllm serve inside\n\tEOF\npython3 - <<PY\nimport os; os.system("vllm serve py")\nPY\nvllm serve outside\ncat <<EOF\nvllm serve never\n';
    const r = readShellScript(text, shell);
    assert.deepEqual(r.invocations.map(argvOf), [['vllm', 'serve', 'outside']]);
  });

  it('binary junk in every format: no throw, exact spans', () => {
    for (let seed = 1; seed <= 30; seed++) readAll(junk(seed, 2000));
  });

  it('CRLF line endings and a BOM: continuations work, spans exact in every format', () => {
    const sh = '\uFEFF#!/bin/bash\r\nLEN=4096\r\nvllm serve m \\\r\n  --max-model-len $LEN\r\n';
    const f = readLaunchFile(sh, 'a.sh', { shell })!;
    assertExactSpans(sh, f);
    assert.equal(after(f.invocations[0], '--max-model-len').value, '4096');
    assert.equal(f.invocations[0].append?.separator, ' \\\r\n  ');
    const docker = '\uFEFFFROM vllm/vllm-openai\r\nCMD ["--model", "m", \\\r\n     "--max-model-len", "8192"]\r\n';
    const d = readLaunchFile(docker, 'Dockerfile', { shell })!;
    assertExactSpans(docker, d);
    assert.equal(after(d.invocations[0], '--max-model-len').value, '8192');
    const compose = 'services:\r\n  v:\r\n    image: vllm/vllm-openai\r\n    command:\r\n      - --max-model-len\r\n      - "8192"\r\n';
    const c = readLaunchFile(compose, 'compose.yaml', { shell })!;
    assertExactSpans(compose, c);
    assert.equal(c.invocations[0].append?.separator, '\r\n      - ');
  });

  it('a 10,000-line script: read in part, the launch and the variables it uses still found, the cut said', () => {
    const text = longScript();
    assert.equal(text.split('\n').length - 1, 10_000);
    const f = readLaunchFile(text, 'deploy.sh', { shell })!;
    assertExactSpans(text, f);
    assert.equal(f.invocations.length, 1);
    const inv = f.invocations[0];
    assert.equal(argvOf(inv)[2], 'Qwen/Qwen2.5-7B-Instruct', '$MODEL assigned on line 3 is still known');
    assert.equal(after(inv, '--max-model-len').value, '32768');
    assert.equal(
      inv.range.start.line,
      text.split('\n').findIndex((l) => l.includes('exec vllm serve')),
    );
    assert.ok(f.problems.some((p) => p.partial && /were not parsed/.test(p.message)));
  });

  it('a 5 MB one-line command: the head is read, the rest is said to be skipped', () => {
    const text = hugeOneLine();
    assert.ok(text.length >= 5 * 1024 * 1024);
    const f = readLaunchFile(text, 'huge.sh', { shell })!;
    assertExactSpans(text, f);
    assert.deepEqual(argvOf(f.invocations[0]).slice(0, 5), ['vllm', 'serve', 'Qwen/Qwen2.5-7B', '--max-model-len', '8192']);
    assert.ok(f.problems.some((p) => p.partial && /characters were read/.test(p.message)));
    // The same line in a file with no launch word is not parsed at all.
    assert.equal(readLaunchFile('x'.repeat(5 * 1024 * 1024), 'huge.sh', { shell }), undefined);
  });

  it('5 MB Dockerfile, compose, Kubernetes and Modelfile: cut to size with a problem, never parsed whole', () => {
    const line = hugeOneLine().trim();
    const big: [string, string][] = [
      ['Dockerfile', `FROM vllm/vllm-openai\nCMD ${line}\n`],
      ['compose.yaml', `services:\n  v:\n    image: vllm/vllm-openai\n    command: ${line}\n`],
      ['pod.yaml', `apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai\n    args: [${line.split(' ').join(', ')}]\n`],
      ['Modelfile', 'FROM qwen2.5\n' + 'PARAMETER num_ctx 4096\n'.repeat(250_000)],
    ];
    for (const [name, text] of big) {
      const f = readLaunchFile(text, name, { shell });
      assert.ok(f, name);
      assert.ok(
        f.problems.some((p) => p.partial),
        `${name}: a partial-read problem`,
      );
    }
    // A large multi-document manifest: the launch document is still read exactly.
    const filler = `apiVersion: v1\nkind: ConfigMap\ndata:\n  blob: "${'x'.repeat(200_000)}"\n`;
    const pod = 'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai\n    args: ["--max-model-len", "8192"]\n';
    const text = `${filler}---\n${pod}`;
    const f = readLaunchFile(text, 'bundle.yaml', { shell })!;
    assertExactSpans(text, f);
    assert.equal(after(f.invocations[0], '--max-model-len').value, '8192');
  });

  it('deep nesting and long pipelines do not overflow the stack', () => {
    const deep = '('.repeat(3000) + 'vllm serve m' + ')'.repeat(3000) + '\n';
    readShellScript(deep, shell);
    const pipes = Array.from({ length: 2000 }, (_, i) => `echo ${i}`).join(' | ') + ' | vllm serve m\n';
    const r = readShellScript(pipes, shell);
    assert.equal(r.invocations.length, 1);
    const nestedArith = 'vllm serve m --max-model-len $(( ' + '('.repeat(2000) + '1' + ')'.repeat(2000) + ' ))\n';
    readShellScript(nestedArith, shell);
  });

  it('recursive and mutually recursive functions stop', () => {
    const text = 'a() { b "$@"; vllm serve "$1"; }\nb() { a "$@"; }\na m\n';
    const r = readShellScript(text, shell);
    assert.ok(r.invocations.length >= 1);
    assert.equal(r.invocations[0].argv[2].value, 'm');
  });
});
