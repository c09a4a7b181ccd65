/**
 * Server robustness over stdio (fast run in `npm test`; the long run is test/fuzz/server.test.ts):
 * ~100 mutated real configs and YAML from the property mutators through one server process, then
 * the hostile inputs of the hardening issue, each answered. Time limits here are generous on
 * purpose (a shared 2-core machine); the 200 ms target is measured by `npm run bench`.
 */
import { strict as assert } from 'node:assert';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import { BUILT, LspHarness } from './lspHarness';
import { hostileInputs } from './hostileInputs';
import { serverProperty, assertInside } from '../fuzz/serverProperty';

describe('server robustness over stdio: mutated configs (fixed seed)', function () {
  before(function () { if (!BUILT) this.skip(); }); // skipped: dist/cli.js not built (run `npm run build`)
  serverProperty(100, 20260521);
});

describe('server robustness over stdio: hostile inputs', function () {
  this.timeout(120000);
  let h: LspHarness;
  before(async function () {
    if (!BUILT) this.skip();
    h = await LspHarness.start({ settings: { validation: { delay: 0 } } });
  });
  after(async () => { if (h) await h.stop(); });

  for (const input of hostileInputs(true)) {
    const big = input.name.startsWith('50 MB');
    it(`answers ${input.name} and survives`, async () => {
      const text = input.text();
      const uri = `file:///hostile/${encodeURIComponent(input.name)}/${input.fileName}`;
      h.published.length = 0;
      const t0 = Date.now();
      await h.open(uri, text, input.languageId, 1);
      const diags = await h.diagnosticsFor(uri, 1, 30000);
      const took = Date.now() - t0;
      // Generous: 2 s for the small inputs; the 50 MB ones spend most of it in the JSON-RPC transport.
      assert.ok(took < (big ? 10000 : 2000), `${input.name}: first diagnostics after ${took} ms`);
      for (const d of diags) assertInside(text, d.range, `${input.name}: ${d.code}`);
      // Too big to check as you type: a config says so; a tokenizer vocabulary is simply not a config.
      if (input.fileName === 'tokenizer.json') assert.deepEqual(diags, []);
      if (big && input.fileName === 'config.json') {
        assert.deepEqual(diags.map((d) => d.code), ['parse/not-analysed']);
        assert.match(diags[0].message, /MB.*not checked.*Check This File as a Model Config/);
      }
      await h.close(uri);
      assert.equal(h.child.exitCode, null, 'the server exited');
      const hover = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
      assert.equal(hover, null, 'a closed document has no hover, and the server still answers');
    });
  }
});
