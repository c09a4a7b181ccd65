import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '/work/wt-fixcheck/shared/service/analyze';
import { createSyncOracle } from '/work/wt-fixcheck/shared/service/syncOracle';
import { loadShellParser } from '/work/wt-fixcheck/shared/node/shellParser';
import { LineIndex } from '/work/wt-fixcheck/shared/document/positions';
import { checkFix } from '/work/wt-fixcheck/shared/service/verifyFixes';
import { consumerProblems } from '/work/wt-fixcheck/shared/service/consumerParse';
import { readLaunchFile } from '/work/wt-fixcheck/shared/launch/index';
function files(dir: string): string[] { const out: string[] = []; for (const n of readdirSync(dir).sort()) { const p = join(dir, n); if (statSync(p).isDirectory()) out.push(...files(p)); else if (!/\.(md|txt)$/i.test(n) && n !== 'expected.json') out.push(p); } return out; }
function x4(text: string, path: string) { const keys = path.endsWith('.json') ? ['max_position_embeddings','seq_length'] : ['sequence_len','cutoff_len','max_seq_len','max_seq_length','seq_length','seq-length','max_position_embeddings']; for (const k of keys) { const re = new RegExp(`("?${k}"?\\s*[:=]\\s*)(\\d+)`); if (re.test(text)) return text.replace(re, (_a, p: string, n: string) => `${p}${Number(n) * 4}`); } return undefined; }
(async () => {
  const shellParser = await loadShellParser(); const oracle = createSyncOracle();
  const cases: [string, string][] = files('test/fixtures').map((p) => [p, readFileSync(p, 'utf8')]);
  for (const d of ['test/fixtures/corpus/models', 'test/fixtures/corpus/training']) for (const p of files(d)) { const t = x4(readFileSync(p, 'utf8'), p); if (t) cases.push([p + ' x4', t]); }
  let total = 0, refused = 0;
  for (const [name, text] of cases) {
    const path = name.replace(/ x4$/, '');
    const a = analyzeText(text, { fileName: path, oracle, shellParser, verifyFixes: false });
    const opts = { fileName: path, oracle, shellParser, verifyFixes: false };
    const x = { text, lines: new LineIndex(text), analysis: a, reanalyse: (t: string) => analyzeText(t, opts), consumer: { fileName: path, readLaunch: (t: string) => readLaunchFile(t, path, { shell: shellParser }) } };
    const parse = consumerProblems({ ...x.consumer, text });
    for (const d of a.diagnostics) for (const f of d.fixes) { total++; const why = checkFix(x, d, f, { parse }); if (why) { refused++; console.log(`${name} | ${d.code} | ${f.title.slice(0, 90)} | ${why.slice(0, 200)}`); } }
  }
  console.log('total', total, 'refused', refused);
})();
