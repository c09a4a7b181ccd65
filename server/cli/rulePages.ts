/**
 * The rule pages (docs/rules/<code>.md), as `rope-lens rules CODE` prints them and SARIF's rule help
 * carries them. The bundle has them built in: esbuild.mjs defines ROPE_LENS_RULE_PAGES from
 * docs/rules/ at build time, so the installed CLI never reads docs/ (nor depends on the working
 * directory). Run from the sources (tests), the pages are read from the source tree beside this file.
 *
 * A page's examples are fenced blocks whose info string says what they are, so a test can run them:
 *   ```yaml bad train.yaml         (the finding appears)
 *   ```json good config.json       (it does not)
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

declare const ROPE_LENS_RULE_PAGES: Record<string, string> | undefined;

const SOURCE_DIR = join(__dirname, '..', '..', 'docs', 'rules');

/** Every page, code → Markdown (the code is the page's path below docs/rules/, without `.md`). */
export function rulePages(): Map<string, string> {
  if (typeof ROPE_LENS_RULE_PAGES !== 'undefined') return new Map(Object.entries(ROPE_LENS_RULE_PAGES));
  return readRulePages(SOURCE_DIR);
}

/** The pages under a folder (build time: esbuild.mjs; unbundled runs: the source tree). */
export function readRulePages(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out.set(relative(dir, p).split(sep).join('/').replace(/\.md$/, ''), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

export interface RuleExample {
  role: 'bad' | 'good';
  /** The file name the example is checked as (its kind follows from it, as for a real file). */
  fileName: string;
  language: string;
  text: string;
  /** 1-based line of the fence in the page (for messages). */
  line: number;
}

const FENCE = /^```(\S+)\s+(bad|good)\s+(\S+)\s*$/;

/** The examples of a page: fenced blocks with `<language> bad|good <file name>` info strings. */
export function pageExamples(markdown: string): RuleExample[] {
  const lines = markdown.split('\n');
  const out: RuleExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]);
    if (!m) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^```\s*$/.test(lines[j]); j++) body.push(lines[j]);
    out.push({ language: m[1], role: m[2] as 'bad' | 'good', fileName: m[3], text: body.join('\n') + '\n', line: i + 1 });
    i = j;
  }
  return out;
}

/** A page's first paragraph after the title and the severity line: what the finding says. */
export function pageSummary(markdown: string): string {
  const paras = markdown
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p && !p.startsWith('#') && !p.startsWith('**Severity'));
  return (paras[0] ?? '').replace(/\s*\n\s*/g, ' ');
}
