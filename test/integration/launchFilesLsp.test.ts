/**
 * Issue 27 in the editor, over the real server process: a script whose wrapper comes from a sourced
 * file on disk (the server reads it beside the script) gets the finding on the call's own token, and
 * a Dockerfile named `x-Dockerfile` that VS Code opens as plain text is read by its content.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { LspHarness, BUILT } from './lspHarness';

describe('issue-27 launch files in the editor (protocol)', function () {
  this.timeout(30000);
  let h: LspHarness;
  let dir: string;
  before(async function () {
    if (!BUILT) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-sourced-'));
    h = await LspHarness.start({ settings: { validation: { delay: 20 } } });
  });
  after(async () => {
    if (h) await h.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The latest findings of `uri` once they hold `code` (a sourced file is scanned off the request path: it may follow). */
  const findings = (uri: string, code: string) =>
    h.until(() => {
      const p = [...h.published].reverse().find((x) => x.uri === uri && x.diagnostics.some((d) => d.code === code));
      return p?.diagnostics;
    }, `${code} in the findings of ${uri}`);

  it("source ../setup.sh: the wrapper defined there is followed; the error sits on the call's argument", async () => {
    mkdirSync(join(dir, 'qwen'));
    writeFileSync(join(dir, 'setup.sh'), 'serve_model() {\n  vllm serve "$1" --port 8000 "${@:2}"\n}\n');
    const text = '#!/usr/bin/env bash\nsource ../setup.sh\nserve_model Qwen/Qwen2.5-7B-Instruct --max-model-len 131072\n';
    const file = join(dir, 'qwen', 'run.sh');
    writeFileSync(file, text);
    const uri = pathToFileURL(file).href;
    await h.open(uri, text, 'shellscript');
    const diags: Diagnostic[] = await findings(uri, 'vllm/max-model-len-exceeds');
    const d = diags.find((x) => x.code === 'vllm/max-model-len-exceeds');
    assert.ok(d, JSON.stringify(diags.map((x) => [x.code, x.message])));
    assert.equal(d!.range.start.line, 2);
    assert.equal(text.split('\n')[2].slice(d!.range.start.character, d!.range.end.character), '131072');
  });

  it('x-Dockerfile opened as plain text: read by its FROM line, the CMD on ubuntu judged', async () => {
    const text = 'FROM python:3.11\nRUN pip install vllm\nCMD vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 65536\n';
    const uri = 'file:///ws/docker/x-Dockerfile';
    await h.open(uri, text, 'plaintext');
    const diags: Diagnostic[] = await findings(uri, 'vllm/max-model-len-exceeds');
    const d = diags.find((x) => x.code === 'vllm/max-model-len-exceeds');
    assert.ok(d, JSON.stringify(diags.map((x) => x.code)));
    assert.equal(text.split('\n')[2].slice(d!.range.start.character, d!.range.end.character), '65536');
  });
});
