/**
 * Each rule page shows, under its bad example, the finding RoPE Lens gives that example: a
 * generated ```text finding``` block with the severity, the code and the headline, so a reader sees
 * a concrete file and what it gets (issue 33). test/unit/rulePages.test.ts checks the blocks match
 * what the service says today; `npm run docs:rules` rewrites them
 * (`node --import tsx test/support/rulePageFindings.ts --write`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageExamples, rulePages } from '../../server/cli/rulePages';
import type { RopeLensService } from '../../shared/service/service';

/** The block that follows a bad example: one line per finding of the page's code. */
const BLOCK = /\n\nRoPE Lens says:\n\n```text finding\n[\s\S]*?\n```\n/g;

/** The headline lines the page's code gets on one example file. */
export function findingLines(service: RopeLensService, code: string, fileName: string, text: string): string[] {
  const path = join('/rope-lens-examples', code, fileName);
  const found = fileName.endsWith('.gguf')
    ? service.analyzeGguf(JSON.parse(text), undefined, path).diagnostics
    : service.analyze(text, { fileName: path }).diagnostics;
  return found.filter((d) => d.code === code).map((d) => `${d.severity} ${d.code}: ${d.message}`);
}

/** The page with a finding block after each bad example (an existing block is replaced, never duplicated). */
export function renderPageFindings(service: RopeLensService, code: string, page: string): string {
  const bare = page.replace(BLOCK, '\n');
  const lines = bare.split('\n');
  const examples = pageExamples(bare).filter((e) => e.role === 'bad');
  // From the last example up, so earlier line numbers stay right.
  for (const ex of [...examples].reverse()) {
    let close = ex.line; // the fence's 1-based line is lines[ex.line - 1]; find its closing fence
    while (close < lines.length && !/^```\s*$/.test(lines[close])) close++;
    const said = findingLines(service, code, ex.fileName, ex.text);
    if (!said.length) continue;
    lines.splice(close + 1, 0, '', 'RoPE Lens says:', '', '```text finding', ...said, '```');
  }
  return lines.join('\n');
}

if (require.main === module && process.argv.includes('--write')) {
  void (async () => {
    const { createRopeLensService } = await import('../../shared/service/service');
    const { createSyncOracle } = await import('../../shared/service/syncOracle');
    const { loadShellParser } = await import('../../shared/node/shellParser');
    const { ACTIVE_CODES, codePage } = await import('../../shared/core/codes');
    const shell = await loadShellParser();
    const service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell });
    const pages = rulePages();
    for (const { code } of ACTIVE_CODES) {
      const page = pages.get(code);
      if (!page) continue;
      const next = renderPageFindings(service, code, page);
      if (next !== page) writeFileSync(join(__dirname, '..', '..', codePage(code)), next);
    }
  })();
}
