/**
 * The engine readers and launch rules on invocations from the real document adapters
 * (tree-sitter-bash shell, Dockerfile, compose, Kubernetes, Modelfile: shared/launch/), fixes
 * applied to the file text and re-read by the same adapter.
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLaunchFile } from '../../shared/launch/index';
import type { ShellParser } from '../../shared/launch/types';
import { loadShellParser } from '../../shared/node/shellParser';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { Finding } from '../../shared/core/findings';

const oracle = createSyncOracle();
const ADAPTERS = join(__dirname, '..', 'fixtures', 'launch', 'adapters');
let shell: ShellParser;

function analyze(text: string, fileName: string) {
  const read = (t: string) => readLaunchFile(t, fileName, { shell });
  const file = read(text);
  assert.ok(file, `${fileName} reads as a launch file`);
  return analyzeLaunchFile(file!, text, { fileName, resolver: catalogResolver, oracle, variant: 'v5', reparse: read });
}
const fixed = (text: string, d: Finding, pick: (t: string) => boolean) => {
  const f = d.fixes.find((x) => pick(x.title));
  assert.ok(f, JSON.stringify(d.fixes.map((x) => x.title)));
  return applyTextEdits(text, new LineIndex(text), f!.edits);
};

describe('launch rules on the real adapters', () => {
  before(async () => {
    shell = await loadShellParser();
  });

  it('a script whose length comes through a variable: the error is on the token, the lowered length edits the assignment', () => {
    const text =
      '#!/bin/bash\nMODEL=Qwen/Qwen2.5-7B-Instruct\nMAX_LEN=131072\nvllm serve "$MODEL" \\\n  --max-model-len "${MAX_LEN:-4096}" \\\n  --port 8000\n';
    const a = analyze(text, '/tmp/serve.sh');
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['vllm/max-model-len-exceeds', 'error']],
    );
    const d = a.diagnostics[0];
    assert.equal(d.range.start.line, 4);
    const lowered = fixed(text, d, (t) => t === 'Set max-model-len to 32768');
    assert.equal(lowered, text.replace('MAX_LEN=131072', 'MAX_LEN=32768'));
    assert.deepEqual(analyze(lowered, '/tmp/serve.sh').diagnostics, []);
    const yarn = fixed(text, d, (t) => t.startsWith('Add YaRN'));
    assert.equal(
      yarn,
      text.replace(
        '--port 8000\n',
        `--port 8000 \\\n  --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'\n`,
      ),
    );
    assert.deepEqual(analyze(yarn, '/tmp/serve.sh').diagnostics, []);
  });

  it('a Dockerfile pinned to vLLM v0.10.1 keeps --rope-scaling working: judged at that release, a hint, and the fix writes a JSON string in the exec form', () => {
    const text = readFileSync(join(ADAPTERS, 'Dockerfile.vllm'), 'utf8');
    const a = analyze(text, join(ADAPTERS, 'Dockerfile.vllm'));
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['vllm/removed-option', 'hint']],
    );
    assert.match(said(a.diagnostics[0]), /pinned 0\.10\.1 still reads it/);
    const out = fixed(text, a.diagnostics[0], (t) => t.startsWith('Move rope-scaling'));
    const cut = text.indexOf('"--rope-scaling"');
    assert.equal(out.slice(0, cut), text.slice(0, cut), 'the file before the option is byte-identical');
    assert.match(
      out.slice(cut),
      /^"--hf-overrides", "\{\\"rope_scaling\\":\{\\"rope_type\\":\\"yarn\\",\\"factor\\":2\.0,\\"original_max_position_embeddings\\":32768\}\}"\]\n$/,
    );
    assert.deepEqual(analyze(out, join(ADAPTERS, 'Dockerfile.vllm')).diagnostics, []);
  });

  it('fixture scripts that launch right get no findings, with the derived lengths stated', () => {
    const vllm = analyze(readFileSync(join(ADAPTERS, 'serve-vllm.sh'), 'utf8'), join(ADAPTERS, 'serve-vllm.sh'));
    assert.deepEqual(vllm.diagnostics, []);
    assert.equal(vllm.launches[0].requestedLength, 16384);
    assert.equal(vllm.launches[0].env['VLLM_ALLOW_LONG_MAX_MODEL_LEN'], '1');
    const sglang = analyze(readFileSync(join(ADAPTERS, 'sglang-yarn.sh'), 'utf8'), join(ADAPTERS, 'sglang-yarn.sh'));
    assert.deepEqual(sglang.diagnostics, []);
    assert.equal(sglang.launches.length, 1, 'the commented-out command is not a launch');
    assert.equal(sglang.launches[0].derivedMaxLen, 32768);
    assert.equal(sglang.launches[0].requestedLength, 131072);
  });

  it('a compose file: each service judged on its own', () => {
    const a = analyze(readFileSync(join(ADAPTERS, 'docker-compose.yml'), 'utf8'), join(ADAPTERS, 'docker-compose.yml'));
    assert.deepEqual(
      a.launches.map((l) => l.program),
      ['vllm', 'sglang', 'ollama'],
    );
    assert.ok(
      a.diagnostics.every((d) => d.severity === 'information'),
      JSON.stringify(a.diagnostics.map((d) => d.code)),
    );
  });
});

describe('launch fixes in compose lists (real adapter)', () => {
  before(async () => {
    shell = await loadShellParser();
  });

  it("a block-list command gets new list items, in the list's own indentation", () => {
    const text =
      'services:\n  vllm:\n    image: vllm/vllm-openai:v0.11.2\n    command:\n      - Qwen/Qwen2.5-7B-Instruct\n      - --max-model-len\n      - "131072"\n  web:\n    image: nginx:1.27\n';
    const a = analyze(text, '/tmp/docker-compose.yml');
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.ok(d, JSON.stringify(a.diagnostics.map((x) => x.code)));
    const out = fixed(text, d, (t) => t.startsWith('Add YaRN'));
    assert.equal(out.slice(out.indexOf('  web:')), text.slice(text.indexOf('  web:')), 'the next service is untouched');
    assert.match(
      out,
      /      - "131072"\n      - --hf-overrides\n      - '\{"rope_scaling":\{"rope_type":"yarn","factor":4\.0,"original_max_position_embeddings":32768\}\}'\n  web:/,
    );
    assert.deepEqual(analyze(out, '/tmp/docker-compose.yml').diagnostics, []);
    const lowered = fixed(text, d, (t) => t === 'Set max-model-len to 32768');
    assert.equal(lowered, text.replace('"131072"', '"32768"'));
  });

  it('SGLang in compose above what it derives for a llama3-scaled model: an error whose lowered length keeps the list layout', () => {
    const text =
      'services:\n  sglang:\n    image: lmsysorg/sglang:v0.4.9\n    entrypoint: python3 -m sglang.launch_server\n    command:\n      - --model-path\n      - "meta-llama/Llama-3.1-8B-Instruct"\n      - --context-length\n      - 262144\n';
    const a = analyze(text, '/tmp/docker-compose.yml');
    const d = a.diagnostics.find((x) => x.code === 'launch/length-exceeds-derived')!;
    assert.equal(d.severity, 'error');
    assert.match(said(d), /ignores the factor/);
    const out = fixed(text, d, (t) => t === 'Set --context-length to 131072');
    assert.equal(out, text.replace('262144', '131072'));
    assert.deepEqual(analyze(out, '/tmp/docker-compose.yml').diagnostics, []);
  });
});
