/**
 * `rope-lens serve` on a model without RoPE (BAAI/bge-reranker-base, XLM-RoBERTa with learned absolute positions):
 * from its folder, and by its hub id from a Hugging Face cache snapshot (where it used to be "not found offline"),
 * it says there is no RoPE and the length vLLM derives from max_position_embeddings (vLLM's _get_and_verify_max_len:
 * the smallest of its length keys, nothing to scale).
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../../server/cli/io';
import { run as serve } from '../../server/cli/serve';

const FOLDER = join(__dirname, '..', 'fixtures', 'no-rope', 'bge-reranker-base');

async function serveSays(argv: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const io: CliIO = { out: (t) => (text += t), err: (t) => (text += t) };
  try {
    return { code: await serve(argv, io), text };
  } catch (e) {
    return { code: 2, text: text + String((e as Error).message) };
  }
}

describe('serve on a model without RoPE', () => {
  it('a local folder: no RoPE to serve, and vLLM derives 514 from max_position_embeddings', async () => {
    const r = await serveSays([FOLDER, '--engine', 'vllm']);
    assert.match(r.text, /has no rotary position embedding \(position_embedding_type "absolute"/);
    assert.match(r.text, /vLLM derives max_model_len 514 from max_position_embeddings/);
  });

  it('a hub id whose snapshot is in the Hugging Face cache: the same answer, not "not found offline"', async () => {
    const home = mkdtempSync(join(tmpdir(), 'rope-lens-hf-'));
    const saved = process.env.HF_HOME;
    try {
      const repo = join(home, 'hub', 'models--BAAI--bge-reranker-base');
      mkdirSync(join(repo, 'snapshots', 'c0ffee'), { recursive: true });
      mkdirSync(join(repo, 'refs'), { recursive: true });
      writeFileSync(join(repo, 'refs', 'main'), 'c0ffee\n');
      copyFileSync(join(FOLDER, 'config.json'), join(repo, 'snapshots', 'c0ffee', 'config.json'));
      process.env.HF_HOME = home;
      const r = await serveSays(['BAAI/bge-reranker-base', '--engine', 'vllm']);
      assert.doesNotMatch(r.text, /not.*found offline/);
      assert.match(r.text, /BAAI\/bge-reranker-base has no rotary position embedding/);
      assert.match(r.text, /vLLM derives max_model_len 514/);
    } finally {
      if (saved === undefined) delete process.env.HF_HOME;
      else process.env.HF_HOME = saved;
      rmSync(home, { recursive: true, force: true });
    }
  });
});
