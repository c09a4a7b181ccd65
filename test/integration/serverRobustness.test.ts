/**
 * Server robustness over stdio (fast run in `npm test`; the long run is test/fuzz/server.test.ts):
 * ~100 mutated real configs and YAML from the property mutators through one server process, then
 * the hostile inputs of the hardening issue, each answered. Time limits here are generous on
 * purpose (a shared 2-core machine); the 200 ms target is measured by `npm run bench`.
 */
import { said } from '../unit/helpers/findingText';
import { strict as assert } from 'node:assert';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import { BUILT, LspHarness } from './lspHarness';
import { hostileInputs } from './hostileInputs';
import { serverProperty, serverInputAt, assertInside } from '../fuzz/serverProperty';

describe('server robustness over stdio: mutated configs (fixed seed)', function () {
  before(function () {
    if (!BUILT) this.skip();
  }); // skipped: dist/cli.js not built (run `npm run build`)
  serverProperty(100, 20260521);
});

// issue 25: the server gave no diagnostics for 15 s on a Qwen3-8B config with head_dim 1,199,763,050.
describe('server robustness over stdio: the counterexample at seed -431970418, path "3915" (replayed)', function () {
  before(function () {
    if (!BUILT) this.skip();
    // The replay reaches the recorded input only while the fixture corpus is the one it was found with.
    if (!serverInputAt(-431970418, '3915').text.includes('"head_dim": 1199763050')) this.skip();
  });
  serverProperty(1, -431970418, '3915');
});

describe('server robustness over stdio: a head dimension far beyond any model', function () {
  this.timeout(60000);
  let h: LspHarness;
  before(async function () {
    if (!BUILT) this.skip();
    h = await LspHarness.start({ settings: { validation: { delay: 0 } } });
    // Warm up (first analysis, bound worker), so that the times logged below are the head_dim's own.
    await h.open('file:///headdim/warm/config.json', qwen3(128), 'json', 1);
    await h.diagnosticsFor('file:///headdim/warm/config.json', 1, 30000);
  });
  after(async () => {
    if (h) await h.stop();
  });
  const qwen3 = (headDim: number) =>
    JSON.stringify(
      {
        architectures: ['Qwen3ForCausalLM'],
        model_type: 'qwen3',
        head_dim: headDim,
        hidden_size: 4096,
        num_attention_heads: 32,
        num_key_value_heads: 8,
        num_hidden_layers: 36,
        max_position_embeddings: 40960,
        rope_theta: 1000000,
        rope_scaling: null,
      },
      null,
      2,
    );

  for (const headDim of [1e9, 1199763050]) {
    it(`head_dim ${headDim}: rope/invalid-value on head_dim arrives, and the server still answers`, async () => {
      const text = qwen3(headDim);
      const uri = `file:///headdim/${headDim}/config.json`;
      h.published.length = 0;
      const t0 = Date.now();
      await h.open(uri, text, 'json', 1);
      const diags = await h.diagnosticsFor(uri, 1, 30000);
      // Timing is measured, not asserted (a shared machine); `npm run bench` holds the 200 ms target.
      console.log(`      head_dim ${headDim}: first diagnostics after ${Date.now() - t0} ms`);
      const f = diags.filter((d) => d.code === 'rope/invalid-value');
      assert.equal(f.length, 1, JSON.stringify(diags.map((d) => d.code)));
      assert.equal(
        f[0].range.start.line,
        text.split('\n').findIndex((l) => l.includes('"head_dim"')),
      );
      assert.match(said(f[0]), /is far beyond any real model/);
      const hover = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 5 } });
      assert.ok(hover === null || typeof hover === 'object', 'a hover on the same document is answered');
      await h.close(uri);
    });
  }
});

describe('server robustness over stdio: hostile inputs', function () {
  this.timeout(120000);
  let h: LspHarness;
  before(async function () {
    if (!BUILT) this.skip();
    h = await LspHarness.start({ settings: { validation: { delay: 0 } } });
  });
  after(async () => {
    if (h) await h.stop();
  });

  for (const input of hostileInputs(true)) {
    const big = input.name.startsWith('50 MB');
    it(`answers ${input.name} and survives`, async () => {
      const text = input.text();
      const uri = `file:///hostile/${encodeURIComponent(input.name)}/${input.fileName}`;
      h.published.length = 0;
      await h.open(uri, text, input.languageId, 1);
      // Answered at all is the state this waits on; how fast is `npm run bench` (test/bench/server.ts), not a
      // wall-clock assertion that a busy CI machine would break.
      const diags = await h.diagnosticsFor(uri, 1, 60000);
      for (const d of diags) assertInside(text, d.range, `${input.name}: ${d.code}`);
      // Too big to check as you type: a config says so; a tokenizer vocabulary is simply not a config.
      if (input.fileName === 'tokenizer.json') assert.deepEqual(diags, []);
      if (big && input.fileName === 'config.json') {
        assert.deepEqual(
          diags.map((d) => d.code),
          ['parse/not-analysed'],
        );
        assert.match(said(diags[0]), /MB.*not checked.*Check This File as a Model Config/);
      }
      await h.close(uri);
      assert.equal(h.child.exitCode, null, 'the server exited');
      const hover = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
      assert.equal(hover, null, 'a closed document has no hover, and the server still answers');
    });
  }
});
