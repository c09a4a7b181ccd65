/**
 * The server's robustness property, shared by the fast run in `npm test`
 * (test/integration/serverRobustness.test.ts) and the long one in `npm run fuzz`
 * (test/fuzz/server.test.ts): mutated real configs and training YAML sent to ONE server process
 * as didOpen/didChange never kill it, every version gets its diagnostics, and every published
 * range (diagnostic and related information) lies inside the document it was published for.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { HoverRequest, PublishDiagnosticsParams, Range as LspRange } from 'vscode-languageserver-protocol/node';
import { LspHarness } from '../integration/lspHarness';
import { mutatedJson, mutatedYaml } from './mutators';
import { fixtureTexts } from './harness';
import { LineIndex } from '../../shared/document/positions';

const FIXTURE_DIRS = ['test/fixtures', 'examples'];

interface Input {
  text: string;
  languageId: 'json' | 'yaml';
  fileName: string;
}

export function serverInputs(): fc.Arbitrary<Input> {
  const json = fixtureTexts(FIXTURE_DIRS, ['.json']).map((f) => f.text);
  const yaml = fixtureTexts(FIXTURE_DIRS, ['.yaml', '.yml']).map((f) => f.text);
  return fc.oneof(
    { weight: 3, arbitrary: mutatedJson(json).map((text): Input => ({ text, languageId: 'json', fileName: 'config.json' })) },
    { weight: 2, arbitrary: mutatedYaml(yaml).map((text): Input => ({ text, languageId: 'yaml', fileName: 'train.yaml' })) },
  );
}

/** The property's input at a seed and path (to check that a replay still reaches the recorded counterexample). */
export function serverInputAt(seed: number, path: string): Input {
  return fc.sample(fc.tuple(serverInputs(), fc.boolean()), { seed, path, numRuns: 1 })[0][0];
}

/** Throws unless `r` is a well-formed range inside `text` (no character past its line's end). */
export function assertInside(text: string, r: LspRange, what: string): void {
  const lines = new LineIndex(text);
  const ok = (p: { line: number; character: number }) => {
    if (!(p.line >= 0 && p.character >= 0 && p.line < lines.lineCount)) return false;
    // positionAt(offsetAt(p)) round-trips only for a character within its line.
    const back = lines.positionAt(lines.offsetAt(p));
    return back.line === p.line && back.character === p.character;
  };
  assert.ok(ok(r.start) && ok(r.end), `${what}: range ${JSON.stringify(r)} is outside the document`);
  assert.ok(lines.offsetAt(r.start) <= lines.offsetAt(r.end), `${what}: range ${JSON.stringify(r)} ends before it starts`);
}

function checkPublish(p: PublishDiagnosticsParams, text: string): void {
  for (const d of p.diagnostics) {
    assertInside(text, d.range, `diagnostic ${d.code}`);
    assert.ok(typeof d.message === 'string' && d.message.length > 0, 'empty diagnostic message');
    for (const rel of d.relatedInformation ?? []) if (rel.location.uri === p.uri) assertInside(text, rel.location.range, `related of ${d.code}`);
  }
}

/**
 * Registers the property as one mocha test (with `path`, starting at that run of `seed`: a replay).
 * Half the inputs replace the text of one long-lived
 * document (didChange, full text), half open a fresh document (didOpen) that is closed after.
 */
export function serverProperty(runs: number, seed: number | undefined, path?: string): void {
  let h: LspHarness | undefined;
  before(async function () {
    h = await LspHarness.start({ settings: { validation: { delay: 0 } } });
  });
  after(async () => {
    if (h) await h.stop();
  });

  it(`mutated configs and YAML over stdio never kill the server; ranges stay inside the document (${runs} inputs)`, async function () {
    this.timeout(0);
    const server = h!;
    const live = { json: 'file:///fuzz/live/config.json', yaml: 'file:///fuzz/live/train.yaml' };
    const versions = { json: 0, yaml: 0 };
    let fresh = 0;
    await fc.assert(
      fc.asyncProperty(serverInputs(), fc.boolean(), async (input, reopen) => {
        assert.equal(server.child.exitCode, null, 'the server process exited');
        let uri: string;
        let version: number;
        server.published.length = 0; // before sending: the answer may arrive before the send resolves
        if (reopen) {
          uri = `file:///fuzz/open/${fresh++}/${input.fileName}`;
          version = 1;
          await server.open(uri, input.text, input.languageId, version);
        } else {
          const kind = input.languageId;
          uri = live[kind];
          version = ++versions[kind];
          if (version === 1) await server.open(uri, input.text, kind, version);
          else await server.change(uri, version, [{ text: input.text }]);
        }
        const p = await server.until(() => server.published.find((x) => x.uri === uri && x.version === version), `diagnostics of ${uri} v${version}`, 15000);
        checkPublish(p, input.text);
        if (reopen) await server.close(uri);
      }),
      { numRuns: runs, seed, path, endOnFailure: true },
    );
    // Still alive and answering requests.
    assert.equal(server.child.exitCode, null, 'the server process exited');
    const hover = await server.conn.sendRequest(HoverRequest.type, { textDocument: { uri: live.json }, position: { line: 0, character: 0 } });
    assert.ok(hover === null || typeof hover === 'object');
  });
}
