/**
 * Protocol tests: the real server process (`rope-lens lsp --stdio`) driven by a real JSON-RPC
 * client over stdio. Each expectation below follows from the LSP spec or from the fixture's own
 * numbers (Llama-2's rope_theta 10000 stretched to 16,384 positions is the textbook case for NTK
 * scaling), not from the server's output.
 */
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CodeAction,
  CodeActionRequest,
  HoverRequest,
  CancellationTokenSource,
  ResponseError,
  LSPErrorCodes,
  TextDocumentSyncKind,
  Diagnostic,
  TextDocumentEdit,
  DidChangeConfigurationNotification,
  MarkupContent,
  InitializeResult,
} from 'vscode-languageserver-protocol/node';
import { LspHarness, BUILT, applyEdits, BASE_CAPABILITIES } from './lspHarness';
import { DESCRIBE_METHOD, DescribeResult, CHECK_AS_MODEL_CONFIG_METHOD, FIX_ALL_KIND } from '../../shared/protocol/messages';

const FIX = join(__dirname, 'fixtures');
const read = (name: string) => readFileSync(join(FIX, name), 'utf8');
const LLAMA = read('llama2-7b-extended.json');
const QWEN = read('qwen2.5-7b.json');
const NOT_A_MODEL = read('tsconfig-like.json');

/** Position of the first occurrence of `needle` (+ `delta` characters) in `text`. */
function posOf(text: string, needle: string, delta = 0) {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `fixture lacks ${needle}`);
  const before = text.slice(0, i + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - (before.lastIndexOf('\n') + 1) };
}

function editsOf(action: CodeAction) {
  const dc = action.edit?.documentChanges?.[0] as TextDocumentEdit | undefined;
  return { version: dc?.textDocument.version, edits: dc?.edits ?? [] };
}

describe('language server over stdio (protocol)', function () {
  this.timeout(30000);
  let h: LspHarness;

  before(async function () {
    if (!BUILT) this.skip(); // skipped: dist/cli.js not built (run `npm run build`)
    h = await LspHarness.start({ settings: { validation: { delay: 50 } } });
  });
  after(async () => {
    if (h) await h.stop();
  });

  it('advertises incremental sync, hovers, quick fixes and fixAll; push diagnostics for a client without pull', async () => {
    const fresh = h.initResult;
    assert.equal((fresh.capabilities.textDocumentSync as { change: number }).change, TextDocumentSyncKind.Incremental);
    assert.equal(fresh.capabilities.hoverProvider, true);
    assert.deepEqual((fresh.capabilities.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, [
      'quickfix',
      FIX_ALL_KIND,
      'source.ropeLens.serving',
    ]);
    assert.equal(fresh.capabilities.diagnosticProvider, undefined);
    const pull = await startAndInit({ ...BASE_CAPABILITIES, textDocument: { ...BASE_CAPABILITIES.textDocument, diagnostic: {} } });
    assert.ok(pull.capabilities.diagnosticProvider, 'a client that can pull gets a diagnosticProvider');
  });

  it('publishes coded, documented diagnostics for a model config', async () => {
    const uri = 'file:///ws/llama/config.json';
    await h.open(uri, LLAMA);
    // The bound finding follows the others once L_max is computed off-thread.
    const diags = await h.until(
      () => [...h.published].reverse().find((p) => p.uri === uri && p.diagnostics.length)?.diagnostics,
      'Llama-2 raised to 16,384 positions to be flagged',
      20000,
    );
    // Llama-2-7B (fingerprint) was trained at 4,096: the raised context is the finding, on its key.
    assert.ok(
      diags.some(
        (d) =>
          d.code === 'rope/context-extended' &&
          d.severity === DiagnosticSeverity.Warning &&
          d.range.start.line === posOf(LLAMA, '"max_position_embeddings"').line,
      ),
      'the context-extended warning sits on max_position_embeddings',
    );
    for (const d of diags) {
      assert.equal(d.source, 'rope-lens');
      assert.equal(typeof d.code, 'string');
      // Each code links to its own page, docs/rules/<code>.md (shipped beside the bundle).
      assert.ok(d.codeDescription?.href.endsWith(`/docs/rules/${d.code}.md`), `docs link for ${d.code}: ${d.codeDescription?.href}`);
    }
    await h.close(uri);
  });

  it('stays silent on JSON that is not a model config', async () => {
    const uri = 'file:///ws/app/tsconfig.json';
    await h.open(uri, NOT_A_MODEL);
    assert.deepEqual(await h.diagnosticsFor(uri, 1), []);
    await h.close(uri);
  });

  it('answers a cancelled request with RequestCancelled', async () => {
    const uri = 'file:///ws/cancel/config.json';
    await h.open(uri, LLAMA);
    const source = new CancellationTokenSource();
    const pending = h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(LLAMA, '"rope_theta"', 3) }, source.token);
    source.cancel();
    const err = await pending.then(
      () => undefined,
      (e) => e,
    );
    assert.ok(err instanceof ResponseError, 'the cancelled hover must fail, not answer');
    assert.equal(err.code, LSPErrorCodes.RequestCancelled);
    // The server is still healthy afterwards.
    assert.ok(await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(LLAMA, '"rope_theta"', 3) }));
    await h.close(uri);
  });

  it('hovers rope_theta with the bound numbers and an Inspector link', async () => {
    const uri = 'file:///ws/hover/config.json';
    await h.open(uri, LLAMA);
    const hover = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(LLAMA, '"rope_theta"', 3) });
    assert.ok(hover, 'hover on rope_theta');
    const md = (hover.contents as MarkupContent).value;
    assert.match(md, /b\*\(L, d\)/);
    assert.match(md, /16,384/, 'the context length of the fixture');
    assert.match(md, /command:ropeLens\.openInspector\?/);
    assert.equal(await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(LLAMA, '"vocab_size"', 3) }), null);
    await h.close(uri);
  });

  it('offers quick fixes (one preferred) whose edits, applied, clear the finding', async () => {
    const uri = 'file:///ws/fix/config.json';
    await h.open(uri, LLAMA);
    // Let every bound the analysis asks for (the fixes probe candidate bases) be computed first.
    await h.conn.sendRequest(DESCRIBE_METHOD, { uri, waitForBounds: true });
    const withFix = await h.until(
      () => {
        const last = [...h.published].reverse().find((p) => p.uri === uri);
        return last && last.diagnostics.length ? last : undefined;
      },
      'diagnostics with fixes',
      20000,
    );
    let chosen: { diag: Diagnostic; actions: CodeAction[] } | undefined;
    for (const diag of withFix.diagnostics) {
      const actions = (await h.conn.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: diag.range,
        context: { diagnostics: [diag] },
      })) as CodeAction[];
      const quick = actions.filter((a) => a.kind === 'quickfix');
      if (quick.length) {
        chosen = { diag, actions: quick };
        break;
      }
    }
    assert.ok(chosen, 'some finding has a quick fix');
    assert.equal(
      chosen.actions.filter((a) => a.isPreferred).length,
      1,
      `exactly one preferred fix: ${chosen.actions.map((a) => a.title + (a.isPreferred ? ' *' : ''))}`,
    );
    const preferred = chosen.actions.find((a) => a.isPreferred)!;
    const { version, edits } = editsOf(preferred);
    assert.equal(version, 1, 'edits are tied to the version they were computed on');
    assert.ok(edits.length > 0);
    const fixed = applyEdits(LLAMA, edits);
    assert.notEqual(fixed, LLAMA);
    // Everything outside the edited ranges is unchanged: same keys, same order.
    const keys = (t: string) => Object.keys(JSON.parse(t));
    assert.deepEqual(
      keys(fixed).filter((k) => k !== 'rope_scaling'),
      keys(LLAMA).filter((k) => k !== 'rope_scaling'),
    );
    await h.change(uri, 2, [{ text: fixed }]);
    const after = await h.diagnosticsFor(uri, 2);
    assert.ok(
      !after.some((d) => d.code === chosen!.diag.code && d.range.start.line === chosen!.diag.range.start.line),
      `the fixed finding ${chosen.diag.code} is gone after "${preferred.title}"`,
    );
    await h.close(uri);
  });

  it('applies incremental edits and publishes only the last version of a burst', async () => {
    const uri = 'file:///ws/burst/config.json';
    await h.open(uri, QWEN);
    await h.diagnosticsFor(uri, 1);
    const from = h.published.length;
    // Type "0" forty times into a harmless field, one incremental change per keystroke, without waiting.
    const at = posOf(QWEN, '"vocab_size": 152064', '"vocab_size": 152064'.length);
    const N = 40;
    for (let v = 2; v <= N + 1; v++) {
      void h.change(uri, v, [{ range: { start: at, end: at }, text: '0' }]);
    }
    const final = N + 1;
    await h.diagnosticsFor(uri, final);
    await new Promise((r) => setTimeout(r, 150));
    const burst = h.published.slice(from).filter((p) => p.uri === uri);
    const versions = burst.map((p) => p.version ?? -1);
    assert.equal(versions[versions.length - 1], final, `last publish is for v${final}: ${versions}`);
    assert.ok(new Set(versions).size <= 3, `debounced: versions ${versions} published for ${N} edits`);
    assert.deepEqual(
      [...versions].sort((a, b) => a - b),
      versions,
      'never an older version after a newer one',
    );
    // The server's text is the incrementally edited one: describe reads it back.
    const d = (await h.conn.sendRequest(DESCRIBE_METHOD, { uri })) as DescribeResult;
    assert.equal(d.version, final);
    await h.close(uri);
  });

  it('describes a document for the Inspector (ropeLens/describe)', async () => {
    const uri = 'file:///ws/describe/config.json';
    await h.open(uri, QWEN);
    const d = (await h.conn.sendRequest(DESCRIBE_METHOD, { uri, waitForBounds: true })) as DescribeResult;
    assert.equal(d.kind, 'model-config');
    assert.equal(d.rope?.base.value, 1000000);
    assert.equal(d.rope?.contextLength.value, 131072);
    assert.equal(d.rope?.rotaryDim.value, 3584 / 28);
    assert.equal(d.spec?.ropeType, 'default');
    assert.equal(await h.conn.sendRequest(DESCRIBE_METHOD, { uri: 'file:///not/open.json' }), null);
    await h.close(uri);
  });

  it('turns a rule off through settings (didChangeConfiguration → re-validation)', async () => {
    const uri = 'file:///ws/settings/config.json';
    await h.open(uri, LLAMA);
    const before = await h.until(() => {
      const last = [...h.published].reverse().find((p) => p.uri === uri);
      return last && last.diagnostics.length ? last.diagnostics : undefined;
    }, 'findings');
    const code = String(before[0].code);
    const n = h.published.length;
    h.settings = { validation: { delay: 50 }, severity: { [code]: 'off' } };
    await h.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    const after = await h.until(() => h.published.slice(n).find((p) => p.uri === uri), 're-validation');
    assert.ok(!after.diagnostics.some((d) => d.code === code), `${code} is off`);
    h.settings = { validation: { delay: 50 } };
    await h.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await h.close(uri);
  });

  it('checks a non-sniffed file on request (ropeLens/checkAsModelConfig)', async () => {
    // A model config saved under a name the sniffer never treats as one.
    const uri = 'file:///ws/other/settings.json';
    await h.open(uri, LLAMA);
    assert.deepEqual(await h.diagnosticsFor(uri, 1), []);
    const r = (await h.conn.sendRequest(CHECK_AS_MODEL_CONFIG_METHOD, { uri })) as { kind: string };
    assert.equal(r.kind, 'model-config');
    await h.until(() => [...h.published].reverse().find((p) => p.uri === uri && p.diagnostics.length > 0), 'findings once forced', 20000);
    await h.close(uri);
  });

  /** A throwaway server, initialized with `capabilities`; returns its InitializeResult. */
  async function startAndInit(capabilities: typeof BASE_CAPABILITIES): Promise<InitializeResult> {
    const x = await LspHarness.start({ capabilities });
    try {
      return x.initResult;
    } finally {
      await x.stop();
    }
  }
});
