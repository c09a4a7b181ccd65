/**
 * Server features in process (as vscode-json-languageservice and yaml-language-server test theirs):
 * hover, code actions (explicit Ctrl+. waiting for the bound finding's fixes, source.fixAll,
 * preferredRewrite), inlay hints and code lenses by setting, and bad settings logged.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CodeAction,
  CodeActionRequest,
  CodeActionTriggerKind,
  CodeLensRequest,
  HoverRequest,
  InlayHintRequest,
  MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { startInProcess, InProcess } from './server/inProcess';
import { FIX_ALL_KIND } from '../../shared/protocol/messages';

const FIX = join(__dirname, '..');
const LLAMA3_32K = readFileSync(join(FIX, 'integration', 'fixtures', 'llama3-8b-32k.json'), 'utf8');
// A fine-tuning YAML that sets its own base: judged at its training length, its fix needs the bound engine.
const THETA_OVERRIDE = readFileSync(join(FIX, 'fixtures', 'training', 'axolotl-llama3-theta-override.crlf.yaml'), 'utf8');
const DEEPSEEK = readFileSync(join(FIX, 'fixtures', 'models', 'deepseek-v3.json'), 'utf8');

function positionOf(text: string, needle: string) {
  const off = text.indexOf(needle) + 1;
  const before = text.slice(0, off);
  return { line: before.split('\n').length - 1, character: off - (before.lastIndexOf('\n') + 1) };
}
const WHOLE = { start: { line: 0, character: 0 }, end: { line: 10000, character: 0 } };
const actions = (r: unknown) => (r as CodeAction[] | null) ?? [];

describe('server features (in process)', function () {
  this.timeout(60000);
  let h: InProcess;
  beforeEach(async () => {
    h = await startInProcess({ validation: { delay: 0 } });
  });
  afterEach(() => h.dispose());

  it('an explicit Ctrl+. waits for the bound finding and answers with its fixes; the lightbulb does not wait', async () => {
    const uri = 'file:///ws/a/train.yaml';
    await h.open(uri, THETA_OVERRIDE, 'yaml');
    const at = { start: positionOf(THETA_OVERRIDE, '500_000'), end: positionOf(THETA_OVERRIDE, '500_000') }; // the cursor on the value, as F8 puts it
    // Automatic request before any bound is answered: nothing to fix yet, answered at once.
    const auto = actions(
      await h.client.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: at,
        context: { diagnostics: [], triggerKind: CodeActionTriggerKind.Automatic },
      }),
    );
    assert.deepEqual(auto, []);
    assert.ok(h.computer.queued > 0, `the bound is still computing (asked ${h.computer.asked}, logs: ${h.logs.join(' | ')})`);
    // Explicit request while the engine is busy: answered once the answers are in.
    const asked = h.client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: at,
      context: { diagnostics: [], triggerKind: CodeActionTriggerKind.Invoked, only: ['quickfix'] },
    });
    const invoked = actions(await h.settle(asked));
    const titles = invoked.map((a) => a.title);
    assert.ok(
      titles.some((t) => /Raise rope_theta to/.test(t)),
      `titles: ${titles.join(' / ')}; asked ${h.computer.asked}, queued ${h.computer.queued}`,
    );
    assert.ok(invoked.filter((a) => a.isPreferred).length <= 1, 'at most one preferred fix');
  });

  it('source.fixAll applies the preferred rewrite (covers the context, training-free); preferredRewrite picks another', async () => {
    const uri = 'file:///ws/b/config.json';
    await h.open(uri, LLAMA3_32K);
    const fixAll = async () =>
      actions(
        await h.settle(
          h.client.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: WHOLE, context: { diagnostics: [], only: [FIX_ALL_KIND] } }),
        ),
      );
    const quickFixes = async () =>
      actions(
        await h.settle(
          h.client.sendRequest(CodeActionRequest.type, {
            textDocument: { uri },
            range: WHOLE,
            context: { diagnostics: [], triggerKind: CodeActionTriggerKind.Invoked, only: ['quickfix'] },
          }),
        ),
      );
    // Llama-3-8B raised to 32,768 in a model config: running the checkpoint as is, every rewrite is judged
    // by its reach and covers 32,768; the Llama 3 line's own llama3 scaling ranks first (issue 33: it was YaRN).
    const auto = (await quickFixes()).filter((a) => a.isPreferred).map((a) => a.title);
    assert.equal(auto.length, 1);
    assert.match(
      auto[0],
      /^Add llama3 scaling \(factor 4, low_freq_factor 1\.0, high_freq_factor 4\.0, original_max_position_embeddings 8192\) — covers 32,768$/,
    );

    await h.setSettings({ validation: { delay: 0 }, preferredRewrite: 'ntk' });
    const preferred = (await quickFixes()).filter((a) => a.isPreferred).map((a) => a.title);
    assert.equal(preferred.length, 1);
    assert.match(preferred[0], /^Apply NTK scaling: rope_theta 500000 → 2044497\.12/);
    const all = await fixAll();
    assert.equal(all.length, 1);
    assert.equal(all[0].kind, FIX_ALL_KIND);
    const change = all[0].edit?.documentChanges?.[0];
    assert.ok(change && 'edits' in change);
    assert.deepEqual(
      change.edits.map((e) => e.newText),
      ['2044497.121624311'],
    );
  });

  it('hover follows ropeLens.transformersVersion (YaRN attention factor differs between v4 and v5)', async () => {
    const uri = 'file:///ws/ds/config.json';
    await h.open(uri, DEEPSEEK);
    const hoverFactor = async () => {
      const hov = await h.client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(DEEPSEEK, '"rope_theta"') });
      return /attention factor \| ([\d.]+) \(transformers (v\d)\)/.exec((hov?.contents as MarkupContent | undefined)?.value ?? '')?.slice(1);
    };
    const v5 = await hoverFactor();
    await h.setSettings({ validation: { delay: 0 }, transformersVersion: 'v4' });
    const v4 = await hoverFactor();
    assert.equal(v5?.[1], 'v5');
    assert.equal(v4?.[1], 'v4');
    assert.notEqual(v4?.[0], v5?.[0]);
  });

  it("hover lists each attention group: Gemma-4's class-default full and sliding layers, DeepSeek-V4's main and compress tables", async () => {
    const lines = async (file: string, needle: string) => {
      const text = readFileSync(join(FIX, 'fixtures', file), 'utf8');
      const uri = `file:///ws/${file}`;
      await h.open(uri, text);
      const hov = await h.client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(text, needle) });
      return ((hov?.contents as MarkupContent | undefined)?.value ?? '').split('\n').filter((l) => l.startsWith('| layers '));
    };
    assert.deepEqual(await lines('families/gemma-4-31b.json', '"max_position_embeddings"'), [
      '| layers full_attention ×10 | proportional, base 1,000,000 (default), 128 of 512 dims, reach 262,144 |',
      '| layers sliding_attention ×50 | base 10,000 (default), 256 dims, reach 1,024 (window 1,024) |',
    ]);
    assert.deepEqual(await lines('situations/deepseek-v4-flash-hub.json', '"rope_theta"'), [
      '| layers full_attention ×41 (table compress) | yarn, base 160,000, 64 dims, reach 1,048,576 |',
      '| layers sliding_attention ×2 (table main) | base 10,000, 64 dims, reach 128 (window 128) |',
    ]);
  });

  it('hover on a RoPE key shows how each consumer reads the file; ropeLens.consumers makes a refusal an error', async () => {
    const v5 = readFileSync(join(FIX, 'fixtures', 'consumers', 'mistral-7b-v5-rope-parameters.json'), 'utf8');
    const uri = 'file:///ws/v5/config.json';
    await h.open(uri, v5);
    const hov = await h.client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(v5, '"rope_parameters"') });
    const md = (hov?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(md, /\*\*How each consumer reads this file\*\*/);
    assert.match(md, /\| TGI \| yes \| \*\*10,000 \(default\)\*\* \|/);
    assert.match(md, /\| transformers 5\.x \| yes \| 1,000,000 \|/);
    // Llama-3.1 as shipped: no refusal finding until the user says transformers 4.41 loads it.
    const llama = readFileSync(join(FIX, 'fixtures', 'corpus', 'models', 'meta-llama-3.1-8b-instruct.json'), 'utf8');
    const luri = 'file:///ws/l31/config.json';
    const refusals = () =>
      h.published
        .filter((p) => p.uri === luri)
        .at(-1)
        ?.diagnostics.filter((d) => d.code === 'consumer/refused') ?? [];
    await h.open(luri, llama);
    await h.settle(new Promise((r) => setTimeout(r, 200)));
    assert.deepEqual(refusals(), []);
    await h.setSettings({ validation: { delay: 0 }, consumers: ['transformers==4.41.0'] });
    for (let i = 0; i < 100 && !refusals().length; i++) await h.settle(new Promise((r) => setTimeout(r, 20)));
    assert.equal(refusals()[0]?.severity, 1); // DiagnosticSeverity.Error
  });

  it('inlay hints or code lenses beside rope_theta, by ropeLens.hints', async () => {
    const uri = 'file:///ws/c/config.json';
    await h.open(uri, LLAMA3_32K);
    const range = WHOLE;
    const hints = await h.settle(h.client.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range }));
    assert.equal(hints?.length, 1);
    assert.match(String(hints![0].label), /b\* (≈|computing)/);
    assert.deepEqual(await h.client.sendRequest(CodeLensRequest.type, { textDocument: { uri } }), []);
    await h.setSettings({ validation: { delay: 0 }, hints: 'codeLens' });
    const lenses = await h.client.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.equal(lenses?.length, 1);
    assert.equal(lenses![0].command?.command, 'ropeLens.openInspector');
    assert.deepEqual(await h.client.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range }), []);
  });

  it('a setting the server cannot use is logged, not silently dropped', async () => {
    await h.setSettings({ transformersVersion: 'v6' });
    const uri = 'file:///ws/d/config.json';
    await h.open(uri, LLAMA3_32K);
    await h.client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(LLAMA3_32K, '"rope_theta"') });
    assert.ok(
      h.logs.some((l) => /ropeLens\.transformersVersion/.test(l)),
      h.logs.join('\n'),
    );
  });
});
