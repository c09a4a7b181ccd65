/**
 * The three front-ends give the same answers for the same file and settings, because they all go
 * through one service: the CLI (`check --json`, `inspect --json`), the language server through a
 * real LSP client (diagnostics, code actions, describe, hover) and the Inspector's data request.
 * Case from issue 10: a training YAML whose base_model is a local folder holding a DeepSeek-style
 * YaRN config, with transformersVersion v4 (where the YaRN attention factor differs from v5).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionRequest, HoverRequest, MarkupContent } from 'vscode-languageserver-protocol/node';
import { LspHarness, BUILT, CLI } from './lspHarness';
import { DescribeRequest, InspectorDataRequest } from '../../shared/protocol/messages';
import type { JsonFileReport } from '../../shared/service/jsonReport';
import type { InspectorData } from '../../shared/inspector/types';

const FIXTURE = join(__dirname, '..', 'fixtures', 'models', 'deepseek-v3.json');
const TRAIN = 'base_model: ./mymodel\nsequence_len: 262144\nmicro_batch_size: 1\n';

function cli(...args: string[]): string {
  return execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}
function cliMayFail(...args: string[]): string {
  try {
    return cli(...args);
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? '');
  }
}

describe('front-ends agree (CLI, language server, Inspector)', function () {
  this.timeout(60000);
  let h: LspHarness;
  let dir: string;
  let train: string, model: string;

  before(async function () {
    if (!BUILT) this.skip(); // dist/cli.js not built
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-fe-'));
    mkdirSync(join(dir, 'mymodel'));
    model = join(dir, 'mymodel', 'config.json');
    train = join(dir, 'train.yaml');
    writeFileSync(model, readFileSync(FIXTURE, 'utf8'));
    writeFileSync(train, TRAIN);
    h = await LspHarness.start({ settings: { transformersVersion: 'v4', validation: { delay: 0 } } });
  });
  after(async () => {
    if (h) await h.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('training YAML with a local base-model folder: same description, findings and fixes', async () => {
    const report = (JSON.parse(cliMayFail('check', '--json', '--variant', 'v4', train)) as { files: JsonFileReport[] }).files[0];
    assert.equal(report.training?.resolvedFrom, model, 'the CLI resolves ./mymodel');
    assert.deepEqual(
      report.diagnostics.map((d) => d.code),
      ['training/context-exceeded'],
    );

    const uri = pathToFileURL(train).toString();
    await h.open(uri, TRAIN, 'yaml');
    const described = await h.conn.sendRequest(DescribeRequest, { uri, waitForBounds: true });
    assert.ok(described);
    assert.equal(described.variant, 'v4');
    assert.deepEqual(described.training, report.training, 'the server resolves ./mymodel too');
    assert.deepEqual(
      described.findings.map(({ code, severity, message, range }) => ({ code, severity, message, range })),
      report.diagnostics.map(({ code, severity, message, range }) => ({ code, severity, message, range })),
    );
    assert.equal(described.rope?.base.value, report.rope?.base);
    assert.equal(described.rope?.contextLength.value, report.rope?.contextLength);

    const published = await h.until(() => [...h.published].reverse().find((p) => p.uri === uri && p.diagnostics.length)?.diagnostics, 'diagnostics');
    assert.deepEqual(
      published.map((d) => [d.code, d.message]),
      report.diagnostics.map((d) => [d.code, d.message]),
    );

    const actions =
      (await h.conn.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: report.diagnostics[0].range,
        context: { diagnostics: published },
      })) ?? [];
    const titles = actions.map((a) => ('title' in a ? a.title : '')).sort();
    assert.deepEqual(titles, report.diagnostics[0].fixes.map((f) => f.title).sort());
    await h.close(uri);
  });

  it('transformersVersion v4: hover, Inspector request and `inspect --json --variant v4` show one YaRN attention factor', async () => {
    const uri = pathToFileURL(model).toString();
    const text = readFileSync(model, 'utf8');
    await h.open(uri, text, 'json');
    const off = text.indexOf('"rope_theta"') + 2;
    const line = text.slice(0, off).split('\n').length - 1;
    const character = off - (text.lastIndexOf('\n', off - 1) + 1);
    const hover = await h.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
    const m = /attention factor \| ([\d.]+) \(transformers v4\)/.exec((hover?.contents as MarkupContent | undefined)?.value ?? '');
    assert.ok(m, 'hover shows the v4 attention factor');

    const server = await h.conn.sendRequest(InspectorDataRequest, { uri, controls: { targetLength: 163840 } });
    assert.ok(server.ok, server.ok ? '' : server.message);
    const exported = JSON.parse(cli('inspect', model, '--json', '--variant', 'v4', '--target', '163840')) as InspectorData;
    const v5 = JSON.parse(cli('inspect', model, '--json', '--variant', 'v5', '--target', '163840')) as InspectorData;
    const factor = (d: InspectorData) => d.rewrites.find((r) => r.method === 'configured')!.attentionFactor;
    assert.equal(Number(factor(server.data).toPrecision(6)), Number(m[1]));
    assert.equal(factor(exported), factor(server.data));
    assert.notEqual(factor(v5), factor(exported), 'the case distinguishes v4 from v5');
    // (applicable rewrites differ by design: the standalone export cannot Apply.)
    for (const k of ['base', 'rotaryDim', 'originalLength', 'targetLength', 'factor', 'criticalDim', 'fullPeriodDims'] as const) {
      assert.deepEqual(server.data[k], exported[k], k);
    }
    assert.deepEqual(
      server.data.rewrites.map((r) => [r.method, r.attentionFactor, r.lmax]),
      exported.rewrites.map((r) => [r.method, r.attentionFactor, r.lmax]),
    );
    await h.close(uri);
  });

  it('the Inspector request for the training YAML matches the CLI export', async () => {
    const uri = pathToFileURL(train).toString();
    await h.open(uri, TRAIN, 'yaml', 2);
    const server = await h.conn.sendRequest(InspectorDataRequest, { uri });
    assert.ok(server.ok, server.ok ? '' : server.message);
    const exported = JSON.parse(cli('inspect', train, '--json', '--variant', 'v4')) as InspectorData;
    assert.equal(server.data.targetLength, 262144, 'the target is the training sequence length');
    assert.deepEqual(
      server.data.rewrites.map((r) => [r.method, r.attentionFactor]),
      exported.rewrites.map((r) => [r.method, r.attentionFactor]),
    );
    await h.close(uri);
  });
});
