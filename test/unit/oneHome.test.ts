/** Small truths with one home each: rope-type aliases, `python -m` peeling, compact JSON. */
import { strict as assert } from 'node:assert';
import { currentTypeName, ropeTypeOf } from '../../shared/rope/spec';
import { pythonTarget } from '../../shared/launch/python';
import { pythonModule, pythonScript } from '../../shared/launch/sniff';
import { afterPythonModule } from '../../shared/serving/argv';
import { compactJsonText } from '../../shared/core/json';
import { jsonText } from '../../shared/serving/common';
import { compactJson } from '../../shared/fixes/commandLineEditor';
import { float } from '../../shared/fixes/render';
import { scalingTypeOf } from '../../shared/serving/consumer';
import { plainScaling } from '../../shared/serving/launchModel';
import type { Token } from '../../shared/launch/types';

const words = (s: string) => s.split(' ');

describe('one home each', () => {
  it('rope-type aliases: su is longrope, mrope computes default frequencies, unknown names stay unknown', () => {
    assert.equal(ropeTypeOf(' SU '), 'longrope');
    assert.equal(ropeTypeOf('mrope'), 'default');
    assert.equal(ropeTypeOf('YaRN'), 'yarn');
    assert.equal(ropeTypeOf('ntk-by-parts'), undefined);
    assert.equal(currentTypeName('su'), 'longrope');
    assert.equal(currentTypeName('mrope'), 'mrope');
    // Every reader agrees through it.
    assert.equal(scalingTypeOf({ type: 'su' }), 'longrope');
    assert.equal(scalingTypeOf({ rope_type: 'mrope' }), 'none');
    assert.equal(plainScaling({ type: 'su' }, 'rope_scaling', 'x').type, 'longrope');
  });

  it('python -m peeling: switches combine, -W/-X take a value, -c runs nothing named', () => {
    assert.deepEqual(pythonTarget(words('python3 -u -m vllm.entrypoints.openai.api_server --port 8000')), {
      kind: 'module',
      name: 'vllm.entrypoints.openai.api_server',
      at: 3,
      rest: 4,
      glued: false,
    });
    assert.deepEqual(pythonTarget(words('python -W ignore -msglang.launch_server --x')), {
      kind: 'module',
      name: 'sglang.launch_server',
      at: 3,
      rest: 4,
      glued: true,
    });
    assert.deepEqual(pythonTarget(words('/usr/bin/python3.11 -um axolotl.cli.train cfg.yml')), {
      kind: 'module',
      name: 'axolotl.cli.train',
      at: 2,
      rest: 3,
      glued: false,
    });
    assert.deepEqual(pythonTarget(words('python -X dev train.py --lr 1')), { kind: 'script', name: 'train.py', at: 3, rest: 4, glued: false });
    assert.deepEqual(pythonTarget(words('python -c print(1)')), { kind: 'code' });
    assert.equal(pythonTarget(words('node -m x')), undefined);
    // The sniffer and the engine readers read it alike.
    assert.equal(pythonModule(words('python -W ignore -m vllm.entrypoints.openai.api_server')), 'vllm.entrypoints.openai.api_server');
    assert.equal(pythonScript(words('python -m train.py')), undefined);
    const toks = words('python3 -u -m sglang.launch_server --model-path m').map((value) => ({ value }) as Token);
    assert.equal(afterPythonModule(toks, ['sglang.launch_server']), 4);
    assert.equal(afterPythonModule(toks, ['vllm.entrypoints.api_server']), -1);
  });

  it("compact JSON: one writer, each caller's number policy", () => {
    const v = { rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 }, list: [1, 'a'] };
    assert.equal(compactJsonText(v), '{"rope_scaling":{"rope_type":"yarn","factor":4,"original_max_position_embeddings":32768},"list":[1,"a"]}');
    assert.equal(jsonText(v), '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768},"list":[1,"a"]}');
    assert.equal(compactJson({ type: 'linear', factor: float(2) }), '{"type":"linear","factor":2.0}');
    assert.equal(compactJson({ type: 'linear', factor: 2 }), '{"type":"linear","factor":2}');
  });
});
