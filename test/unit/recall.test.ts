/**
 * The recall pass over the repo's own fixtures (follow-up of issue 40): launches that were read but not
 * judged, and launch files read as "other", reviewed one by one (test/fixtures/RECALL.md holds the table).
 * Each fix here is on the fixture that showed the gap: a model named the way its engine or its
 * converter names it now resolves offline, and a server RoPE Lens recognises but does not read is said.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RopeLensService } from '../../shared/service/service';
import { identityCandidates } from '../../shared/service/analyzeLaunch';
import { ollamaLibraryModel } from '../../shared/serving/ollama';
import { launchService } from './helpers/launch';

const LAUNCH = join(__dirname, '..', 'fixtures', 'launch');

describe('recall pass: fixtures read but not judged, now judged or said', function () {
  this.timeout(60_000);
  let service: RopeLensService;
  before(async () => {
    ({ service } = await launchService());
  });
  const analyze = (rel: string) => service.analyze(readFileSync(join(LAUNCH, rel), 'utf8'), { fileName: join(LAUNCH, rel) });
  const onlyLaunch = (rel: string) => {
    const a = analyze(rel);
    assert.equal(a.launches?.length, 1, `${rel}: ${JSON.stringify(a.launches?.map((l) => l.program))}`);
    return { a, l: a.launches![0] };
  };

  it("KubeAI's ollama://gemma3:27b is the Ollama library's Gemma 3 27B (instruction-tuned), judged", () => {
    const { a, l } = onlyLaunch('wild/substratusai__kubeai/gemma-3-27b-ollama-l4.yaml');
    assert.equal(l.unjudged, undefined, l.unjudged);
    assert.equal(l.resolvedFrom, 'catalog:google/gemma-3-27b-it');
    assert.ok(
      l.notes.some((n) => /Ollama library tag gemma3:27b/.test(n)),
      l.notes.join(' | '),
    );
    assert.deepEqual(
      a.diagnostics.map((d) => d.code),
      [],
    );
  });

  it('Ollama gemma2/gemma3 tags: sizes, -it/-qat and quantisation words keep the model; a base (text) tag is not guessed', () => {
    assert.equal(ollamaLibraryModel('gemma3')?.id, 'google/gemma-3-4b-it');
    assert.equal(ollamaLibraryModel('gemma3:12b-it-qat')?.id, 'google/gemma-3-12b-it');
    assert.equal(ollamaLibraryModel('gemma3:1b-it-q4_K_M')?.id, 'google/gemma-3-1b-it');
    assert.equal(ollamaLibraryModel('gemma2:27b')?.id, 'google/gemma-2-27b-it');
    assert.equal(ollamaLibraryModel('gemma2:9b-text-q4_0'), undefined);
    assert.equal(ollamaLibraryModel('gemma3:7b'), undefined, 'no such size');
  });

  it("a GGML .bin named as TheBloke named them (llama-2-13b-chat.ggmlv3.q4_0.bin) is Llama-2-13B's: -c 2048 judged, quiet", () => {
    assert.ok(identityCandidates('./models/llama-2-13b-chat.ggmlv3.q4_0.bin').includes('llama-2-13b-chat-hf'));
    const { a, l } = onlyLaunch('corpus/AlienKevin__llama2/run-13b.sh');
    assert.equal(l.unjudged, undefined, l.unjudged);
    assert.equal(l.resolvedFrom, 'catalog:meta-llama/Llama-2-13b-hf');
    assert.equal(l.trainedContext, 4096);
    assert.equal(l.requestedLength, 2048);
    assert.ok(
      l.notes.some((n) => /assumed, not read/.test(n)),
      'the identity is said as assumed',
    );
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
      [],
    );
  });

  it("llama.cpp's converter default name (…/Llama-2-7b-hf/ggml-model-f16.gguf) is named by its folder", () => {
    assert.equal(identityCandidates('/storage/llm/llama2/Llama-2-7b-hf/ggml-model-f16.gguf')[0], 'Llama-2-7b-hf');
    const { l } = onlyLaunch('corpus/paolo-gajo__llm-dit/llama2-7.sh');
    assert.equal(l.resolvedFrom, 'catalog:meta-llama/Llama-2-7b-hf');
    assert.equal(l.derivedMaxLen, 4096);
    // A private file name stays unknown: no folder or -hf repo makes it a model.
    assert.equal(
      identityCandidates('/models/my-private-finetune.gguf').some((c) => /llama|qwen/i.test(c)),
      false,
    );
  });

  it('a LocalAI compose service is said (launch/not-read, where its context lives), no longer read as "other"', () => {
    const a = analyze('corpus/mudler__LocalAI/docker-compose.yml');
    assert.equal(a.kind, 'launch');
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['launch/not-read', 'information']],
    );
    assert.match(a.diagnostics[0].detail ?? '', /context_size/);
    assert.equal(a.launches?.[0].unread, true);
  });

  it('ordinary compose files stay "other" and quiet (awesome-compose, kubernetes nginx)', () => {
    for (const rel of ['corpus/docker__awesome-compose/nginx-flask-mysql/compose.yaml', 'corpus/kubernetes__website/nginx-deployment.yaml']) {
      const a = analyze(rel);
      assert.equal(a.kind, 'other', rel);
      assert.deepEqual(a.diagnostics, [], rel);
    }
  });

  describe('widened: real launch files the fixtures lacked (test/fixtures/launch/recall/README.md)', () => {
    const codes = (rel: string) => analyze(rel).diagnostics.map((d) => `${d.severity} ${d.code}`);

    it("Megatron's --use-rope-scaling is Llama 3.x's scaling: no base-below-bound for Llama-3.1's 500,000 at 131,072", () => {
      const rel = 'recall/constructed/megatron-llama3.1-use-rope-scaling.sh';
      const { a, l } = onlyLaunch(rel);
      assert.ok('use_rope_scaling' in l.ropeOptions, JSON.stringify(l.ropeOptions));
      assert.deepEqual(
        a.diagnostics.map((d) => d.code),
        [],
      );
      // The same command without the scaling is a from-scratch base choice below the bound at 131,072.
      const text = readFileSync(join(LAUNCH, rel), 'utf8').replace(/^ *--use-rope-scaling \\\n *--rope-scaling-factor 8\.0 \\\n/m, '');
      assert.ok(!text.includes('--use-rope-scaling'), 'the scaling lines were removed');
      const plain = service.analyze(text, { fileName: join(LAUNCH, rel) });
      assert.deepEqual(
        plain.diagnostics.map((d) => d.code),
        ['rope/base-below-bound'],
      );
    });

    it('a Megatron argument list with RoPE options and no launch (slime scripts/models/*.sh) is said', () => {
      for (const rel of ['recall/zyzshishui__slime__llama3.1-8B.sh', 'recall/zyzshishui__slime__llama3.2-3B-Instruct-amd.sh']) {
        assert.deepEqual(codes(rel), ['information launch/not-read'], rel);
        assert.match(analyze(rel).diagnostics[0].message, /MODEL_ARGS sets Megatron RoPE options/);
      }
    });

    it('a Ray Serve LLM script (LLMConfig, engine_kwargs.max_model_len) is said, not passed over', () => {
      const rel = 'recall/anyscale__examples__serve_llama_3_1_8b.py';
      assert.deepEqual(codes(rel), ['information launch/not-read']);
      assert.match(analyze(rel).diagnostics[0].message, /ray\.serve\.llm that serves \(LLMConfig/);
    });

    it("vLLM's CPU image (vllm-cpu-env, as vLLM's docs tag it) is read as vLLM: Qwen2.5-VL-3B at 116,480 past its trained 32,768", () => {
      const rel = 'recall/Hiroaki-Masuzawa__llm_vlm_memo__run_qwen2.5-3b_cpu.sh';
      const { l } = onlyLaunch(rel);
      assert.equal(l.program, 'vllm');
      assert.equal(l.requestedLength, 116480, '--max_model_len, underscores as vLLM reads them');
      assert.deepEqual(codes(rel), ['warning vllm/context-beyond-trained']);
    });

    it("a generic train script's --init_ckpt names its base model (fmengine): open_llama_3b_v2 at 2,048 judged, quiet", () => {
      const { a, l } = onlyLaunch('recall/eth-easl__fmengine__finetune_llama_3b.sh');
      assert.equal(l.resolvedFrom, 'catalog:openlm-research/open_llama_3b_v2');
      assert.equal(l.requestedLength, 2048);
      assert.deepEqual(a.diagnostics, []);
    });

    it('`litgpt pretrain meta-llama/Meta-Llama-3-8B` (LitGPT CLI) is read and judged, no longer "other"', () => {
      const { a, l } = onlyLaunch('recall/ryanyxw__phdbrainstorm__train.sh');
      assert.equal(a.kind, 'launch');
      assert.equal(l.program, 'litgpt');
      assert.equal(l.resolvedFrom, 'catalog:meta-llama/Meta-Llama-3-8B');
      assert.equal(l.requestedLength, null, 'no --train.max_seq_length: the block size');
      assert.deepEqual(a.diagnostics, []);
    });
  });

  it("vLLM's underscore spelling (--max_model_len) given to an image whose entrypoint is unknown is read as vLLM's, as vLLM reads it", () => {
    const text = 'docker run --gpus all registry.example.com/team/llm-serve:1.2 --model Qwen/Qwen2.5-7B-Instruct --max_model_len 65536\n';
    const a = service.analyze(text, { fileName: '/work/serve/run.sh' });
    assert.equal(a.kind, 'launch');
    assert.equal(a.launches?.[0].program, 'vllm');
    assert.deepEqual(
      a.diagnostics.map((d) => `${d.severity} ${d.code}`),
      ['error vllm/max-model-len-exceeds'],
    );
    // The dashed spelling gives the same finding.
    const dashed = service.analyze(text.replace('--max_model_len', '--max-model-len'), { fileName: '/work/serve/run.sh' });
    assert.deepEqual(
      dashed.diagnostics.map((d) => d.code),
      a.diagnostics.map((d) => d.code),
    );
  });

  describe('verl (Hydra overrides): prompt + response is the trained length', () => {
    const cli = (text: string) => service.analyze(text, { fileName: '/work/rl/run_grpo.sh' });
    const grpo = (extra = '') =>
      `python3 -m verl.trainer.main_ppo \\\n  algorithm.adv_estimator=grpo \\\n  data.max_prompt_length=2048 data.max_response_length=32768 \\\n  actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct${extra}\n`;
    it("verl's own GRPO example (Qwen2-7B-Instruct, 512 + 512) is read and judged, quiet", () => {
      const { a, l } = onlyLaunch('recall/volcengine__verl__run_qwen2-7b.sh');
      assert.equal(l.program, 'verl');
      assert.equal(l.resolvedFrom, 'catalog:Qwen/Qwen2-7B-Instruct');
      assert.equal(l.requestedLength, 1024);
      assert.deepEqual(a.diagnostics, []);
    });
    it("2,048 + 32,768 on Qwen2.5-7B-Instruct (trained at 32,768) warns on the response length, naming verl's override keys", () => {
      const a = cli(grpo());
      assert.equal(a.launches?.[0].requestedLength, 34816);
      assert.deepEqual(
        a.diagnostics.map((d) => `${d.severity} ${d.code}`),
        ['warning training/context-exceeded'],
      );
      assert.match(a.diagnostics[0].message, /34,816 tokens extrapolates positions past 32,768/);
      assert.match(a.diagnostics[0].detail ?? '', /\+actor_rollout_ref\.model\.override_config\.rope_scaling\.type/);
      assert.deepEqual(a.diagnostics[0].fixes, [], 'no fix is written into Hydra overrides');
    });
    it("with verl's documented YaRN override (×4 over 32,768) the same run is quiet", () => {
      const over =
        ' \\\n  +actor_rollout_ref.model.override_config.rope_scaling.type=yarn \\\n  +actor_rollout_ref.model.override_config.rope_scaling.factor=4.0 \\\n  +actor_rollout_ref.model.override_config.rope_scaling.original_max_position_embeddings=32768';
      const a = cli(grpo(over));
      assert.deepEqual(a.launches?.[0].ropeOptions, { rope_scaling: '4.0' });
      assert.deepEqual(a.diagnostics, []);
    });
  });

  describe('Hydra-configured trainers RoPE Lens does not read (RL2): said with the model they name', () => {
    for (const [rel, model] of [['recall/ChenmienTan__RL2__orz_ppo.sh', 'actor.model_name=Qwen/Qwen2.5-7B']]) {
      it(rel, () => {
        const a = analyze(rel);
        assert.deepEqual(
          a.diagnostics.map((d) => d.code),
          ['launch/not-read'],
        );
        assert.ok(a.diagnostics[0].detail?.includes(`key=value overrides (Hydra/OmegaConf; the model is ${model})`), a.diagnostics[0].detail);
      });
    }
  });

  describe('LitGPT command lines, as its YAML is read', () => {
    const cli = (text: string) => service.analyze(text, { fileName: '/work/train/litgpt.sh' });
    it("a fine-tune past the checkpoint's trained context warns (Llama-2-7b at 16,384), with the LitGPT note", () => {
      const a = cli('litgpt finetune_lora checkpoints/meta-llama/Llama-2-7b-hf --train.max_seq_length 16384 --out_dir out/lora\n');
      assert.equal(a.launches?.[0].resolvedFrom, 'catalog:meta-llama/Llama-2-7b-hf');
      assert.deepEqual(
        a.diagnostics.map((d) => `${d.severity} ${d.code}`),
        ['warning training/context-exceeded'],
      );
      assert.match(a.diagnostics[0].detail ?? '', /LitGPT sets RoPE in the model's config/);
    });
    it('within the trained context it is quiet; --checkpoint_dir and --train.max_seq_length=N spell the same', () => {
      const a = cli('litgpt finetune --checkpoint_dir checkpoints/meta-llama/Llama-2-7b-hf --train.max_seq_length=4096\n');
      assert.equal(a.launches?.[0].requestedLength, 4096);
      assert.deepEqual(a.diagnostics, []);
    });
    it("a built-in architecture pretrained from scratch is judged as the model the command defines, not 'not found'", () => {
      const a = cli('litgpt pretrain pythia-160m --train.max_seq_length 2048\n');
      const l = a.launches![0];
      assert.equal(l.unjudged, undefined, l.unjudged);
      assert.equal(l.resolvedFrom, 'defined by this command');
      assert.ok(
        a.diagnostics.some((d) => d.code === 'rope/base-below-bound'),
        JSON.stringify(a.diagnostics.map((d) => d.code)),
      );
    });
    it('litgpt commands that do not train (chat, serve, download) are no launch', () => {
      for (const c of ['litgpt chat meta-llama/Meta-Llama-3-8B\n', 'litgpt download meta-llama/Meta-Llama-3-8B\n']) {
        const a = cli(c);
        assert.ok(!(a.launches ?? []).some((l) => l.program === 'litgpt'), c);
      }
    });
  });
});
