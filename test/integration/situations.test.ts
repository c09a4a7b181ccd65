/**
 * The situations of issue 40 (advice.md situations 1, 4 and 5), through the built CLI on real public
 * files or faithful minimal edits of them (sources in test/fixtures/situations/README.md):
 *  - Llama-3.1-8B raised to 262,144 with its llama3 ×8 kept (which covers 131,072) warns, in its
 *    config and through engine overrides (a script, a vLLM YAML, a Kubernetes Deployment, SGLang),
 *    with the llama3 scaling re-sized (×32 over 8,192) first among the fixes;
 *  - a model without RoPE (Kimi-Linear's `mla_use_nope: true`) gets no base finding;
 *  - a from-scratch base of 1,000,000 at 32,768 (above b*, inside an invalid island) gets nothing
 *    above information and is never worded "below the bound".
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const fixtures = join(root, 'test/fixtures');

interface Diagnostic {
  code: string;
  severity: string;
  message: string;
  detail?: string;
  fixes: { title: string; preferred?: boolean; edits: { newText: string }[] }[];
}
interface FileResult {
  path: string;
  rope: unknown;
  noRope?: string;
  diagnostics: Diagnostic[];
}

function check(...paths: string[]): FileResult[] {
  const r = spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', '--format', 'json', ...paths], { cwd: root, encoding: 'utf8' });
  assert.ok(r.stdout, r.stderr);
  return (JSON.parse(r.stdout) as { files: FileResult[] }).files;
}

const SEVERITY = ['hint', 'information', 'warning', 'error'];

describe('situations (issue 40, built CLI)', function () {
  this.timeout(120000);
  let dir: string;
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-situations-'));
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  /** Llama-3.1-8B-Instruct's shipped config.json with only max_position_embeddings raised. */
  function raisedLlama31(context: number): string {
    const shipped = readFileSync(join(fixtures, 'corpus/models/meta-llama-3.1-8b-instruct.json'), 'utf8');
    assert.match(shipped, /"max_position_embeddings": 131072/);
    const f = join(dir, `llama-3.1-8b-${context}`, 'config.json');
    spawnSync('mkdir', ['-p', join(dir, `llama-3.1-8b-${context}`)]);
    writeFileSync(f, shipped.replace('"max_position_embeddings": 131072', `"max_position_embeddings": ${context}`));
    return f;
  }

  it('Llama-3.1-8B config at 262,144 with llama3 ×8 kept warns, llama3 re-sized to ×32 over 8,192 first', () => {
    const [file] = check(raisedLlama31(262144));
    const f = file.diagnostics.find((d) => d.code === 'rope/context-extended');
    assert.ok(f, JSON.stringify(file.diagnostics.map((d) => d.message)));
    assert.equal(f!.severity, 'warning');
    assert.match(f!.message, /past 131,072 tokens are extrapolated: the llama3 ×8 scaling covers 131,072, not 262,144/);
    assert.match(f!.fixes[0].title, /llama3 scaling: factor 8 → 32 over original_max_position_embeddings 8,192, covers 262,144/);
    assert.equal(f!.fixes[0].preferred, true);
    assert.deepEqual(
      f!.fixes[0].edits.map((e) => e.newText),
      ['32.0'],
    );
    assert.ok(
      f!.fixes.some((x) => /back to 131072/.test(x.title)),
      'the context set back is offered too',
    );
  });

  it('the same config at the 131,072 it ships for, or re-sized to llama3 ×32, is quiet', () => {
    const [stock] = check(raisedLlama31(131072));
    assert.deepEqual(
      stock.diagnostics.filter((d) => SEVERITY.indexOf(d.severity) >= 2),
      [],
    );
    const resized = raisedLlama31(262144);
    writeFileSync(resized, readFileSync(resized, 'utf8').replace('"factor": 8.0', '"factor": 32.0'));
    const [file] = check(resized);
    assert.equal(
      file.diagnostics.find((d) => d.code === 'rope/context-extended'),
      undefined,
      JSON.stringify(file.diagnostics),
    );
  });

  it('vllm serve --hf-overrides raising max_position_embeddings to 262,144 warns, with or without --max-model-len', () => {
    const script = join(dir, 'serve.sh');
    const override = `--hf-overrides '{"max_position_embeddings": 262144}'`;
    writeFileSync(
      script,
      `#!/bin/bash\nvllm serve meta-llama/Llama-3.1-8B-Instruct ${override}\nvllm serve meta-llama/Llama-3.1-8B-Instruct ${override} --max-model-len 262144\n`,
    );
    const [file] = check(script);
    const warned = file.diagnostics.filter((d) => d.code === 'vllm/context-beyond-trained' && d.severity === 'warning');
    assert.equal(warned.length, 2, JSON.stringify(file.diagnostics.map((d) => d.message)));
    for (const w of warned) {
      assert.match(w.message, /Positions past 131,072 were never trained/);
      // The model's own scaling re-sized, as an override: the preferred fix.
      const first = w.fixes[0];
      assert.match(first.title, /Re-size the llama3 scaling in hf-overrides: factor 8 → 32/);
      assert.equal(first.preferred, true);
      assert.match(first.edits[0].newText, /"rope_scaling":\{[^}]*"factor":32(\.0)?[^}]*"original_max_position_embeddings":8192/);
      assert.match(first.edits[0].newText, /"max_position_embeddings":262144/);
    }
  });

  it('the same launch as a vLLM YAML config, a Kubernetes Deployment and an SGLang command warns', () => {
    const yaml = join(dir, 'vllm-config.yaml');
    writeFileSync(yaml, 'model: meta-llama/Llama-3.1-8B-Instruct\nhf-overrides:\n  max_position_embeddings: 262144\nmax-model-len: 262144\n');
    const k8s = join(dir, 'deployment.yaml');
    writeFileSync(
      k8s,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: llama',
        'spec:',
        '  template:',
        '    spec:',
        '      containers:',
        '        - name: vllm',
        '          image: vllm/vllm-openai:latest',
        '          args:',
        '            - "--model"',
        '            - "meta-llama/Llama-3.1-8B-Instruct"',
        '            - "--hf-overrides"',
        `            - '{"max_position_embeddings": 262144}'`,
        '            - "--max-model-len"',
        '            - "262144"',
        '',
      ].join('\n'),
    );
    const sglang = join(dir, 'sglang.sh');
    writeFileSync(
      sglang,
      `python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --json-model-override-args '{"max_position_embeddings": 262144}' --context-length 262144\n`,
    );
    for (const file of check(yaml, k8s, sglang)) {
      const w = file.diagnostics.find((d) => d.severity === 'warning' && /past 131,072/.test(d.message));
      assert.ok(w, `${file.path}: ${JSON.stringify(file.diagnostics.map((d) => d.message))}`);
      // Each writes the model's llama3 block re-sized to ×32 where that file keeps its overrides.
      assert.match(w!.fixes[0]?.title ?? '', /Re-size the llama3 scaling in (hf-overrides|json-model-override-args): factor 8 → 32/, file.path);
      assert.equal(w!.fixes[0].preferred, true);
    }
  });

  it('a model without RoPE (Kimi-Linear, mla_use_nope: true) gets no base and no base finding', () => {
    const [file] = check(join(fixtures, 'situations/kimi-linear-48b-a3b-instruct.json'));
    assert.equal(file.rope, null);
    assert.match(file.noRope ?? '', /mla_use_nope: true/);
    assert.deepEqual(
      file.diagnostics.filter((d) => d.code.startsWith('rope/')),
      [],
    );
  });

  it('a remote-code architecture whose config carries no RoPE key gets no invented default base', () => {
    const f = join(dir, 'remote', 'config.json');
    spawnSync('mkdir', ['-p', join(dir, 'remote')]);
    // Constructed: an auto_map model type neither transformers nor the catalog knows, no rotary key.
    writeFileSync(
      f,
      JSON.stringify(
        {
          architectures: ['AcmeForCausalLM'],
          auto_map: { AutoConfig: 'configuration_acme.AcmeConfig' },
          model_type: 'acme_lm',
          hidden_size: 2048,
          num_attention_heads: 16,
          max_position_embeddings: 65536,
        },
        null,
        2,
      ),
    );
    const [file] = check(f);
    assert.equal(file.rope, null);
    assert.match(file.noRope ?? '', /remote code/);
    assert.equal(
      file.diagnostics.find((d) => d.code === 'rope/base-below-bound'),
      undefined,
    );
  });

  it('a speculative-decoding draft head (SpecForge DFlash, EAGLE-3) is judged as a base chosen, never "as trained"', () => {
    const [dflash, eagle] = check(join(fixtures, 'situations/specforge-qwen3-8b-dflash.json'), join(fixtures, 'situations/specforge-llama3-70B-eagle3.json'));
    // DFlash for Qwen3-8B: rope_theta 1,000,000 at 40,960 is below b*(40,960) ≈ 1,415,195: a warning, as for pretraining.
    const f = dflash.diagnostics.find((d) => d.code === 'rope/base-below-bound');
    assert.ok(f, JSON.stringify(dflash.diagnostics));
    assert.equal(f!.severity, 'warning');
    assert.match(f!.message, /^Raise rope_theta from 1,000,000 to [\d,]+: /);
    assert.match(f!.detail ?? '', /draft head \(architectures DFlashDraftModel\), trained from scratch/);
    assert.doesNotMatch(`${f!.message} ${f!.detail}`, /, as trained|how the model was trained/);
    // No catalog identity: a 5-layer draft is not Qwen3-8B shipped.
    assert.equal((dflash.rope as { identity?: unknown }).identity ?? null, null);
    // EAGLE-3 for Llama-3-70B: llama3 over 4,096, the base 500,000 meets the bound there: no base finding.
    assert.equal(
      eagle.diagnostics.find((d) => d.code === 'rope/base-below-bound'),
      undefined,
    );
    assert.match(String((eagle.rope as { draftHead?: string }).draftHead), /LlamaForCausalLMEagle3/);
  });

  it('litgpt pretrain of a built-in model_name (micro-llama-300M) is a from-scratch architecture, not a missing base model', () => {
    const [file] = check(join(fixtures, 'situations/litgpt-pretrain-microllama.yaml'));
    assert.equal(
      file.diagnostics.find((d) => d.code === 'training/base-model-unresolved'),
      undefined,
      JSON.stringify(file.diagnostics),
    );
    const f = file.diagnostics.find((d) => d.code === 'rope/base-below-bound');
    assert.ok(f, JSON.stringify(file.diagnostics));
    // LitGPT's micro-llama-300M: n_embd 1,024 / n_head 16 = 64 rotary dims, rope_base 10,000, block_size 2,048.
    assert.equal(f!.severity, 'warning');
    assert.match(f!.message, /10,000 .*up to 725 of the 2,048 tokens/);
    assert.match(f!.detail ?? '', /LitGPT's micro-llama-300M .*built from scratch by litgpt pretrain/);
  });

  it("DeepSeek-V4-Flash's compress_ratios: 41 compressed full-context layers and 2 sliding layers of 128, not 43 sliding", () => {
    const [file] = check(join(fixtures, 'situations/deepseek-v4-flash.json'));
    type Group = { layerType: string; layers: number; base: number; baseKey: string; window: number | null; reach: number; pattern?: string };
    const groups = (file.rope as { groups: Group[] }).groups;
    const full = groups.find((g) => g.layerType === 'full_attention');
    const sliding = groups.find((g) => g.layerType === 'sliding_attention');
    assert.ok(full && sliding, JSON.stringify(groups));
    assert.equal(full!.layers, 41);
    assert.equal(full!.reach, 1048576);
    assert.equal(full!.base, 160000);
    assert.equal(full!.baseKey, 'compress_rope_theta');
    assert.equal(sliding!.layers, 2);
    assert.equal(sliding!.window, 128);
    assert.equal(sliding!.base, 10000);
    assert.match(full!.pattern ?? '', /^compress_ratios/);
  });

  it('a launch pinned to a vLLM release that still reads --rope-scaling is judged there: a hint, not an error', () => {
    // Constructed from the options vLLM documented before v0.11.1: the same command pinned and not pinned.
    const command = `vllm serve Qwen/Qwen2.5-7B-Instruct --rope-scaling '{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}' --max-model-len 131072\n`;
    const pinned = join(dir, 'pinned.sh');
    writeFileSync(pinned, `#!/bin/bash\npip install vllm==0.10.1\n${command}`);
    const lowerBound = join(dir, 'lower-bound.sh');
    writeFileSync(lowerBound, `#!/bin/bash\npip install "vllm>=0.10"\n${command}`);
    const [p, l] = check(pinned, lowerBound);
    const atPin = p.diagnostics.find((d) => d.code === 'vllm/removed-option');
    assert.equal(atPin?.severity, 'hint', JSON.stringify(p.diagnostics));
    assert.match(atPin!.detail ?? '', /the pinned 0\.10\.1 still reads it/);
    // A lower bound names no release: a fresh install gets the current one, which refuses the option.
    assert.equal(l.diagnostics.find((d) => d.code === 'vllm/removed-option')?.severity, 'error');
  });

  it('a from-scratch base of 1,000,000 at 32,768 (above b*) gets nothing above information and no "below the bound"', () => {
    // GPT-NeoX's OLMo-7B pretraining config (rotary dim 128), trained at 32,768 with rotary_emb_base 1,000,000.
    const olmo = readFileSync(join(fixtures, 'corpus/training/gptneox-OLMo-7B.yml'), 'utf8');
    const at32k = olmo.replace('"seq_length": 4096', '"seq_length": 32768').replace('"max_position_embeddings": 4096', '"max_position_embeddings": 32768');
    const neox = at32k.replace('"pos_emb": "rotary",', '"pos_emb": "rotary", "rotary_emb_base": 1000000,');
    assert.match(neox, /"rotary_emb_base": 1000000/);
    const f = join(dir, 'neox-1m.yml');
    writeFileSync(f, neox);
    const [file] = check(f);
    const bound = file.diagnostics.find((d) => d.code === 'rope/base-below-bound');
    assert.ok(bound, 'the island is still said, as information');
    for (const d of file.diagnostics) {
      assert.ok(SEVERITY.indexOf(d.severity) <= 1, `${d.severity} ${d.code}: ${d.message}`);
      assert.doesNotMatch(`${d.message} ${d.detail ?? ''}`, /below the bound/i);
    }
    assert.match(bound!.message, /clears b\* ≈ [\d,.]+ for 32,768 tokens but dips below zero from 27,115/);
    // The default base 10,000 at 32,768 is far below b*: still a warning (the island rule only softens bases above b*).
    const g = join(dir, 'neox-default.yml');
    writeFileSync(g, at32k);
    const [lowFile] = check(g);
    assert.equal(lowFile.diagnostics.find((d) => d.code === 'rope/base-below-bound')?.severity, 'warning');
  });
});
