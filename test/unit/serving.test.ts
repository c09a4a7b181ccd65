import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';
import { contextKeysOf } from '../../shared/serving/contextKeys';
import { EngineName, ServingInput, servingInput, servingPlan, trainedContextOf } from '../../shared/serving/index';
import { vllmDerivedMaxLen } from '../../shared/serving/vllm';
import { sglangDerivedContext } from '../../shared/serving/sglang';
import { llamaCppTrainContext } from '../../shared/serving/llamacpp';
import { tgiDerivedMaxLen } from '../../shared/serving/tgi';
import { shellCommand } from '../../shared/serving/shell';
import { jsonText, supportedContext, scalingFacts } from '../../shared/serving/common';

const ROOT = join(__dirname, '..', '..');
const MODELS = join(ROOT, 'test', 'fixtures', 'models');
const CONFIGS = join(ROOT, 'test', 'fixtures', 'configs');

/** A real config (fixture copies of the published files) as the engines' input. */
function inputOf(path: string, edit?: (c: Record<string, unknown>) => void, opts: { context?: number } = {}): ServingInput {
  let text = readFileSync(path, 'utf8');
  if (edit) {
    const c = JSON.parse(text);
    edit(c);
    text = JSON.stringify(c, null, 2);
  }
  const doc = parseJsonDocument(text);
  const rope = readModelRope(doc);
  assert.ok(rope, path);
  return servingInput(rope!, { model: 'org/model', contextKeys: contextKeysOf(doc), ...opts });
}

const qwenYarn = () => inputOf(join(MODELS, 'qwen2.5-7b-instruct-yarn.json'));
const qwenStock = (context?: number) =>
  inputOf(
    join(MODELS, 'qwen2.5-7b-instruct-yarn.json'),
    (c) => {
      delete c.rope_scaling;
    },
    { context },
  );
const llama31 = (context?: number) => inputOf(join(MODELS, 'llama-3.1-8b.json'), undefined, { context });
const phi3 = () => inputOf(join(MODELS, 'phi-3-mini-128k-instruct.json'));
const deepseek = () => inputOf(join(MODELS, 'deepseek-v3.json'));
const mistral = (context?: number) => inputOf(join(CONFIGS, 'mistral-7b-v0.1.tabs.json'), undefined, { context });

/** The values after a flag in an argument list. */
function after(args: string[], flag: string, n = 1): string[] | undefined {
  const i = args.indexOf(flag);
  return i < 0 ? undefined : args.slice(i + 1, i + 1 + n);
}

describe('serving model: derived maximum per engine on real configs', () => {
  it('Qwen2.5-7B-Instruct with YaRN ×4 (original 32,768)', () => {
    const i = qwenYarn();
    assert.equal(vllmDerivedMaxLen(i), 131072); // yarn: original × factor
    assert.equal(sglangDerivedContext(i), 32768); // original present → factor ignored
    assert.equal(llamaCppTrainContext(i), 32768); // context_length = max_position_embeddings
    assert.equal(tgiDerivedMaxLen(i), 32768);
    assert.equal(supportedContext(i.rope, i.trainedContext), 131072);
  });

  it('Llama-3.1-8B llama3: max_position_embeddings, never × factor', () => {
    const i = llama31();
    assert.equal(vllmDerivedMaxLen(i), 131072);
    assert.equal(sglangDerivedContext(i), 131072);
    assert.equal(llamaCppTrainContext(i), 131072);
    assert.equal(trainedContextOf(i.rope), 8192);
  });

  it('Phi-3-mini-128k longrope (legacy su): max_position_embeddings', () => {
    const i = phi3();
    assert.equal(vllmDerivedMaxLen(i), 131072);
    assert.equal(sglangDerivedContext(i), 131072);
    assert.equal(trainedContextOf(i.rope), 4096);
  });

  it('DeepSeek-V3 yarn ×40 over 4,096', () => {
    const i = deepseek();
    assert.equal(vllmDerivedMaxLen(i), 4096 * 40);
    assert.equal(sglangDerivedContext(i), 163840);
    assert.equal(llamaCppTrainContext(i), 163840);
  });

  it('default-RoPE Mistral-7B-v0.1: its max_position_embeddings everywhere', () => {
    const i = mistral();
    for (const f of [vllmDerivedMaxLen, sglangDerivedContext, llamaCppTrainContext, tgiDerivedMaxLen]) assert.equal(f(i), 32768);
  });

  it('vLLM takes the smallest length key, SGLang the first of its own order (Qwen-1: seq_length 8,192, mpe 32,768)', () => {
    const i = inputOf(join(MODELS, 'qwen-7b.json'));
    assert.equal(vllmDerivedMaxLen(i), 8192);
    assert.equal(sglangDerivedContext(i), 8192);
    const j = inputOf(join(MODELS, 'qwen-7b.json'), (c) => {
      c.model_max_length = 16384;
    });
    assert.equal(vllmDerivedMaxLen(j), 16384, 'model_max_length replaces the min in vLLM');
  });

  it('vLLM multiplies linear and dynamic by factor over the min key; gemma3 is never multiplied', () => {
    assert.equal(
      vllmDerivedMaxLen(
        inputOf(join(CONFIGS, 'mistral-7b-v0.1.tabs.json'), (c) => {
          c.rope_scaling = { rope_type: 'linear', factor: 2 };
        }),
      ),
      65536,
    );
    assert.equal(
      vllmDerivedMaxLen(
        inputOf(join(CONFIGS, 'mistral-7b-v0.1.tabs.json'), (c) => {
          c.rope_scaling = { rope_type: 'dynamic', factor: 3 };
        }),
      ),
      98304,
    );
    assert.equal(
      vllmDerivedMaxLen(
        inputOf(join(CONFIGS, 'mistral-7b-v0.1.tabs.json'), (c) => {
          c.model_type = 'gemma3_text';
          c.rope_scaling = { rope_type: 'linear', factor: 8 };
        }),
      ),
      32768,
    );
  });
});

describe("serving model: commands that reproduce the config's scaling", () => {
  it('llama.cpp for Qwen2.5 YaRN ×4: --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768, and the context cap raised', () => {
    const p = servingPlan('llama.cpp', qwenYarn());
    assert.deepEqual(after(p.args, '--rope-scaling', 5), ['yarn', '--rope-scale', '4', '--yarn-orig-ctx', '32768']);
    assert.deepEqual(after(p.args, '-c'), ['131072']);
    assert.deepEqual(after(p.args, '--override-kv'), ['qwen2.context_length=int:131072']);
    assert.equal(p.derivedMaxLen, 32768);
    assert.equal(p.overrides, null);
  });

  it('vLLM for Qwen2.5 YaRN: --max-model-len 131072 and the override in the modern spelling, no env needed', () => {
    const p = servingPlan('vllm', qwenYarn());
    assert.equal(p.context, 131072);
    assert.deepEqual(after(p.args, '--max-model-len'), ['131072']);
    assert.deepEqual(p.overrides, { rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
    assert.deepEqual(after(p.args, '--hf-overrides'), ['{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}']);
    assert.deepEqual(p.env, {});
    assert.ok(!p.args.includes('--rope-scaling'), 'the removed flag is never emitted');
  });

  it('SGLang for Qwen2.5 YaRN: override, --context-length and the environment variable', () => {
    const p = servingPlan('sglang', qwenYarn());
    assert.deepEqual(after(p.args, '--context-length'), ['131072']);
    assert.deepEqual(JSON.parse(after(p.args, '--json-model-override-args')![0]), {
      rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
    });
    assert.deepEqual(p.env, { SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN: '1' });
  });

  it('a stock Qwen2.5 config asked for 131,072 gets YaRN {factor 4, original 32,768} in override form', () => {
    const v = servingPlan('vllm', qwenStock(131072));
    assert.equal(v.derivedMaxLen, 32768);
    assert.deepEqual(v.overrides, { rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
    assert.deepEqual(v.env, {}, 'with the override vLLM derives 131,072 itself');
    const l = servingPlan('llama.cpp', qwenStock(131072));
    assert.deepEqual(after(l.args, '--rope-scaling', 5), ['yarn', '--rope-scale', '4', '--yarn-orig-ctx', '32768']);
    const t = servingPlan('tgi', qwenStock(131072));
    assert.deepEqual(after(t.args, '--rope-scaling', 3), ['dynamic', '--rope-factor', '4']);
    assert.ok(t.notes.some((n) => /cannot set YaRN/.test(n)));
    const stockAt32k = servingPlan('vllm', qwenStock());
    assert.equal(stockAt32k.context, 32768);
    assert.equal(stockAt32k.overrides, null, 'no scaling when the context is the trained one');
  });

  it("Llama-3.1: no override (llama3 ships in config.json); beyond 131,072 needs vLLM's env and is said to extrapolate", () => {
    const p = servingPlan('vllm', llama31());
    assert.equal(p.overrides, null);
    assert.deepEqual(p.env, {});
    assert.equal(p.context, 131072);
    const far = servingPlan('vllm', llama31(262144));
    assert.deepEqual(far.env, { VLLM_ALLOW_LONG_MAX_MODEL_LEN: '1' });
    assert.ok(far.notes.some((n) => /extrapolated/.test(n)));
    const l = servingPlan('llama.cpp', llama31());
    assert.ok(!l.args.includes('--rope-scaling'));
    assert.ok(l.notes.some((n) => /rope_freqs/.test(n)));
  });

  it('Phi-3 longrope: llama.cpp and TGI say so instead of emitting flags; vLLM notes its 4,096 default', () => {
    const l = servingPlan('llama.cpp', phi3());
    assert.ok(!l.args.includes('--rope-scaling'));
    assert.ok(l.notes.some((n) => /longrope/.test(n) && /no llama\.cpp flag/.test(n)));
    const v = servingPlan('vllm', phi3());
    assert.deepEqual(after(v.args, '--max-model-len'), ['131072']);
    assert.ok(v.notes.some((n) => /4,096/.test(n)));
    assert.equal(v.overrides, null);
  });

  it('DeepSeek-V3: llama.cpp flags ×40 over 4,096 and a note that mscale comes from the GGUF', () => {
    const l = servingPlan('llama.cpp', deepseek());
    assert.deepEqual(after(l.args, '--rope-scaling', 5), ['yarn', '--rope-scale', '40', '--yarn-orig-ctx', '4096']);
    assert.ok(!l.args.includes('--override-kv'), '163,840 is the GGUF context_length itself');
    assert.ok(l.notes.some((n) => /mscale/.test(n)));
    const v = servingPlan('vllm', deepseek());
    assert.equal(v.context, 163840);
    assert.equal((v.overrides!.rope_scaling as Record<string, unknown>).rope_type, 'yarn');
    assert.ok(!('type' in (v.overrides!.rope_scaling as Record<string, unknown>)), 'legacy type is rewritten');
  });

  it('dynamic scaling: llama.cpp and Ollama say it is lost; TGI passes it', () => {
    const i = inputOf(join(CONFIGS, 'mistral-7b-v0.1.tabs.json'), (c) => {
      c.rope_scaling = { rope_type: 'dynamic', factor: 2 };
    });
    assert.ok(!servingPlan('llama.cpp', i).args.includes('--rope-scaling'));
    assert.ok(servingPlan('llama.cpp', i).notes.some((n) => /no dynamic NTK/.test(n)));
    assert.ok(servingPlan('ollama', i).notes.some((n) => /no dynamic NTK/.test(n)));
    assert.deepEqual(after(servingPlan('tgi', i).args, '--rope-scaling', 3), ['dynamic', '--rope-factor', '2']);
  });

  it('Ollama: num_ctx clamped to the GGUF context_length, said in notes', () => {
    const p = servingPlan('ollama', qwenYarn());
    assert.deepEqual(p.env, { OLLAMA_CONTEXT_LENGTH: '32768' });
    assert.equal(p.context, 131072);
    assert.ok(p.notes.some((n) => /clamps num_ctx/.test(n)));
    const m = servingPlan('ollama', mistral(8192));
    assert.deepEqual(m.env, { OLLAMA_CONTEXT_LENGTH: '8192' });
    assert.ok(!m.notes.some((n) => /clamps/.test(n)));
  });

  it('a v5 rope_parameters config keeps its rope_theta inside the override', () => {
    // Mistral-7B-v0.1's values in the v5 spelling, windows off (a 4,096 window on every layer would
    // make any scaling pointless): trained at 8,192 (catalog), the factor is 65,536 / 8,192.
    const i = inputOf(
      join(CONFIGS, 'mistral-7b-v0.1.tabs.json'),
      (c) => {
        delete c.rope_theta;
        delete c.sliding_window;
        c.rope_parameters = { rope_type: 'default', rope_theta: 10000 };
      },
      { context: 65536 },
    );
    const p = servingPlan('vllm', i);
    assert.deepEqual(p.overrides, { rope_parameters: { rope_type: 'yarn', rope_theta: 10000, factor: 8, original_max_position_embeddings: 8192 } });
  });
});

describe('serving model: shell output', () => {
  it("writes floats as the engines' docs do", () => {
    assert.equal(
      jsonText({ rope_scaling: { factor: 4, original_max_position_embeddings: 32768 } }),
      '{"rope_scaling":{"factor":4.0,"original_max_position_embeddings":32768}}',
    );
    assert.equal(jsonText({ factor: 3.0517578125 }), '{"factor":3.0517578125}');
  });

  it("every engine's line survives a POSIX shell: the arguments arrive as planned", function () {
    if (process.platform === 'win32') this.skip();
    for (const engine of ['vllm', 'sglang', 'llama.cpp', 'tgi', 'ollama'] as EngineName[]) {
      const plan = servingPlan(engine, { ...qwenYarn(), model: "weird dir/it's here" });
      const r = spawnSync('sh', ['-c', shellCommand({ env: {}, args: ['printf', '%s\\n', ...plan.args] })], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const out = r.stdout.split('\n').slice(0, -1);
      const envLine = shellCommand({ env: plan.env, args: ['sh', '-c', 'env'] });
      const env = spawnSync('sh', ['-c', envLine], { encoding: 'utf8' }).stdout;
      for (const [k, v] of Object.entries(plan.env)) assert.ok(env.includes(`${k}=${v}\n`), `${engine} ${k}`);
      assert.deepEqual(out, plan.args, engine);
    }
  });

  it('scalingFacts normalizes legacy type and su', () => {
    assert.equal(scalingFacts(phi3().rope).type, 'longrope');
    assert.equal(scalingFacts(qwenYarn().rope).type, 'yarn');
    assert.equal(scalingFacts(mistral().rope).type, 'none');
  });
});
