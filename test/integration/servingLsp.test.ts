/**
 * The serving model in the editor, over the real server process: the hover on the RoPE block lists
 * each engine's derived maximum and command; the `source` actions write a vLLM config and an SGLang
 * script carrying the config's scaling, for clients that can create files.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { CodeAction, CodeActionRequest, HoverRequest, MarkupContent, CreateFile, TextDocumentEdit } from 'vscode-languageserver-protocol/node';
import { LspHarness, BUILT, BASE_CAPABILITIES } from './lspHarness';

const QWEN_YARN = readFileSync(join(__dirname, '..', 'fixtures', 'models', 'qwen2.5-7b-instruct-yarn.json'), 'utf8');

function posOf(text: string, needle: string, delta = 0) {
  const before = text.slice(0, text.indexOf(needle) + delta);
  return { line: before.split('\n').length - 1, character: before.length - (before.lastIndexOf('\n') + 1) };
}

describe('serving model in the editor (protocol)', function () {
  this.timeout(30000);
  let h: LspHarness;
  before(async function () {
    if (!BUILT) this.skip();
    const caps = {
      ...BASE_CAPABILITIES,
      workspace: { ...BASE_CAPABILITIES.workspace, workspaceEdit: { documentChanges: true, resourceOperations: ['create' as const] } },
    };
    h = await LspHarness.start({ capabilities: caps, settings: { validation: { delay: 50 } } });
  });
  after(async () => {
    if (h) await h.stop();
  });

  it('hover on rope_scaling lists every engine with its derived maximum and command', async () => {
    const uri = 'file:///ws/qwen-serve/config.json';
    await h.open(uri, QWEN_YARN);
    const hover = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(QWEN_YARN, '"rope_scaling"', 3) });
    const md = (hover!.contents as MarkupContent).value;
    assert.match(md, /\*\*Serving\*\*/);
    assert.match(md, /\| vLLM \| 131,072 \| 131,072 \|/);
    assert.match(md, /\| SGLang \| 32,768 \| 131,072 \(needs SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN\) \|/);
    assert.match(md, /llama-server -m model\.gguf -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768/);
    const onTheta = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(QWEN_YARN, '"rope_theta"', 3) });
    assert.doesNotMatch((onTheta!.contents as MarkupContent).value, /\*\*Serving\*\*/, 'only on the scaling block and the context');
    await h.close(uri);
  });

  it('source actions write vllm-serve.yaml and sglang-serve.sh beside the config', async () => {
    const uri = 'file:///ws/qwen-serve2/config.json';
    await h.open(uri, QWEN_YARN);
    const actions = (await h.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source'] },
    })) as CodeAction[];
    const vllm = actions.find((a) => a.kind === 'source.ropeLens.serving' && /vllm-serve\.yaml/.test(a.title))!;
    assert.ok(vllm, JSON.stringify(actions.map((a) => a.title)));
    const [create, edit] = vllm.edit!.documentChanges! as [CreateFile, TextDocumentEdit];
    assert.equal(create.kind, 'create');
    assert.equal(create.uri, 'file:///ws/qwen-serve2/vllm-serve.yaml');
    const yaml = YAML.parse(edit.edits[0].newText);
    assert.equal(yaml['max-model-len'], 131072);
    assert.deepEqual(yaml['hf-overrides'], { rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
    assert.match(edit.edits[0].newText, /factor: 4\.0/);
    const sglang = actions.find((a) => /sglang-serve\.sh/.test(a.title))!;
    const script = (sglang.edit!.documentChanges![1] as TextDocumentEdit).edits[0].newText;
    assert.match(script, /^export SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1$/m);
    assert.match(script, /^exec python3 -m sglang\.launch_server .*--json-model-override-args '\{"rope_scaling":\{"rope_type":"yarn"/m);
    const quick = (await h.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    assert.ok(!quick.some((a) => a.kind === 'source.ropeLens.serving'), 'not among quick fixes when the client asks for no kind');
    await h.close(uri);
  });
});
