import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufMetadata, isGgufFile } from '../../shared/node/readGguf';
import { ggufToConfig } from '../../shared/gguf/metadata';
import { analyzeGguf, GGUF_CONTEXT_BEYOND_TRAINED } from '../../shared/service/analyzeGguf';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { ggufHeader, writeGguf, qwen25InstructMetadata, llama31InstructMetadata, u32, f32, str, u64 } from '../gguf/writeGguf';

describe('GGUF header: read and judged like its config', function () {
  this.timeout(60000);
  let dir: string;
  const oracle = createSyncOracle();
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-gguf-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function analyze(name: string, kv: Parameters<typeof ggufHeader>[0], total?: number) {
    const p = join(dir, name);
    writeGguf(p, ggufHeader(kv), total);
    return analyzeGguf(await readGgufMetadata(p), { oracle });
  }

  it('Qwen2.5-7B-Instruct (published metadata): base, rotary dim, context, no scaling, no warning', async () => {
    const a = await analyze('qwen.gguf', qwen25InstructMetadata());
    assert.equal(a.kind, 'gguf');
    assert.equal(a.gguf.architecture, 'qwen2');
    assert.equal(a.gguf.hubRef, 'Qwen/Qwen2.5-7B-Instruct');
    assert.equal(a.rope!.base.value, 1000000);
    assert.equal(a.rope!.rotaryDim.value, 128); // 3584 / 28
    assert.equal(a.rope!.contextLength.value, 32768);
    assert.equal(a.rope!.scaling, undefined);
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
      [],
    );
  });

  it('context_length raised to 131,072 without scaling: a warning on that key with the YaRN flags', async () => {
    const kv = { ...qwen25InstructMetadata(), 'qwen2.context_length': u32(131072) };
    const a = await analyze('qwen-raised.gguf', kv);
    const w = a.diagnostics.find((d) => d.code === GGUF_CONTEXT_BEYOND_TRAINED);
    assert.ok(w, JSON.stringify(a.diagnostics));
    assert.equal(w!.severity, 'warning');
    assert.equal(w!.key, 'qwen2.context_length');
    assert.match(said(w!), /--rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768/);
  });

  it('names the user gave win over the fingerprint: general.name, then the file name without its quantization tag', async () => {
    const { 'general.organization': _o, 'general.basename': _b, 'general.finetune': _f, 'general.size_label': _s, ...rest } = qwen25InstructMetadata();
    const byName = await analyze('renamed.gguf', rest);
    assert.equal(byName.gguf.hubRef, null);
    assert.deepEqual(byName.rope!.identity, { id: 'Qwen/Qwen2.5-7B-Instruct', via: '_name_or_path' });
    assert.equal(byName.config!['_name_or_path'], undefined, "the reported config is the header's own");
    const { 'general.name': _n, ...anonymous } = rest;
    const p = join(dir, 'Qwen2.5-7B-Instruct-Q4_K_M.gguf');
    writeGguf(p, ggufHeader(anonymous));
    const byFile = analyzeGguf(await readGgufMetadata(p), { oracle, fileName: p });
    assert.deepEqual(byFile.rope!.identity, { id: 'Qwen/Qwen2.5-7B-Instruct', via: '_name_or_path' });
    // Without a name, the architecture and RoPE values alone still match (Qwen2-7B-Instruct and its
    // twins share them), but a derivative with its own rope_theta is no one's copy.
    const derived = analyzeGguf(await readGgufMetadata(p), { oracle, fileName: join(dir, 'my-finetune.gguf') });
    assert.equal(derived.rope!.identity?.via, 'fingerprint');
    const q = join(dir, 'my-long-finetune.gguf');
    writeGguf(q, ggufHeader({ ...anonymous, 'qwen2.rope.freq_base': f32(5000000) }));
    const own = analyzeGguf(await readGgufMetadata(q), { oracle, fileName: q });
    assert.equal(own.rope!.identity, null);
    assert.ok(
      own.rope!.derivativeOf?.differences.some((d) => d.startsWith('rope_theta 5,000,000')),
      JSON.stringify(own.rope!.derivativeOf),
    );
  });

  it('a YaRN GGUF converted without original_context_length gets the config rule, pointed at the scaling key', async () => {
    const kv = {
      ...qwen25InstructMetadata(),
      'qwen2.context_length': u32(131072),
      'qwen2.rope.scaling.type': str('yarn'),
      'qwen2.rope.scaling.factor': f32(4),
    };
    const a = await analyze('qwen-yarn-noorig.gguf', kv);
    const d = a.diagnostics.find((x) => x.code === 'rope/original-context-missing');
    assert.ok(d, JSON.stringify(a.diagnostics));
    assert.equal(d!.key, 'qwen2.rope.scaling.type');
    assert.ok(!a.diagnostics.some((x) => x.code === GGUF_CONTEXT_BEYOND_TRAINED), 'scaled: not the unscaled warning');
    const ok = await analyze('qwen-yarn.gguf', { ...kv, 'qwen2.rope.scaling.original_context_length': u32(32768) });
    assert.ok(!ok.diagnostics.some((x) => x.code === 'rope/original-context-missing'));
    assert.equal(ok.rope!.originalContextLength!.value, 32768);
  });

  it('a base below the bound at a training-length context is found as for a config', async () => {
    // A pretraining-style header: base 10,000 at 32k (b* for 32k is far above 10,000).
    const kv = {
      'general.architecture': str('llama'),
      'llama.context_length': u32(32768),
      'llama.embedding_length': u32(4096),
      'llama.attention.head_count': u32(32),
      'llama.rope.freq_base': f32(10000),
    };
    const a = await analyze('low-base.gguf', kv);
    const d = a.diagnostics.find((x) => x.code === 'rope/base-below-bound');
    assert.ok(d, JSON.stringify(a.diagnostics));
    assert.equal(d!.key, 'llama.rope.freq_base');
  });

  it('Llama-3.1 (published metadata): 131,072 context, rotary dim from rope.dimension_count', async () => {
    const a = await analyze('llama.gguf', llama31InstructMetadata());
    assert.equal(a.rope!.contextLength.value, 131072);
    assert.equal(a.rope!.rotaryDim.value, 128);
    assert.equal(a.rope!.base.value, 500000);
  });

  it('uint64 values, partial rotary dims and MLA are mapped', () => {
    const c = ggufToConfig({
      'general.architecture': 'phi2',
      'phi2.context_length': 2048n,
      'phi2.embedding_length': 2560,
      'phi2.attention.head_count': 32,
      'phi2.rope.dimension_count': 32,
    });
    assert.equal(c!.config['max_position_embeddings'], 2048);
    assert.equal(c!.config['head_dim'], 80);
    assert.equal(c!.config['rotary_dim'], 32);
    const ds = ggufToConfig({
      'general.architecture': 'deepseek2',
      'deepseek2.rope.dimension_count': 64,
      'deepseek2.rope.scaling.type': 'yarn',
      'deepseek2.rope.scaling.factor': 40,
      'deepseek2.rope.scaling.original_context_length': 4096,
    });
    assert.equal(ds!.config['qk_rope_head_dim'], 64);
    assert.deepEqual(ds!.config['rope_scaling'], { rope_type: 'yarn', factor: 40, original_max_position_embeddings: 4096 });
    assert.equal(ggufToConfig({ 'tokenizer.ggml.model': 'gpt2' }), undefined);
  });

  it('a 4 GiB file (tensor data never written: sparse) is answered from its header alone', async () => {
    const p = join(dir, 'big.gguf');
    const header = ggufHeader(qwen25InstructMetadata(), [{ name: 'token_embd.weight', dims: [3584, 152064], ggmlType: 0, offset: 0n }]);
    const size = 4 * 1024 ** 3;
    writeGguf(p, header, size);
    const st = statSync(p);
    assert.equal(st.size, size);
    const m = await readGgufMetadata(p);
    assert.equal(m['qwen2.context_length'], 32768);
    assert.equal(m['tensor_count'], 1n);
    // Where the filesystem keeps holes, the file occupies about its header: nothing past it was ever read or written.
    if (st.blocks !== undefined && st.blocks > 0) assert.ok(st.blocks * 512 < 16 * 1024 * 1024, `allocated ${st.blocks * 512}`);
  });

  it('magic and version are checked; a non-GGUF file is refused with a message', async () => {
    const p = join(dir, 'bad.gguf');
    writeGguf(p, ggufHeader(qwen25InstructMetadata(), [], { magic: 'GGUX' }));
    assert.equal(isGgufFile(p), false);
    await assert.rejects(readGgufMetadata(p), /not a readable GGUF file: .*magic/);
    const good = join(dir, 'good.gguf');
    writeGguf(good, ggufHeader({ 'general.architecture': str('llama'), 'llama.context_length': u64(4096n) }));
    assert.equal(isGgufFile(good), true);
    assert.equal((await readGgufMetadata(good))['llama.context_length'], 4096n);
  });
});
