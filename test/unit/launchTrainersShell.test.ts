/**
 * Training launches read by the real launch adapters (shell on tree-sitter-bash, Dockerfile):
 * variables, continued lines and exec-form arrays as users write them.
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { readLaunchFile } from '../../shared/launch/index';
import type { ShellParser } from '../../shared/launch/types';
import { loadShellParser } from '../../shared/node/shellParser';
import { analyzeTrainerLaunches } from '../../shared/service/analyzeTrainerLaunch';
import { catalogResolver } from '../../shared/config/resolve';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';

const oracle = createSyncOracle();
let shell: ShellParser;
const analyze = (name: string, text: string) => {
  const file = readLaunchFile(text, name, { shell });
  assert.ok(file, `${name} reads as a launch file`);
  return analyzeTrainerLaunches(file, text, { fileName: `/work/project/${name}`, resolver: catalogResolver, oracle, variant: 'v5' });
};
const slice = (text: string, r: { start: { line: number; character: number }; end: { line: number; character: number } }) => {
  const lines = new LineIndex(text);
  return text.slice(lines.offsetAt(r.start), lines.offsetAt(r.end));
};

describe('training launches through the launch adapters', () => {
  before(async () => {
    shell = await loadShellParser();
  });

  it('a shell script with variables: the finding on $MAX_LEN, the fix continues the command', () => {
    const text = [
      '#!/bin/bash',
      'MODEL=Qwen/Qwen2.5-7B-Instruct',
      'MAX_LEN=131072',
      'CUDA_VISIBLE_DEVICES=0,1 \\',
      'NPROC_PER_NODE=2 \\',
      'swift sft \\',
      '    --model $MODEL \\',
      '    --train_type lora \\',
      '    --max_length $MAX_LEN \\',
      '    --output_dir output',
      '',
    ].join('\n');
    const r = analyze('train.sh', text);
    const d = r.diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    assert.equal(slice(text, d.range), '$MAX_LEN');
    assert.equal(r.launches[0].model, 'Qwen/Qwen2.5-7B-Instruct');
    const yarn = d.fixes.find((f) => f.kind === 'yarn')!;
    const out = applyTextEdits(text, new LineIndex(text), yarn.edits);
    assert.equal(
      out,
      text.replace(
        '--output_dir output',
        `--output_dir output \\\n    --rope_scaling '{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}'`,
      ),
    );
  });

  it('a base set through a variable is raised where the variable is assigned', () => {
    const text = [
      'THETA=1000000',
      'accelerate launch --num_processes 8 train.py \\',
      '  --model_name_or_path meta-llama/Llama-2-7b-hf \\',
      '  --seq-length 65536 \\',
      '  --rope-theta $THETA',
      '',
    ].join('\n');
    const d = analyze('run.sh', text).diagnostics.find((x) => x.code === 'rope/base-below-bound')!;
    assert.match(said(d), /[Rr]ead generically: train\.py's own argument names are not known to RoPE Lens/);
    const out = applyTextEdits(text, new LineIndex(text), d.fixes.find((f) => f.preferred)!.edits);
    assert.match(out, /^THETA=\d+\n/);
    assert.equal(out.replace(/^THETA=\d+/, 'THETA=1000000'), text);
  });

  it('a Dockerfile CMD (exec form) under a trainer image: judged, the fix adds JSON strings to the array', () => {
    const text = 'FROM modelscope/ms-swift:latest\nCMD ["swift", "sft", "--model", "Qwen/Qwen2.5-7B-Instruct", "--max_length", "131072"]\n';
    const d = analyze('Dockerfile', text).diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    assert.equal(slice(text, d.range), '"131072"');
    const linear = d.fixes.find((f) => f.kind === 'linear')!;
    const out = applyTextEdits(text, new LineIndex(text), linear.edits);
    assert.deepEqual(JSON.parse(out.split('\n')[1].slice(4)), [
      'swift',
      'sft',
      '--model',
      'Qwen/Qwen2.5-7B-Instruct',
      '--max_length',
      '131072',
      '--rope_scaling',
      '{"rope_type":"linear","factor":4.0}',
    ]);
  });
});
