/**
 * Launch files in the editor, over the real server process: a shell script, a Dockerfile and a
 * Modelfile get diagnostics on the user's own token, a hover on the command says what the engine
 * derives, and a quick fix edits only the command's flags.
 */
import { strict as assert } from 'node:assert';
import { CodeAction, CodeActionRequest, Diagnostic, HoverRequest, MarkupContent, TextDocumentEdit, TextEdit } from 'vscode-languageserver-protocol/node';
import { LspHarness, BUILT, applyEdits } from './lspHarness';

const SCRIPT = [
  '#!/usr/bin/env bash',
  'set -euo pipefail',
  'MODEL=${MODEL:-Qwen/Qwen2.5-7B-Instruct}',
  '# vllm serve "$MODEL" --max-model-len 8192   (the old one)',
  'vllm serve "$MODEL" \\',
  '    --tensor-parallel-size 2 \\',
  '    --max-model-len 131072',
  'echo started',
  '',
].join('\n');

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length - 1;
}

describe('launch files in the editor (protocol)', function () {
  this.timeout(30000);
  let h: LspHarness;
  before(async function () {
    if (!BUILT) this.skip();
    h = await LspHarness.start({ settings: { validation: { delay: 20 } } });
  });
  after(async () => {
    if (h) await h.stop();
  });

  /** The shell grammar loads after start: wait for the findings, not for the first (possibly empty) publish. */
  const findings = (uri: string, version = 1) =>
    h.until(() => {
      const p = [...h.published].reverse().find((x) => x.uri === uri && x.version === version && x.diagnostics.length > 0);
      return p?.diagnostics;
    }, `findings of ${uri}`);

  it('a vllm serve script: error on the length token, hover on the command, a fix that edits only its flags', async () => {
    const uri = 'file:///ws/launch/serve.sh';
    await h.open(uri, SCRIPT, 'shellscript');
    const diags: Diagnostic[] = await findings(uri);
    const d = diags.find((x) => x.code === 'vllm/max-model-len-exceeds');
    assert.ok(d, JSON.stringify(diags.map((x) => x.code)));
    assert.equal(d!.severity, 1);
    assert.equal(d!.range.start.line, lineOf(SCRIPT, '--max-model-len 131072'));
    assert.equal(SCRIPT.split('\n')[d!.range.start.line].slice(d!.range.start.character, d!.range.end.character), '131072');

    const hover = await h.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: lineOf(SCRIPT, 'vllm serve "$MODEL" \\'), character: 2 },
    });
    const md = (hover!.contents as MarkupContent).value;
    assert.match(md, /32,768/, md);

    const actions = (await h.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: d!.range,
      context: { diagnostics: [d!] },
    })) as CodeAction[];
    const yarn = actions.find((a) => /YaRN/i.test(a.title));
    assert.ok(yarn, JSON.stringify(actions.map((a) => a.title)));
    const edits = (yarn!.edit!.changes?.[uri] ?? (yarn!.edit!.documentChanges![0] as TextDocumentEdit).edits) as TextEdit[];
    const after = applyEdits(SCRIPT, edits);
    // Lines outside the command (5–7) are byte-identical; the comment keeps its old command.
    const before = SCRIPT.split('\n'),
      next = after.split('\n');
    assert.deepEqual(next.slice(0, 4), before.slice(0, 4));
    assert.deepEqual(next.slice(-2), before.slice(-2));
    assert.match(after, /--hf-overrides '\{"rope_scaling":\{"rope_type":"yarn"/);

    await h.change(uri, 2, [{ text: after }]);
    const again = await h.until(() => h.published.filter((p) => p.uri === uri && p.version === 2).pop(), 'diagnostics after the fix');
    assert.ok(!again.diagnostics.some((x) => x.code === 'vllm/max-model-len-exceeds'), JSON.stringify(again.diagnostics));
    await h.close(uri);
  });

  it('a Dockerfile CMD and a Modelfile are read; an ordinary script gets nothing', async () => {
    const docker =
      'FROM vllm/vllm-openai:v0.11.2\nENV MODEL=Qwen/Qwen2.5-7B-Instruct\nCMD ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "65536"]\n';
    await h.open('file:///ws/launch/Dockerfile', docker, 'dockerfile');
    const dd = await findings('file:///ws/launch/Dockerfile');
    assert.ok(
      dd.some((x) => x.code === 'vllm/max-model-len-exceeds' && x.range.start.line === 2),
      JSON.stringify(dd),
    );

    const plain = '#!/bin/sh\nset -e\nnpm ci\nnpm run build\n';
    await h.open('file:///ws/launch/build.sh', plain, 'shellscript');
    // A later document's findings prove the server has the grammar and has answered the earlier one.
    const modelfile = 'FROM ./qwen2.5-7b-instruct-q4_k_m.gguf\nPARAMETER num_ctx 131072\n';
    await h.open('file:///ws/launch/Modelfile', modelfile, 'ollama-modelfile');
    const md = await findings('file:///ws/launch/Modelfile');
    assert.ok(
      md.some((x) => x.range.start.line === 1),
      JSON.stringify(md),
    );
    const build = h.published.filter((p) => p.uri === 'file:///ws/launch/build.sh');
    assert.ok(
      build.every((p) => p.diagnostics.length === 0),
      JSON.stringify(build),
    );
  });
});
