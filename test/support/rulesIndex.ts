/**
 * docs/rules.md is the index of the rule pages: its table between the `codes` markers is generated
 * from the registry (shared/core/codes.ts), so it cannot drift. test/unit/rulePages.test.ts checks it;
 * `npm run docs:rules` rewrites it (`node --import tsx test/support/rulesIndex.ts --write`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FINDING_CODES } from '../../shared/core/codes';

const START = '<!-- codes:start (generated from shared/core/codes.ts: npm run docs:rules) -->';
const END = '<!-- codes:end -->';

/** The index text: `current` with its generated table replaced (appended when the markers are missing). */
export function renderRulesIndex(current: string): string {
  const rows = FINDING_CODES.map((i) => {
    const sev = i.retired ? 'retired' : [i.severity, ...(i.also ?? [])].join(', ');
    return `| [\`${i.code}\`](rules/${i.code}.md) | ${sev} | ${i.summary.replace(/\|/g, '\\|')}${i.retired ? ' No longer reported.' : ''} |`;
  });
  const retired = FINDING_CODES.filter((i) => i.retired).length;
  const table = [
    START,
    '',
    `${FINDING_CODES.length} codes${retired ? ` (${retired} retired: kept so that suppressions naming them stay valid)` : ''}.`,
    '',
    '| Code | Severity | What it reports |',
    '|---|---|---|',
    ...rows,
    '',
    END,
  ].join('\n');
  const a = current.indexOf(START);
  const b = current.indexOf(END);
  if (a < 0 || b < a) return `${current.trimEnd()}\n\n${table}\n`;
  return current.slice(0, a) + table + current.slice(b + END.length);
}

if (require.main === module && process.argv.includes('--write')) {
  const file = join(__dirname, '..', '..', 'docs', 'rules.md');
  writeFileSync(file, renderRulesIndex(readFileSync(file, 'utf8')));
}
