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

const oracle = createSyncOracle();

function yamlFindings(yaml: string) {
  const a = analyzeText(yaml, { fileName: '/tmp/parity/serve.yaml', oracle });
  assert.equal(a.kind, 'serving-config', yaml);
  return a.diagnostics;
}
function commandFindings(cmd: string) {
  const text = `${cmd}\n`;
  return analyzeLaunchFile(shellFileOf(text), text, { fileName: '/tmp/parity/serve.sh', resolver: catalogResolver, oracle, variant: 'v5', reparse: shellFileOf }).diagnostics;
}
const shape = (ds: Finding[]) => ds.map((d) => ({ code: d.code, severity: d.severity, message: d.message, fixes: d.fixes.map((f) => ({ title: f.title, kind: f.kind, preferred: !!f.preferred })) }));

const CASES: [string, string, string][] = [
  ['above the derived length', 'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\n', 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072'],
  ['a human-readable length', 'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 128K\n', 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 128K'],
  ['beyond the trained context', 'model: Qwen/Qwen2.5-7B\nmax-model-len: 65536\n', 'vllm serve Qwen/Qwen2.5-7B --max-model-len=65536'],
  ['a Llama model (llama3 fix offered)', 'model: meta-llama/Meta-Llama-3-8B\nmax_model_len: 16384\n', 'vllm serve meta-llama/Meta-Llama-3-8B --max_model_len 16384'],
  ['a correct YaRN override', 'model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nhf-overrides:\n  rope_scaling:\n    rope_type: yarn\n    factor: 4.0\n    original_max_position_embeddings: 32768\n',
    `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}'`],
  ['a legacy type in the overrides', `model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nhf-overrides: '{"rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'\n`,
    `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'`],
  ['the removed rope-scaling option', `model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nrope-scaling: '{"type":"yarn","factor":4.0,"original_max_position_embeddings":32768}'\nenable-prefix-caching: true\n`,
    `vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --rope-scaling '{"type":"yarn","factor":4.0,"original_max_position_embeddings":32768}' --enable-prefix-caching`],
  ['an unresolvable model', 'model: my-org/private-model\nmax-model-len: 131072\n', 'vllm serve my-org/private-model --max-model-len 131072'],
];

describe('vLLM YAML and vllm serve: one judgement', () => {
  for (const [name, yaml, cmd] of CASES) {
    it(name, () => {
      const y = shape(yamlFindings(yaml));
      const c = shape(commandFindings(cmd));
      assert.deepEqual(c, y);
    });
  }

  it('the cases are not vacuous: most of them have findings, with fixes', () => {
    const withFindings = CASES.filter(([, yaml]) => yamlFindings(yaml).length > 0);
    assert.ok(withFindings.length >= 6, `${withFindings.length}`);
    assert.ok(CASES.some(([, yaml]) => yamlFindings(yaml).some((d) => d.fixes.length >= 4)));
  });
});
