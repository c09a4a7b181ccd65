import { readFileSync } from 'node:fs';
import { analyzeText } from '/work/wt-fixcheck/shared/service/analyze';
import { createSyncOracle } from '/work/wt-fixcheck/shared/service/syncOracle';
import { applyTextEdits } from '/work/wt-fixcheck/shared/fixes/textEdits';
import { LineIndex } from '/work/wt-fixcheck/shared/document/positions';
import { loadShellParser } from '/work/wt-fixcheck/shared/node/shellParser';
(async () => {
  const shellParser = await loadShellParser();
  const oracle = createSyncOracle();
  const [file, name] = process.argv.slice(2);
  const text = readFileSync(file, 'utf8');
  const fileName = name ?? file;
  const run = (t: string) => analyzeText(t, { fileName, oracle, shellParser, verifyFixes: process.env.NOVERIFY ? false : undefined });
  const a = run(text);
  const show = (x: typeof a, ind = '') => x.diagnostics.forEach((d) => console.log(ind + d.severity, d.code, `L${d.range.start.line + 1}:${d.range.start.character}`, d.message.slice(0, 220)));
  console.log('kind', a.kind);
  show(a);
  for (const d of a.diagnostics) for (const f of d.fixes) {
    const next = applyTextEdits(text, new LineIndex(text), f.edits);
    console.log(`\n== FIX ${f.preferred ? '(preferred) ' : ''}[${d.code}] ${f.title}`);
    for (const e of f.edits) console.log('   edit', JSON.stringify(e.range), JSON.stringify(e.newText));
    if (process.env.SHOW) console.log(next);
    show(run(next), '   -> ');
  }
})();
