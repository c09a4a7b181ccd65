/**
 * A fix edits only the command it is for: a value that came through a variable is changed where the
 * variable is assigned only when no other command reads it; a shared variable is left alone and the
 * use is edited instead (serving and training launchers alike, through the real shell grammar).
 */
import { strict as assert } from 'node:assert';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { ShellParser } from '../../shared/launch/types';
import { shellParser } from './helpers/launch';

describe('launch fixes and shared variables', () => {
  let shell: ShellParser;
  before(async () => {
    shell = await shellParser();
  });
  const analyze = (text: string) =>
    createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver, shellParser: () => shell }).analyze(text, { fileName: '/ws/serve.sh' });
  const fixesOf = (text: string, code: string) => analyze(text).diagnostics.find((d) => d.code === code)?.fixes ?? [];
  const apply = (text: string, edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]) =>
    applyTextEdits(text, new LineIndex(text), edits);

  it('a length used by two commands: the fix edits the llama-server use, not CTX=', () => {
    const text =
      'CTX=$(( 128 * 1024 ))\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len "$CTX" --hf-overrides \'{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}\'\nllama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c "$CTX"\n';
    const lower = fixesOf(text, 'launch/length-exceeds-derived').find((f) => /^Set -c to/.test(f.title));
    assert.ok(lower, 'a fix that lowers -c');
    const out = apply(text, lower!.edits);
    const [a, b, c] = out.split('\n');
    assert.equal(a, 'CTX=$(( 128 * 1024 ))', 'the assignment vLLM also reads is untouched');
    assert.equal(b, text.split('\n')[1], 'the vLLM command is untouched');
    assert.match(c, /-c "?32768"?$/);
  });

  it('a length only one command reads: the fix edits the assignment, where the user wrote it', () => {
    const text = 'LEN=131072\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len "$LEN"\n';
    const lower = fixesOf(text, 'vllm/max-model-len-exceeds').find((f) => /max-model-len to 32768/.test(f.title));
    assert.ok(lower, JSON.stringify(fixesOf(text, 'vllm/max-model-len-exceeds').map((f) => f.title)));
    assert.equal(apply(text, lower!.edits), 'LEN=32768\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len "$LEN"\n');
  });
});
