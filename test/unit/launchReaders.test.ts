/**
 * Issue 40, part 3: every launch and trainer file read, or said. Real public files (sources in
 * test/fixtures/launch/readers/README.md) for each format that used to be read in silence:
 * SkyPilot tasks, dstack configurations, production-stack Helm values, compose merge keys,
 * NeMo / open-instruct / TRL YAML, `trl sft` and Megatron-LM command lines. Each is read with its
 * values on the user's own characters and judged by the existing rules; what looks like a launch or a
 * training run and is not read gets one note (launch/not-read, training/not-read), and ordinary files stay quiet.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLaunchFile } from '../../shared/launch/index';
import type { ShellParser, SourceReader } from '../../shared/launch/types';
import { LineMap } from '../../shared/launch/text';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import type { Finding } from '../../shared/core/findings';
import { after, argvOf, assertExactSpans, envOf, shellParser } from './helpers/launch';
import { said } from './helpers/findingText';

const dir = join(__dirname, '..', 'fixtures', 'launch', 'readers');
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

describe('launch and trainer files read, or said (issue 40)', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  let service: ReturnType<typeof createRopeLensService>;
  before(async () => {
    shell = await shellParser();
    service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell });
  });
  const analyze = (name: string, text = read(name)) => service.analyze(text, { fileName: join(dir, name) });
  const at = (text: string, f: { range: Finding['range'] }) => {
    const m = new LineMap(text);
    return text.slice(m.offset(f.range.start), m.offset(f.range.end));
  };
  const codes = (a: { diagnostics: Finding[] }) => a.diagnostics.map((d) => d.code);

  describe('SkyPilot tasks', () => {
    it('qwen25-72b.yaml: run: is read as shell with envs: exported; vllm serve judged against Qwen2.5-72B (1,024 fits)', () => {
      const text = read('skypilot-qwen25-72b.yaml');
      const f = readLaunchFile(text, 'qwen25-72b.yaml', { shell })!;
      assert.equal(f.format, 'skypilot');
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 1, 'pip install in setup: is no launch');
      const inv = f.invocations[0];
      assert.deepEqual(argvOf(inv).slice(0, 3), ['vllm', 'serve', 'Qwen/Qwen2.5-72B-Instruct']);
      assert.equal(inv.argv[2].via?.[0].name, 'MODEL_NAME', 'the model came through envs:');
      const assigned = inv.argv[2].via![0].assignedAt!;
      assert.equal(text.slice(new LineMap(text).offset(assigned.start)).split('\n')[0], 'Qwen/Qwen2.5-72B-Instruct', 'assigned on the envs: value');
      assert.equal(after(inv, '--max-model-len').raw, '1024');
      const a = analyze('skypilot-qwen25-72b.yaml');
      assert.equal(a.kind, 'launch');
      assert.equal(a.launches![0].resolvedFrom, 'catalog:Qwen/Qwen2.5-72B-Instruct');
      assert.equal(a.launches![0].requestedLength, 1024);
      assert.deepEqual(codes(a), []);
    });

    it('the same task serving --max-model-len 131072: the error lands on 131072 in run:', () => {
      const text = read('constructed/qwen25-72b-past-model.sky.yaml');
      const a = analyze('constructed/qwen25-72b-past-model.sky.yaml', text);
      const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds');
      assert.ok(d, codes(a).join(', '));
      assert.equal(d.severity, 'error');
      assert.equal(at(text, d), '131072');
    });

    it('serve-openai-api.yaml: python -m vllm.entrypoints.openai.api_server --model $MODEL_NAME is read; setup: conda/pip lines are not launches', () => {
      const text = read('skypilot-llama2-openai.yaml');
      const f = readLaunchFile(text, 'serve-openai-api.yaml', { shell })!;
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 1);
      assert.equal(after(f.invocations[0], '--model').value, 'meta-llama/Llama-2-7b-chat-hf');
      const a = analyze('skypilot-llama2-openai.yaml');
      assert.equal(a.launches?.length, 1);
      assert.equal(a.launches![0].unread, undefined);
      assert.ok(a.launches![0].resolvedFrom, 'Llama-2-7b-chat resolves offline');
    });

    it('a task whose run: starts nothing RoPE Lens reads gets one launch/not-read on run:', () => {
      const text =
        'envs:\n  MODEL: meta-llama/Llama-3.1-8B-Instruct\nresources:\n  accelerators: A100:1\nrun: |\n  python eval.py --model $MODEL --tasks mmlu\n';
      const a = analyze('eval.yaml', text);
      assert.deepEqual(
        a.diagnostics.map((d) => [d.code, d.severity, d.range.start.line]),
        [['launch/not-read', 'information', 4]],
      );
      assert.match(said(a.diagnostics[0]), /SkyPilot task whose run: block starts no engine/);
    });
  });

  describe('dstack', () => {
    it('.dstack.yml service: commands: run as one shell with env: (- NAME=value) exported; the folded vllm serve line keeps its spans', () => {
      const text = read('dstack-vllm-llama31.dstack.yml');
      const f = readLaunchFile(text, '.dstack.yml', { shell })!;
      assert.equal(f.format, 'dstack');
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 1);
      const inv = f.invocations[0];
      assert.deepEqual(argvOf(inv).slice(0, 5), ['vllm', 'serve', 'meta-llama/Meta-Llama-3.1-8B-Instruct', '--max-model-len', '4096']);
      const len = after(inv, '--max-model-len');
      assert.equal(len.raw, '$MAX_MODEL_LEN');
      assert.equal(text.slice(new LineMap(text).offset(len.via![0].assignedAt!.start)).split('\n')[0], '4096', 'assigned in env:, on the value');
      const a = analyze('dstack-vllm-llama31.dstack.yml');
      assert.equal(a.launches![0].derivedMaxLen, 131072);
      assert.deepEqual(codes(a), []);
    });

    it('a length past the model, written in env:, is found there', () => {
      const text = read('dstack-vllm-llama31.dstack.yml').replace('MAX_MODEL_LEN=4096', 'MAX_MODEL_LEN=262144');
      const a = analyze('dstack-vllm-llama31.dstack.yml', text);
      const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds');
      assert.ok(d, codes(a).join(', '));
      assert.equal(at(text, d), '$MAX_MODEL_LEN');
    });

    it('a dev environment with no init: runs nothing: quiet, no note', () => {
      const a = analyze('dstack-trl-dev-environment.dstack.yml');
      assert.deepEqual(codes(a), []);
      assert.deepEqual(a.launches ?? [], []);
    });
  });

  describe('production-stack Helm values', () => {
    it('modelSpec[]: vllm serve <modelURL> --max-model-len <vllmConfig.maxModelLen> then extraArgs, the chart words on their keys', () => {
      const text = read('production-stack-values-02-basic-config.yaml');
      const f = readLaunchFile(text, 'values-02-basic-config.yaml', { shell })!;
      assert.equal(f.format, 'helm-values');
      assertExactSpans(text, f);
      const inv = f.invocations[0];
      assert.deepEqual(argvOf(inv), [
        'vllm',
        'serve',
        'meta-llama/Llama-3.1-8B-Instruct',
        '--max-model-len',
        '4096',
        '--disable-log-requests',
        '--gpu-memory-utilization',
        '0.8',
      ]);
      assert.ok(inv.argv[0].from && inv.argv[3].from, 'words the chart supplies are marked');
      assert.equal(inv.argv[4].from, undefined, 'the length is the user’s own');
      assert.equal(inv.image?.value, 'vllm/vllm-openai:latest');
      const a = analyze('production-stack-values-02-basic-config.yaml');
      assert.equal(a.launches![0].resolvedFrom, 'catalog:meta-llama/Llama-3.1-8B');
      assert.deepEqual(codes(a), []);
    });

    it('maxModelLen past what vLLM derives: the error on the value, and its fix edits it', () => {
      const text = read('production-stack-values-02-basic-config.yaml').replace('maxModelLen: 4096', 'maxModelLen: 262144');
      const a = analyze('production-stack-values-02-basic-config.yaml', text);
      const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds');
      assert.ok(d, codes(a).join(', '));
      assert.equal(at(text, d), '262144');
      assert.ok(
        d.fixes.some((fx) => fx.edits.some((e) => at(text, e) === '262144')),
        'a fix rewrites the value',
      );
    });
  });

  describe('compose merge keys', () => {
    it('<<: [*common, *llama]: image, environment and command come from the anchors; the error lands where the anchor writes 16384', () => {
      const text = read('constructed/merge-key.compose.yaml');
      const f = readLaunchFile(text, 'merge-key.compose.yaml', { shell })!;
      assert.equal(f.format, 'compose');
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 2, 'chat and reranker; nginx is no launch');
      const chat = f.invocations[0];
      assert.equal(chat.image?.value, 'vllm/vllm-openai:latest');
      assert.equal(envOf(chat).TZ, 'Asia/Shanghai');
      assert.ok(
        chat.notes.some((n) => /merge key/.test(n)),
        chat.notes.join('; '),
      );
      const a = analyze('constructed/merge-key.compose.yaml', text);
      const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds');
      assert.ok(d, codes(a).join(', '));
      assert.equal(at(text, d), '"16384"');
      assert.equal(d.range.start.line, 10);
    });

    it('own keys win over merged ones', () => {
      const text =
        'x-c: &c\n  image: vllm/vllm-openai:v0.6.0\n  command: ["--model", "meta-llama/Llama-2-7b-hf"]\nservices:\n  a:\n    <<: *c\n    image: vllm/vllm-openai:v0.9.0\n';
      const f = readLaunchFile(text, 'compose.yaml', { shell })!;
      assert.equal(f.invocations[0].image?.value, 'vllm/vllm-openai:v0.9.0');
      assert.deepEqual(argvOf(f.invocations[0]), ['--model', 'meta-llama/Llama-2-7b-hf']);
    });
  });

  describe('wrapper scripts: "$@" / "$1" followed into a local script that starts the engine', () => {
    const files =
      (map: Record<string, string>): SourceReader =>
      (name) =>
        name in map ? { path: `/ws/${name.replace(/^\.\//, '')}`, text: map[name] } : undefined;
    const runVllm = '#!/bin/bash\nexec vllm serve "$@"\n';
    const serve2 = '#!/bin/bash\nvllm serve "$1" --max-model-len "$2"\n';

    it('./run_vllm.sh "$MODEL" --max-model-len 16384: read through exec vllm serve "$@", every argument on the user’s token', () => {
      const text = '#!/bin/bash\nMODEL=meta-llama/Llama-2-7b-hf\n./run_vllm.sh "$MODEL" --max-model-len 16384 --port 8000\n';
      const f = readLaunchFile(text, 'start.sh', { shell, readSourced: files({ './run_vllm.sh': runVllm }) })!;
      assertExactSpans(text, f);
      assert.equal(f.invocations.length, 1);
      const inv = f.invocations[0];
      assert.deepEqual(argvOf(inv), ['vllm', 'serve', 'meta-llama/Llama-2-7b-hf', '--max-model-len', '16384', '--port', '8000']);
      assert.equal(inv.argv[0].raw, './run_vllm.sh', 'words written in the script enter at its name');
      assert.equal(after(inv, '--max-model-len').raw, '16384');
      assert.ok(
        inv.notes.some((n) => /through the script \.\/run_vllm\.sh/.test(n)),
        inv.notes.join('; '),
      );
      const svc = createRopeLensService({
        oracle: createSyncOracle(),
        shellParser: () => shell,
        sourcedFiles: (_s, name) => files({ './run_vllm.sh': runVllm })(name),
      });
      const a = svc.analyze(text, { fileName: '/ws/start.sh' });
      const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds');
      assert.ok(d, codes(a).join(', '));
      assert.equal(at(text, d), '16384');
    });

    it('bash serve2.sh MODEL 65536 with vllm serve "$1" --max-model-len "$2": positions in the user’s file; without the script, nothing is invented', () => {
      const text = '#!/bin/bash\nbash serve2.sh Qwen/Qwen2.5-7B-Instruct 65536\n';
      const f = readLaunchFile(text, 'start2.sh', { shell, readSourced: files({ 'serve2.sh': serve2 }) })!;
      assertExactSpans(text, f);
      const inv = f.invocations[0];
      assert.equal(after(inv, '--max-model-len').raw, '65536');
      assert.equal(inv.argv[2].raw, 'Qwen/Qwen2.5-7B-Instruct');
      assert.equal(readLaunchFile(text, 'start2.sh', { shell, readSourced: files({}) }), undefined);
    });

    it('a SkyPilot run: block calling bash run_vllm.sh $MODEL --max-model-len 16384 is followed too', () => {
      const text = 'envs:\n  MODEL: meta-llama/Llama-2-7b-hf\nresources:\n  accelerators: A10G:1\nrun: |\n  bash run_vllm.sh $MODEL --max-model-len 16384\n';
      const f = readLaunchFile(text, 'task.yaml', { shell, readSourced: files({ 'run_vllm.sh': runVllm }) })!;
      assert.equal(f.format, 'skypilot');
      assertExactSpans(text, f);
      assert.deepEqual(argvOf(f.invocations[0]).slice(0, 5), ['vllm', 'serve', 'meta-llama/Llama-2-7b-hf', '--max-model-len', '16384']);
      assert.equal(after(f.invocations[0], '--max-model-len').raw, '16384');
    });

    it('a local script that starts no engine, or takes no arguments (judged on its own), is not followed', () => {
      const text = '#!/bin/bash\n./prepare.sh data/ 4096\n';
      assert.equal(readLaunchFile(text, 'go.sh', { shell, readSourced: files({ './prepare.sh': 'python tokenize.py "$1" --len "$2"\n' }) }), undefined);
      const own = 'vllm serve meta-llama/Llama-2-7b-hf --max-model-len 16384\n';
      assert.equal(readLaunchFile('#!/bin/bash\n./serve.sh\n', 'go.sh', { shell, readSourced: files({ './serve.sh': own }) }), undefined);
    });
  });

  describe('trainer YAML', () => {
    it('NeMo 1.x megatron_llama_config.yaml: pretraining at encoder_seq_length 4,096 with the default rotary_base 10,000 (max_position_embeddings through ${.encoder_seq_length})', () => {
      const a = analyze('nemo-megatron_llama_config.yaml');
      assert.equal(a.kind, 'training-config');
      assert.equal(a.training?.tool, 'nemo');
      assert.equal(a.training?.sequenceLength, 4096);
      assert.equal(a.rope?.base.value, 10000);
      assert.equal(a.rope?.contextLength?.value, 4096, 'the interpolation is followed');
      assert.equal(a.rope?.headDim.value, 64, 'hidden_size / num_attention_heads');
      const d = a.diagnostics.find((x) => x.code === 'rope/base-below-bound');
      assert.ok(d, codes(a).join(', '));
    });

    it('NeMo: a raised rotary_base clears the bound; learned_absolute has no RoPE to judge; restore_from_path continues a checkpoint', () => {
      const text = read('nemo-megatron_llama_config.yaml');
      const raised = analyze('nemo.yaml', text.replace('  rotary_percentage: 1.0', '  rotary_percentage: 1.0\n  rotary_base: 500000'));
      assert.equal(raised.rope?.base.value, 500000);
      assert.ok(!codes(raised).includes('rope/base-below-bound'), codes(raised).join(', '));
      const learned = analyze('nemo.yaml', text.replace("position_embedding_type: 'rope'", "position_embedding_type: 'learned_absolute'"));
      assert.equal(learned.training?.tool, 'nemo');
      assert.deepEqual(codes(learned), []);
      const ft = analyze('nemo.yaml', text.replace('restore_from_path: null', 'restore_from_path: /models/llama-7b.nemo'));
      assert.equal(ft.training?.continuesFrom, '/models/llama-7b.nemo');
    });

    it('NeMo 1.x fine-tuning config: train_ds.max_seq_length read; a .nemo named after a model resolves by its stem', () => {
      const text = read('nemo-megatron_gpt_finetuning_config.yaml');
      const a = analyze('nemo-megatron_gpt_finetuning_config.yaml', text);
      assert.equal(a.training?.tool, 'nemo');
      assert.equal(a.training?.sequenceLength, 2048);
      assert.equal(a.training?.baseModel, undefined, 'restore_from_path: ??? is chosen at launch');
      assert.deepEqual(codes(a), []);
      const named = text
        .replace('restore_from_path: ???', 'restore_from_path: /models/Llama-2-7b-hf.nemo')
        .replace(/max_seq_length: 2048/g, 'max_seq_length: 16384');
      const b = analyze('ft.yaml', named);
      assert.equal(b.training?.resolvedFrom, 'catalog:meta-llama/Llama-2-7b-hf');
      const d = b.diagnostics.find((x) => x.code === 'training/context-exceeded');
      assert.ok(d, codes(b).join(', '));
      assert.equal(at(named, d), '16384');
    });

    it('NeMo 2.x fine-tuning recipe: resume.restore_config.path names the base, model.config.seq_length the length', () => {
      const text = [
        'model:',
        '  _target_: nemo.collections.llm.gpt.model.llama.LlamaModel',
        '  config:',
        '    _target_: nemo.collections.llm.gpt.model.llama.Llama3Config8B',
        '    seq_length: 16384',
        'resume:',
        '  restore_config:',
        '    path: nemo://meta-llama/Meta-Llama-3-8B',
        '',
      ].join('\n');
      const a = analyze('finetune.yaml', text);
      assert.equal(a.training?.tool, 'nemo');
      assert.equal(a.training?.baseModel, 'meta-llama/Meta-Llama-3-8B');
      assert.equal(a.training?.sequenceLength, 16384);
      const d = a.diagnostics.find((x) => x.code === 'training/context-exceeded');
      assert.ok(d, codes(a).join(', '));
      assert.equal(at(text, d), '16384');
    });

    it('open-instruct: model_name_or_path and max_seq_length, judged against Llama-3.1-8B', () => {
      const a = analyze('open-instruct-llama_3.1_8b-openmath-2.yaml');
      assert.equal(a.training?.tool, 'open-instruct');
      assert.equal(a.training?.resolvedFrom, 'catalog:meta-llama/Llama-3.1-8B');
      assert.equal(a.training?.sequenceLength, 4096);
      assert.deepEqual(codes(a), []);
      const text = read('open-instruct-llama_3.1_8b-openmath-2.yaml')
        .replace(/Meta-Llama-3\.1-8B/g, 'Llama-2-7b-hf')
        .replace('max_seq_length: 4096', 'max_seq_length: 16384');
      const past = analyze('open-instruct.yaml', text);
      const d = past.diagnostics.find((x) => x.code === 'training/context-exceeded');
      assert.ok(d, codes(past).join(', '));
      assert.equal(at(text, d), '16384');
    });

    it('TRL CLI config: the base model resolves; no length written, none guessed', () => {
      const a = analyze('trl-example_config.yaml');
      assert.equal(a.training?.tool, 'trl');
      assert.equal(a.training?.resolvedFrom, 'catalog:Qwen/Qwen2.5-0.5B');
      assert.equal(a.training?.sequenceLength, undefined);
      assert.deepEqual(codes(a), []);
    });
  });

  describe('trainer command lines', () => {
    it('trl sft --max_length 65536 on Qwen2.5-0.5B: training/context-exceeded on 65536', () => {
      const text = read('constructed/trl-sft.sh');
      const a = analyze('constructed/trl-sft.sh', text);
      const d = a.diagnostics.find((x) => x.code === 'training/context-exceeded');
      assert.ok(d, codes(a).join(', '));
      assert.equal(at(text, d), '65536');
    });

    it('Megatron-LM train_llama3_8b_h100_fp8.sh: a from-scratch model at 8,192 with --rotary-base 1000000, read and quiet', () => {
      const a = analyze('megatron-lm-train_llama3_8b_h100_fp8.sh');
      assert.equal(a.launches?.length, 1);
      assert.equal(a.launches![0].requestedLength, 8192);
      assert.equal(a.launches![0].unread, undefined);
      assert.deepEqual(codes(a), []);
    });
  });

  describe('said, not silent; quiet files stay quiet', () => {
    it('trl sft --config run.yaml names neither model nor length: one launch/not-read', () => {
      const a = analyze('sft.sh', '#!/bin/bash\ntrl sft --config recipes/sft.yaml\n');
      assert.deepEqual(
        a.diagnostics.map((d) => [d.code, d.range.start.line]),
        [['launch/not-read', 1]],
      );
      assert.match(said(a.diagnostics[0]), /trl sft --config/);
    });

    it('a Python script that trains through TRL is said; one that only tokenizes is not', () => {
      const train = analyze(
        'train.py',
        'from trl import SFTConfig, SFTTrainer\ntrainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=SFTConfig(output_dir="o"))\n',
      );
      assert.deepEqual(codes(train), ['launch/not-read']);
      assert.match(train.diagnostics[0].message, /Python script importing trl that trains/);
      const tok = analyze('tok.py', 'from transformers import AutoTokenizer\ntok = AutoTokenizer.from_pretrained("gpt2")\n');
      assert.deepEqual(codes(tok), []);
    });

    it('trainer YAML no reader takes: one training/not-read on the model; a YAML with a learning rate only is quiet', () => {
      const text = 'pretrained_model_name_or_path: Qwen/Qwen2.5-7B\nlearning_rate: 1e-5\nnum_epochs: 3\n';
      const a = analyze('finetune.yaml', text);
      assert.deepEqual(codes(a), ['training/not-read']);
      assert.equal(at(text, a.diagnostics[0]), 'Qwen/Qwen2.5-7B');
      assert.deepEqual(codes(analyze('app.yaml', 'name: app\nlearning_rate: 2\nreplicas: 3\n')), []);
    });

    it('an evaluation config (a model and a max_length, no training key) is not read as training, nor said', () => {
      const a = analyze('eval.yaml', 'model_name_or_path: meta-llama/Llama-2-7b-hf\nmax_length: 16384\nbatch_size: 4\ntasks: [mmlu]\n');
      assert.notEqual(a.kind, 'training-config');
      assert.deepEqual(codes(a), []);
    });

    it('a values.yaml or workflow with a run: key is no SkyPilot task', () => {
      assert.equal(readLaunchFile('steps:\n  - run: vllm serve x\nname: ci\n', 'ci.yaml', { shell }), undefined);
      assert.equal(readLaunchFile('replicaCount: 1\nimage:\n  repository: vllm/vllm-openai\n', 'values.yaml', { shell }), undefined);
    });
  });
});
