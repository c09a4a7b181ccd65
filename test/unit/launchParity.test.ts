/**
 * A vLLM --config YAML and a `vllm serve` command with the same values get the same findings:
 * code, severity, message, and fixes with the same titles, kinds and preference (the edits differ:
 * a YAML key, or the command's tokens).
 */
import { strict as assert } from 'node:assert';
import { analyzeText } from '../../shared/service/analyze';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { shellFileOf } from './helpers/invocation';
import type { Finding } from '../../shared/core/findings';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import YAML from 'yaml';

const oracle = createSyncOracle();

function yamlFindings(yaml: string) {
  const a = analyzeText(yaml, { fileName: '/tmp/parity/serve.yaml', oracle });
  assert.equal(a.kind, 'serving-config', yaml);
  return a.diagnostics;
}
function commandFindings(cmd: string) {
  const text = `${cmd}\n`;
  return analyzeLaunchFile(shellFileOf(text), text, {
    fileName: '/tmp/parity/serve.sh',
    resolver: catalogResolver,
    oracle,
    variant: 'v5',
    reparse: shellFileOf,
  }).diagnostics;
}
const shape = (ds: Finding[]) =>
  ds.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    fixes: d.fixes.map((f) => ({ title: f.title, kind: f.kind, preferred: !!f.preferred })),
  }));

const CASES: [string, string, string][] = [
  ['above the derived length', 'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\n', 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072'],
  ['a human-readable length', 'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 128K\n', 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 128K'],
  ['beyond the trained context', 'model: Qwen/Qwen2.5-7B\nmax-model-len: 65536\n', 'vllm serve Qwen/Qwen2.5-7B --max-model-len=65536'],
  [
    'a Llama model (llama3 fix offered)',
    'model: meta-llama/Meta-Llama-3-8B\nmax_model_len: 16384\n',
    'vllm serve meta-llama/Meta-Llama-3-8B --max_model_len 16384',
  ],
  [
    'a correct YaRN override',
    'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nhf-overrides:\n  rope_scaling:\n    rope_type: yarn\n    factor: 4.0\n    original_max_position_embeddings: 32768\n',
    `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'`,
  ],
  [
    'a legacy type in the overrides',
    `model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nhf-overrides: '{"rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'\n`,
    `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'`,
  ],
  [
    'the removed rope-scaling option',
    `model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nrope-scaling: '{"type":"yarn","factor":4.0,"original_max_position_embeddings":32768}'\nenable-prefix-caching: true\n`,
    `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --rope-scaling '{"type":"yarn","factor":4.0,"original_max_position_embeddings":32768}' --enable-prefix-caching`,
  ],
  ['an unresolvable model', 'model: my-org/private-model\nmax-model-len: 131072\n', 'vllm serve my-org/private-model --max-model-len 131072'],
  // The four probes of issue 26: each differed between the YAML and the command line.
  [
    'a hyphenated hf-overrides key (rope-scaling)',
    'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nhf-overrides:\n  rope-scaling:\n    rope_type: yarn\n    factor: 4.0\n    original_max_position_embeddings: 32768\n',
    `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope-scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'`,
  ],
  ['a length vLLM refuses (128k5)', 'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 128k5\n', 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 128k5'],
  [
    'context-length next to max-model-len',
    'model: Qwen/Qwen2.5-7B-Instruct\ncontext-length: 65536\nmax-model-len: 32768\n',
    'vllm serve Qwen/Qwen2.5-7B-Instruct --context-length 65536 --max-model-len 32768',
  ],
  [
    'context-length alone',
    'model: Qwen/Qwen2.5-7B-Instruct\ncontext_length: 32768\nenable_prefix_caching: true\n',
    'vllm serve Qwen/Qwen2.5-7B-Instruct --context_length 32768 --enable_prefix_caching',
  ],
  ['max-model-len -1 (vLLM chooses)', 'model: Qwen/Qwen2.5-7B\nmax-model-len: -1\n', 'vllm serve Qwen/Qwen2.5-7B --max-model-len -1'],
  [
    'disable-sliding-window on a windowed model',
    'model: mistralai/Mistral-7B-v0.1\nmax-model-len: 8192\ndisable-sliding-window: true\n',
    'vllm serve mistralai/Mistral-7B-v0.1 --max-model-len 8192 --disable-sliding-window',
  ],
  [
    'the removed rope-theta option',
    'model: Qwen/Qwen2.5-7B\nmax-model-len: 65536\nrope-theta: 4000000\n',
    'vllm serve Qwen/Qwen2.5-7B --max-model-len 65536 --rope-theta 4000000',
  ],
];

describe('vLLM YAML and vllm serve: one judgement', () => {
  for (const [name, yaml, cmd] of CASES) {
    it(name, () => {
      const y = shape(yamlFindings(yaml));
      const c = shape(commandFindings(cmd));
      assert.deepEqual(c, y);
    });
  }

  it('each probe of issue 26 has its finding in both forms', () => {
    const codes = (name: string) => {
      const [, yaml, cmd] = CASES.find(([n]) => n === name)!;
      return [yamlFindings(yaml).map((d) => `${d.code}:${d.severity}`), commandFindings(cmd).map((d) => `${d.code}:${d.severity}`)];
    };
    for (const got of codes('a hyphenated hf-overrides key (rope-scaling)')) assert.ok(got.includes('launch/override-key-ignored:warning'), String(got));
    for (const got of codes('a length vLLM refuses (128k5)')) assert.deepEqual(got, ['launch/bad-value:error']);
    for (const got of codes('context-length next to max-model-len')) assert.deepEqual(got, ['launch/foreign-flag:error']);
    // -1 is vLLM's "choose the length", not a length of −1: nothing to judge, and the YAML reads no length.
    for (const got of codes('max-model-len -1 (vLLM chooses)')) assert.deepEqual(got, []);
    const a = analyzeText('model: Qwen/Qwen2.5-7B\nmax-model-len: -1\n', { fileName: '/tmp/parity/serve.yaml', oracle });
    assert.equal(a.serving?.maxModelLen, null);
  });

  it('the fixes of the probes apply to the YAML and leave a file with the finding gone', () => {
    for (const name of ['a hyphenated hf-overrides key (rope-scaling)', 'context-length next to max-model-len', 'context-length alone']) {
      const [, yaml] = CASES.find(([n]) => n === name)!;
      const d = yamlFindings(yaml).find((x) => x.code === 'launch/override-key-ignored' || x.code === 'launch/foreign-flag')!;
      assert.ok(d.fixes.length, name);
      const fixed = applyTextEdits(yaml, new LineIndex(yaml), d.fixes[0].edits);
      assert.ok(YAML.parse(fixed, { uniqueKeys: true }), fixed);
      assert.ok(!yamlFindings(fixed).some((x) => x.code === d.code), fixed);
    }
  });

  it('the cases are not vacuous: most of them have findings, with fixes', () => {
    const withFindings = CASES.filter(([, yaml]) => yamlFindings(yaml).length > 0);
    assert.ok(withFindings.length >= 6, `${withFindings.length}`);
    assert.ok(CASES.some(([, yaml]) => yamlFindings(yaml).some((d) => d.fixes.length >= 4)));
  });
});
