/**
 * What RoPE Lens writes, RoPE Lens reads: every launch script `rope-lens serve` and the editor's
 * source actions write (shared/serving/present.ts::launchScript) is read back by the launch reader
 * with the same engine, model and length, and gets no error or warning. The writer and the reader
 * share each engine's grammar, so a drift between them fails here.
 */
import { strict as assert } from 'node:assert';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { servingInput, servingPlan, ENGINE_NAMES } from '../../shared/serving/index';
import { launchScript } from '../../shared/serving/present';
import type { ShellParser } from '../../shared/launch/types';
import { shellParser } from './helpers/launch';

// Models with each kind of shipped RoPE: none (Qwen2.5, 32k), llama3 (Llama-3.1), none with a 32k window-free context (Mistral v0.2).
const MODELS = ['Qwen/Qwen2.5-7B-Instruct', 'meta-llama/Llama-3.1-8B-Instruct', 'mistralai/Mistral-7B-Instruct-v0.2'];
const CONTEXTS = [undefined, 8192, 65536, 131072];
// Ollama is written as `ollama serve` with an environment default and llama.cpp names a GGUF it
// cannot know: both are read, but their model is not the hub id, so they are checked separately.
const HUB_ENGINES = ENGINE_NAMES.filter((e) => e === 'vllm' || e === 'sglang' || e === 'tgi');

describe('launch scripts RoPE Lens writes read back clean', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });

  for (const model of MODELS) {
    for (const context of CONTEXTS) {
      it(`${model} at ${context ?? 'its own length'}`, () => {
        const service = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver, shellParser: () => shell });
        const resolved = catalogResolver.resolve([model], '/ws/x')!;
        assert.ok(resolved, model);
        for (const engine of HUB_ENGINES) {
          const plan = servingPlan(engine, servingInput(resolved.rope, { model, ...(context ? { context } : {}) }));
          const script = launchScript(plan, 'test');
          const a = service.analyze(script, { fileName: `/ws/${engine}-serve.sh` });
          assert.equal(a.kind, 'launch', `${engine}: read as a launch\n${script}`);
          const launch = a.launches![0];
          assert.equal(launch.program, engine, script);
          assert.equal(launch.model, model, script);
          assert.equal(launch.requestedLength, plan.context, script);
          const loud = a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
          assert.deepEqual(
            loud.map((d) => `${d.code}: ${d.message}`),
            [],
            `${engine} at ${plan.context}:\n${script}`,
          );
        }
      });
    }
  }
});
