/**
 * Training launches on the command line (shared/service/analyzeTrainerLaunch.ts): each trainer's
 * grammar, the judgement shared with training YAML, and fixes as token edits that leave the rest
 * of the file byte-identical. Commands are modelled on public launch scripts (ms-swift examples,
 * LLaMA-Factory shell scripts, Megatron model-argument arrays, torchtune docs).
 */
import { strict as assert } from 'node:assert';
import { analyzeTrainerLaunches, TRAINER_OPTION_IGNORED, TRAINER_OPTION_REFUSED } from '../../shared/service/analyzeTrainerLaunch';
import { catalogResolver } from '../../shared/config/resolve';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { Finding, Fix } from '../../shared/core/findings';
import type { Invocation, LaunchFile, Token } from '../../shared/launch/types';
import { launchFileOf } from './helpers/trainerInvocation';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();
const run = (text: string, file: LaunchFile = launchFileOf(text)) =>
  analyzeTrainerLaunches(file, text, { fileName: '/work/project/train.sh', resolver: catalogResolver, oracle, variant: 'v5' });
const codes = (text: string) =>
  run(text)
    .diagnostics.map((d) => d.code)
    .sort();
const only = (text: string, code: string): Finding => {
  const ds = run(text).diagnostics.filter((d) => d.code === code);
  assert.equal(ds.length, 1, `one ${code} in ${JSON.stringify(run(text).diagnostics.map((d) => d.code))}`);
  return ds[0];
};
const apply = (text: string, fix: Fix) => applyTextEdits(text, new LineIndex(text), fix.edits);
/** The characters of `text` covered by a range. */
const at = (text: string, f: Finding) => {
  const lines = new LineIndex(text);
  return text.slice(lines.offsetAt(f.range.start), lines.offsetAt(f.range.end));
};
const READ_GENERICALLY = /read generically: (\S+)'s own argument names are not known to RoPE Lens/i;

describe('training launches: ms-swift', () => {
  const SFT = [
    'CUDA_VISIBLE_DEVICES=0 \\',
    'swift sft \\',
    '    --model Qwen/Qwen2.5-7B-Instruct \\',
    '    --train_type lora \\',
    "    --dataset 'swift/self-cognition#1000' \\",
    '    --max_length 131072 \\',
    '    --output_dir output',
    '',
  ].join('\n');

  it('Qwen2.5-7B-Instruct (trained at 32,768) at --max_length 131072 without --rope_scaling: a warning on 131072', () => {
    const d = only(SFT, 'training/context-exceeded');
    assert.equal(d.severity, 'warning');
    assert.equal(at(SFT, d), '131072');
    assert.match(said(d), /Training at 131,072 tokens extrapolates positions past 32,768: no RoPE scaling is set\. 32,768 is the model's context/);
    const launch = run(SFT).launches[0];
    assert.deepEqual(
      [launch.program, launch.role, launch.model, launch.requestedLength, launch.lengthOption, launch.trainedContext],
      ['swift', 'training', 'Qwen/Qwen2.5-7B-Instruct', 131072, '--max_length', 32768],
    );
    assert.equal(launch.resolvedFrom, 'catalog:Qwen/Qwen2.5-7B-Instruct');
  });

  it("the fix appends ms-swift's --rope_scaling (a JSON object) on a new continued line; the rest stays byte-identical", () => {
    const d = only(SFT, 'training/context-exceeded');
    const yarn = d.fixes.find((f) => f.kind === 'yarn')!;
    assert.ok(yarn, d.fixes.map((f) => f.title).join('; '));
    const out = apply(SFT, yarn);
    const added = ` \\\n    --rope_scaling '{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}'`;
    assert.equal(out, SFT.replace('--output_dir output', `--output_dir output${added}`));
    assert.ok(d.fixes.some((f) => f.preferred));
    // Applied, the launch no longer trains past what the model covers.
    assert.deepEqual(
      run(out).diagnostics.filter((x) => x.code === 'training/context-exceeded'),
      [],
    );
  });

  it('right launches get nothing: within the trained context, or scaled to the length', () => {
    assert.deepEqual(codes('swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --max_length 8192'), []);
    assert.deepEqual(codes('swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 131072 --rope_scaling yarn --max_model_len 131072'), []);
    assert.deepEqual(
      codes(
        `swift sft --model Qwen/Qwen2.5-7B-Instruct --max-length=131072 --rope_scaling '{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}'`,
      ),
      [],
    );
  });

  it("--max_length absent: ms-swift trains at the model's own length, so nothing is judged", () => {
    const r = run('swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora');
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.launches[0].requestedLength, null);
    assert.ok(r.launches[0].notes.some((n) => /max_length absent/.test(n)));
  });

  it("a type name without --max_model_len: ms-swift refuses (its assertion quoted), on the name's token", () => {
    const text = 'swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 131072 --rope_scaling yarn';
    const d = only(text, TRAINER_OPTION_REFUSED);
    assert.equal(d.severity, 'error');
    assert.equal(at(text, d), 'yarn');
    assert.match(said(d), /max_model_len must be set if rope_scaling does not contain a/);
  });

  it('a JSON scaling whose factor does not reach --max_length: the same warning as YAML', () => {
    const text = `swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 131072 --rope_scaling '{"rope_type":"yarn","factor":2.0,"original_max_position_embeddings":32768}'`;
    const d = only(text, 'training/context-exceeded');
    assert.match(said(d), /It covers 65,536 tokens \(original 32,768 × yarn factor 2/);
  });

  it('dynamic while training: warning; the fix replaces the name with a static YaRN object in place', () => {
    const text = 'swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 65536 --rope_scaling dynamic --max_model_len 65536 --output_dir out';
    const d = only(text, 'training/dynamic-scaling');
    assert.equal(at(text, d), 'dynamic');
    const out = apply(text, d.fixes[0]);
    assert.equal(out, text.replace('dynamic', `'{"rope_type":"yarn","factor":2.0,"original_max_position_embeddings":32768}'`));
  });

  it("scaling stacked on Llama-3.1's own llama3 scaling: warning; the fix removes the option and nothing else", () => {
    const text = 'swift sft --model meta-llama/Llama-3.1-8B --max_length 65536 --rope_scaling linear --max_model_len 65536';
    const d = only(text, 'training/stacked-scaling');
    assert.equal(at(text, d), 'linear');
    assert.equal(apply(text, d.fixes[0]), 'swift sft --model meta-llama/Llama-3.1-8B --max_length 65536 --max_model_len 65536');
  });

  it('ms-swift 2.x spellings (--model_id_or_path): its choices are linear and dynamic, and no JSON fix is offered', () => {
    const text = 'swift sft --model_type qwen2-7b-instruct --model_id_or_path Qwen/Qwen2-7B-Instruct --max_length 65536 --rope_scaling ntk';
    const r = run(text);
    assert.match(said(r.diagnostics.find((d) => d.code === TRAINER_OPTION_REFUSED)!), /2\.x accepts --rope_scaling linear or dynamic/);
    const plain = run('swift sft --model_id_or_path Qwen/Qwen2-7B-Instruct --max_length 65536');
    const d = plain.diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    assert.deepEqual(d.fixes, []);
    assert.match(said(d), /ms-swift 2\.x's --rope_scaling takes only linear or dynamic/);
  });

  it('a model that is not found offline: one information finding on its token, no numbers invented', () => {
    const text = 'swift sft --model my-org/private-7b --max_length 131072';
    const r = run(text);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity, at(text, d)]),
      [['training/base-model-unresolved', 'information', 'my-org/private-7b']],
    );
    assert.equal(r.launches[0].trainedContext, null);
  });
});

describe('training launches: LLaMA-Factory', () => {
  it('a YAML then key=value overrides (OmegaConf.from_cli): judged on the overrides, fix appends rope_scaling=…', () => {
    const text = 'llamafactory-cli train examples/train_lora/llama3_lora_sft.yaml model_name_or_path=meta-llama/Meta-Llama-3-8B cutoff_len=32768\n';
    const d = only(text, 'training/context-exceeded');
    assert.equal(at(text, d), '32768'); // the value part of `cutoff_len=32768`
    const names = d.fixes.map((f) => apply(text, f).slice(text.trimEnd().length).trim());
    assert.deepEqual(names.sort(), ['rope_scaling=linear', 'rope_scaling=llama3', 'rope_scaling=yarn']);
    assert.ok(apply(text, d.fixes[0]).startsWith(text.trimEnd()));
    const launch = run(text).launches[0];
    assert.equal(launch.model, 'meta-llama/Meta-Llama-3-8B');
    assert.ok(launch.notes.some((n) => /llama3_lora_sft\.yaml is judged on its own when opened; this command's key=value overrides it/.test(n)));
  });

  it('a YAML alone: nothing to judge on the command (the YAML is judged when opened)', () => {
    const r = run('FORCE_TORCHRUN=1 llamafactory-cli train examples/train_full/llama3_full_sft.yaml');
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.launches[0].program, 'llamafactory');
  });

  it('--key value (HfArgumentParser), a multi-line script: the fix adds --rope_scaling on its own continued line', () => {
    const text = [
      'CUDA_VISIBLE_DEVICES=0 llamafactory-cli train \\',
      '    --stage sft \\',
      '    --do_train \\',
      '    --model_name_or_path meta-llama/Meta-Llama-3-8B \\',
      '    --finetuning_type lora \\',
      '    --template llama3 \\',
      '    --cutoff_len 32768 \\',
      '    --output_dir saves/llama3-8b',
      '',
    ].join('\n');
    const d = only(text, 'training/context-exceeded');
    assert.equal(at(text, d), '32768');
    const yarn = d.fixes.find((f) => f.kind === 'yarn')!;
    assert.equal(apply(text, yarn), text.replace('saves/llama3-8b', 'saves/llama3-8b \\\n    --rope_scaling yarn'));
    // The scaling LLaMA-Factory writes fails on transformers 5.x, which a fresh install gets: said as a warning.
    assert.deepEqual(
      run(apply(text, yarn)).diagnostics.map((x) => x.code),
      ['llama-factory/derived-factor', 'llama-factory/fails-on-transformers-5'],
    );
  });

  it('rope_scaling by name with cutoff_len within the context: LLaMA-Factory turns it off; the fix removes the option', () => {
    const text = 'lmf train --stage sft --do_train True --model_name_or_path meta-llama/Meta-Llama-3-8B --cutoff_len=4096 --rope_scaling linear --output_dir o';
    const d = only(text, 'llama-factory/scaling-ignored');
    assert.equal(apply(text, d.fixes[0]), text.replace(' --rope_scaling linear', ''));
    // `--cutoff_len=4096`: the value part is what the finding's length points at.
    assert.equal(run(text).launches[0].requestedLength, 4096);
  });
});

describe("training launches: LLaMA-Factory, an option in the other parser's form", () => {
  it('after a YAML, --cutoff_len 32768 is refused (OmegaConf makes it keys of its own); the fix writes cutoff_len=32768', () => {
    const text = 'llamafactory-cli train cfg.yaml --cutoff_len 32768 rope_scaling=yarn';
    const d = only(text, TRAINER_OPTION_REFUSED);
    assert.equal(at(text, d), '--cutoff_len 32768');
    assert.equal(apply(text, d.fixes[0]), 'llamafactory-cli train cfg.yaml cutoff_len=32768 rope_scaling=yarn');
  });

  it('without a YAML, a bare cutoff_len=32768 is refused by HfArgumentParser; the fix writes --cutoff_len 32768', () => {
    const text = 'llamafactory-cli train --stage sft --model_name_or_path meta-llama/Meta-Llama-3-8B cutoff_len=32768';
    const d = only(text, TRAINER_OPTION_REFUSED);
    assert.equal(apply(text, d.fixes[0]), text.replace('cutoff_len=32768', '--cutoff_len 32768'));
    // Once fixed, the length is read and judged.
    assert.deepEqual(codes(apply(text, d.fixes[0])), ['training/context-exceeded']);
  });
});

describe('training launches: layout', () => {
  it('a CRLF script: the appended option continues the command with CRLF and the same indentation', () => {
    const text = 'swift sft \\\r\n  --model Qwen/Qwen2.5-7B-Instruct \\\r\n  --max_length 131072\r\necho done\r\n';
    const d = only(text, 'training/context-exceeded');
    const out = apply(text, d.fixes.find((f) => f.kind === 'linear')!);
    assert.equal(out, text.replace('131072\r\n', `131072 \\\r\n  --rope_scaling '{"rope_type":"linear","factor":4.0}'\r\n`));
  });
});

describe('training launches: axolotl', () => {
  it('axolotl train cfg.yml --sequence-len: judged; fixes belong in the YAML, and the finding says so', () => {
    const text = 'axolotl train examples/llama-2/lora.yml --base-model meta-llama/Llama-2-7b-hf --sequence-len 16384';
    const d = only(text, 'training/context-exceeded');
    assert.equal(at(text, d), '16384');
    assert.deepEqual(d.fixes, []);
    assert.match(said(d), /go under overrides_of_model_config in examples\/llama-2\/lora\.yml/);
  });

  it('axolotl train with an underscore spelling: click never applies it; the fix writes the hyphenated option', () => {
    const text = 'axolotl train cfg.yml --sequence_len 16384';
    const d = only(text, TRAINER_OPTION_IGNORED);
    assert.equal(at(text, d), '--sequence_len');
    assert.equal(apply(text, d.fixes[0]), 'axolotl train cfg.yml --sequence-len 16384');
  });

  it('accelerate launch -m axolotl.cli.train (fire): both spellings, --k=v included, are overrides', () => {
    const text = 'accelerate launch --num_processes 2 -m axolotl.cli.train cfg.yml --base_model=NousResearch/Llama-2-7b-hf --sequence_len=16384';
    const d = only(text, 'training/context-exceeded');
    assert.equal(at(text, d), '16384');
    assert.equal(run(text).launches[0].program, 'axolotl');
    assert.deepEqual(codes('python -m axolotl.cli.train cfg.yml --base_model meta-llama/Llama-2-7b-hf --sequence_len 4096'), []);
  });
});

describe('training launches: torchtune', () => {
  it('tune run with overrides: the builder names the model, tokenizer.max_seq_len the length', () => {
    const text =
      'tune run --nproc_per_node 2 lora_finetune_distributed --config ./llama2_lora.yaml model=torchtune.models.llama2.lora_llama2_7b tokenizer.max_seq_len=16384';
    // lora_llama2_7b fixes max_seq_len at 4,096: torchtune raises ValueError beyond it rather than extrapolating.
    const d = only(text, 'torchtune/beyond-max-seq-len');
    assert.equal(d.severity, 'error');
    assert.equal(at(text, d), '16384');
    assert.match(said(d), /should be smaller than max_seq_len/);
    assert.equal(d.fixes[0].title, 'Set tokenizer.max_seq_len to 4096');
    assert.equal(run(text).launches[0].resolvedFrom, 'catalog:meta-llama/Llama-2-7b-hf');
  });

  it('a built-in config name without a model override: nothing is guessed', () => {
    const r = run('tune run lora_finetune_single_device --config llama3_1/8B_lora_single_device tokenizer.max_seq_len=65536');
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.launches[0].requestedLength, 65536);
  });
});

describe('training launches: train scripts read generically', () => {
  it('accelerate launch train.py --seq-length 262144 --rope-theta 5000000 over Llama-2 (4k): the base bound, said to be read generically', () => {
    const text =
      'accelerate launch --config_file configs/fsdp.yaml --num_processes 8 train.py --model_name_or_path meta-llama/Llama-2-7b-hf --seq-length 262144 --rope-theta 5000000 --bf16';
    const r = run(text);
    assert.ok(r.diagnostics.length > 0);
    for (const d of r.diagnostics) assert.match(said(d), READ_GENERICALLY);
    const d = only(text, 'rope/base-below-bound');
    assert.equal(d.severity, 'warning');
    assert.equal(at(text, d), '5000000');
    assert.match(said(d), /judged over the training length 262,144/);
    const raise = d.fixes.find((f) => f.preferred)!;
    const out = apply(text, raise);
    assert.match(out, /--rope-theta \d+ --bf16$/);
    assert.equal(out.replace(/--rope-theta \d+/, '--rope-theta 5000000'), text);
    assert.equal(r.launches[0].program, 'generic-trainer');
  });

  it('deepspeed launcher options are skipped to find the script; an unknown script gets no new flags, only the finding', () => {
    const text =
      'deepspeed --include localhost:0,1 --master_port 29501 train.py --deepspeed ds_z3.json --model_name_or_path meta-llama/Llama-2-7b-hf --model_max_length 16384';
    const d = only(text, 'training/context-exceeded');
    assert.equal(at(text, d), '16384');
    assert.deepEqual(d.fixes, []);
    assert.match(said(d), READ_GENERICALLY);
  });

  it('Megatron-LM pretraining (model defined by flags): its base judged at --seq-length, the value replaced in place', () => {
    const text = [
      'torchrun --nproc_per_node 8 pretrain_gpt.py \\',
      '    --num-layers 32 \\',
      '    --hidden-size 4096 \\',
      '    --num-attention-heads 32 \\',
      '    --seq-length 32768 \\',
      '    --max-position-embeddings 32768 \\',
      '    --position-embedding-type rope \\',
      '    --rotary-base 10000 \\',
      '    --bf16',
      '',
    ].join('\n');
    const d = only(text, 'rope/base-below-bound');
    assert.equal(at(text, d), '10000');
    assert.match(said(d), READ_GENERICALLY);
    const out = apply(text, d.fixes[0]);
    assert.match(out, /--rotary-base \d+ \\\n/);
    assert.equal(out.replace(/--rotary-base \d+/, '--rotary-base 10000'), text);
  });

  it('Megatron without --rotary-base: the raised base is appended as an integer (--rotary-base is type=int)', () => {
    const text =
      'torchrun pretrain_gpt.py --num-layers 24 --hidden-size 2048 --num-attention-heads 16 --seq-length 32768 --max-position-embeddings 32768 --position-embedding-type rope';
    const d = only(text, 'rope/base-below-bound');
    const out = apply(text, d.fixes[0]);
    assert.match(out.slice(text.length), /^ --rotary-base \d+$/);
  });

  it('Megatron with learned absolute positions (its default) and right launches: nothing', () => {
    assert.deepEqual(
      codes('torchrun pretrain_gpt.py --num-layers 2 --hidden-size 1024 --num-attention-heads 8 --seq-length 8192 --max-position-embeddings 8192'),
      [],
    );
    assert.deepEqual(codes('python train.py --model Qwen/Qwen2.5-7B --max_seq_length 8192'), []);
  });
});

describe('training launches: what is not a training launch', () => {
  it('servers, installs, inline code and other tools are not read', () => {
    const text = 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072\npip install -e .\npython -c "print(1)"\nllamafactory-cli chat cfg.yaml\n';
    const r = run(text);
    assert.deepEqual(r.launches, []);
    assert.deepEqual(r.diagnostics, []);
  });

  it('a train script that names its Hugging Face model and leaves the length to its defaults is a training launch; --model alone is not enough', () => {
    const r = run('torchrun --nproc_per_node=8 train.py \\\n    --model_name_or_path meta-llama/Llama-2-7b-hf \\\n    --output_dir out\n');
    assert.deepEqual(
      r.launches.map((l) => [l.program, l.model, l.requestedLength]),
      [['generic-trainer', 'meta-llama/Llama-2-7b-hf', null]],
    );
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity !== 'information'),
      [],
    );
    assert.deepEqual(run('python train.py --model resnet50 --epochs 90').launches, []);
    assert.deepEqual(run('python evaluate.py --model_name_or_path meta-llama/Llama-2-7b-hf').launches, []);
  });

  it('an evaluation run is not a training run, even with a length and a model (lm_eval under accelerate)', () => {
    assert.deepEqual(run('accelerate launch -m lm_eval --model hf --model_args pretrained=meta-llama/Llama-2-7b-hf --max_length 16384').launches, []);
  });

  it("LLaMA-Factory's own src/train.py under torchrun is read in its grammar (--cutoff_len), not generically", () => {
    const text =
      'torchrun --nproc_per_node 8 src/train.py --stage sft --do_train --model_name_or_path meta-llama/Meta-Llama-3-8B --finetuning_type lora --cutoff_len 32768';
    const r = run(text);
    assert.equal(r.launches[0].program, 'llamafactory');
    const d = only(text, 'training/context-exceeded');
    assert.doesNotMatch(said(d), READ_GENERICALLY);
    assert.ok(d.fixes.some((f) => apply(text, f) === `${text} --rope_scaling yarn`));
  });

  it('several launches in one script: each is described, in order', () => {
    const text = 'swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length 8192\naxolotl train cfg.yml\n';
    assert.deepEqual(
      run(text).launches.map((l) => l.program),
      ['swift', 'axolotl'],
    );
  });
});

describe('training launches: fixes in an exec-form array (Dockerfile CMD)', () => {
  it("a new option is appended as JSON strings with the array's separator", () => {
    const text = 'FROM modelscope/ms-swift\nCMD ["swift", "sft", "--model", "Qwen/Qwen2.5-7B-Instruct", "--max_length", "131072"]\n';
    const lines = new LineIndex(text);
    const argv: Token[] = [];
    for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
      argv.push({
        value: JSON.parse(m[0]),
        raw: m[0],
        offset: m.index!,
        length: m[0].length,
        range: lines.rangeOf(m.index!, m[0].length),
        quote: 'double',
        known: true,
      });
    }
    const last = argv[argv.length - 1];
    const end = last.offset + last.length;
    const inv: Invocation = {
      argv,
      entrypoint: 'program',
      env: {},
      source: 'dockerfile',
      offset: argv[0].offset,
      length: end - argv[0].offset,
      range: lines.rangeOf(argv[0].offset, end - argv[0].offset),
      notes: [],
      append: { offset: end, range: lines.rangeOf(end, 0), separator: ', ', form: 'json-array' },
    };
    const d = run(text, { format: 'dockerfile', invocations: [inv], problems: [] }).diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    const linear = d.fixes.find((f) => f.kind === 'linear')!;
    assert.equal(apply(text, linear), text.replace('"131072"]', '"131072", "--rope_scaling", "{\\"rope_type\\":\\"linear\\",\\"factor\\":4.0}"]'));
  });
});
