/**
 * A launch finding keeps one preferred quick fix when verification refuses the preferred one, as a
 * config's does (service/verifyFixes.ts keepOnePreferred): the next fix by the advice's ranking
 * (vendor recipe, verdict, change cost) becomes preferred. Through the launch analysis's own
 * verification (analyzeLaunchFile with a reparse), the service (analyzeText's verification) and the
 * language server's code actions.
 */
import { strict as assert } from 'node:assert';
import { CodeAction, CodeActionRequest, CodeActionTriggerKind } from 'vscode-languageserver-protocol/node';
import { analyzeLaunchFile } from '../../shared/service/analyzeLaunch';
import { analyzeText } from '../../shared/service/analyze';
import { catalogResolver } from '../../shared/config/resolve';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { readLaunchFile } from '../../shared/launch/index';
import { loadShellParser } from '../../shared/node/shellParser';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { ShellParser } from '../../shared/launch/types';
import { startInProcess } from './server/inProcess';

const oracle = createSyncOracle();
// Qwen2.5-7B-Instruct (32,768 tokens, rope_theta 1,000,000) asked for 262,144: every rewrite is offered.
const QWEN_256K = 'vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 262144\n';
// One function serves two models at 65,536: a rewrite written into the body applies to both launches.
const SHARED_BODY = 'serve() {\n  vllm serve "$1" --max-model-len 65536\n}\nserve Qwen/Qwen2.5-7B-Instruct\nserve meta-llama/Meta-Llama-3-8B-Instruct\n';

describe('launch fixes: one preferred fix after verification refuses the preferred one', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  before(async () => {
    shell = await loadShellParser();
  });
  const read = (t: string) => readLaunchFile(t, 'serve.sh', { shell });
  const opts = { fileName: 'serve.sh', resolver: catalogResolver, oracle, variant: 'v5' as const };

  it('analyzeLaunchFile: the preferred rewrite refused by the re-read, the next-ranked one is preferred', () => {
    const unverified = analyzeLaunchFile(read(QWEN_256K)!, QWEN_256K, opts);
    const d0 = unverified.diagnostics.find((d) => d.code === 'vllm/max-model-len-exceeds')!;
    const first = d0.fixes.find((f) => f.preferred)!;
    // Served untrained, every rewrite covers 262,144 (Qwen's recipe reaches 131,072): the family's YaRN, re-sized, ranks first.
    assert.match(first.title, /^Add YaRN to hf-overrides \(factor 8, original 32768\) — covers 262,144$/);
    // The re-read refuses the text that fix writes (as it refuses a fix whose result no longer reads as launches).
    const refused = applyTextEdits(QWEN_256K, new LineIndex(QWEN_256K), first.edits);
    const a = analyzeLaunchFile(read(QWEN_256K)!, QWEN_256K, { ...opts, reparse: (t) => (t === refused ? undefined : read(t)) });
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.ok(!d.fixes.some((f) => f.title === first.title), 'the refused fix is gone');
    assert.equal(d.fixes.length, d0.fixes.length - 1);
    const preferred = d.fixes.filter((f) => f.preferred);
    assert.equal(preferred.length, 1, d.fixes.map((f) => f.title).join(' / '));
    // The rest cover 262,144 too: the next training-free method practitioners use, the NTK-aware base.
    assert.match(preferred[0].title, /^Apply NTK scaling.* — covers 262,144$/);
  });

  it('analyzeLaunchFile: with nothing refused, the preferred fix stays the one the rule chose', () => {
    const a = analyzeLaunchFile(read(QWEN_256K)!, QWEN_256K, { ...opts, reparse: read });
    const preferred = a.diagnostics.flatMap((d) => d.fixes).filter((f) => f.preferred);
    assert.equal(preferred.length, 1);
    assert.match(preferred[0].title, /^Add YaRN to hf-overrides \(factor 8, original 32768\) — covers 262,144$/);
  });

  it('the service: a rewrite in a shared function body is refused; the fix that remains is preferred', () => {
    const before = analyzeLaunchFile(read(SHARED_BODY)!, SHARED_BODY, opts).diagnostics;
    const after = analyzeText(SHARED_BODY, { fileName: 'serve.sh', oracle, shellParser: shell }).diagnostics;
    assert.equal(after.length, 2);
    for (const [i, d] of after.entries()) {
      // Qwen's YaRN recipe; for Llama-3-8B its family's llama3 (issue 33: it was YaRN there too).
      assert.match(before[i].fixes.find((f) => f.preferred)?.title ?? '', /^Add (YaRN|Llama-3 scaling)/, 'the rule preferred a scaling rewrite');
      assert.ok(d.fixes.length >= 1 && d.fixes.length < before[i].fixes.length, 'verification refused some fixes');
      assert.equal(d.fixes.filter((f) => f.preferred).length, 1, d.fixes.map((f) => f.title).join(' / '));
    }
    assert.deepEqual(
      after.map((d) => d.fixes.find((f) => f.preferred)!.title),
      ['Set max-model-len to 32768', 'Set max-model-len to 8192'],
    );
  });

  it('the language server: the quick fixes of a launch file carry exactly one preferred action per finding', async () => {
    const h = await startInProcess({ validation: { delay: 0 } });
    try {
      const uri = 'file:///ws/launch/serve.sh';
      await h.open(uri, SHARED_BODY, 'shellscript');
      const all = (await h.settle(
        h.client.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: { line: 0, character: 0 }, end: { line: 10, character: 0 } },
          context: { diagnostics: [], triggerKind: CodeActionTriggerKind.Invoked, only: ['quickfix'] },
        }),
      )) as CodeAction[] | null;
      const preferred = (all ?? []).filter((a) => a.isPreferred).map((a) => a.title);
      assert.deepEqual(preferred.sort(), ['Set max-model-len to 32768', 'Set max-model-len to 8192'], (all ?? []).map((a) => a.title).join(' / '));
    } finally {
      h.dispose();
    }
  });
});
