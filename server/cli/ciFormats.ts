/**
 * `rope-lens check --format sarif|github`: the findings in the two forms CI systems read.
 *
 * SARIF 2.1.0 (GitHub code scanning and other SARIF viewers): one run; the tool's rules from the
 * code registry, each with its page (docs/rules/<code>.md, built into the bundle) as help and a link
 * to it; results whose regions use the text output's convention (1-based line and column, UTF-16
 * code units; the end column is exclusive); each verified quick fix as a SARIF fix (deleted region +
 * inserted text per edit); findings silenced by a comment or the project file as results with a
 * `suppressions` entry (inSource / external), so code scanning shows them as suppressed.
 *
 * GitHub workflow commands: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`,
 * with GitHub's escaping (data: % CR LF; properties additionally : and ,).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Severity } from '../../shared/core/findings';
import type { Range } from '../../shared/core/range';
import type { JsonFileReport } from '../../shared/service/jsonReport';
import type { GgufFileReport } from './checkGguf';
import { FINDING_CODES, codeInfo, codePage } from '../../shared/core/codes';
import { pageSummary, rulePages } from './rulePages';

export const REPOSITORY_URL = 'https://github.com/rope-lens/rope-lens';

export type FileReport = JsonFileReport | GgufFileReport;

export interface RuleDoc {
  code: string;
  /** One sentence (the registry's summary). */
  summary: string;
  /** The page (Markdown). */
  markdown: string;
}

/** Every registered code with its page (built into the bundle; see rulePages.ts). */
export function readRuleDocs(): Map<string, RuleDoc> {
  const pages = rulePages();
  return new Map(FINDING_CODES.map((i) => [i.code, { code: i.code, summary: i.summary, markdown: pages.get(i.code) ?? i.summary }]));
}

/** A page's address in the repository. */
export function ruleHelpUri(code: string): string {
  return `${REPOSITORY_URL}/blob/main/${codePage(code)}`;
}

/** Code scanning keeps rule descriptions to 1,024 characters. */
const brief = (text: string) => (text.length <= 1000 ? text : `${text.slice(0, 999)}…`);

/** Markdown emphasis and code marks dropped, for SARIF's plain-text fields. */
const plain = (md: string) => md.replace(/\*\*(.+?)\*\*/g, '$1').replace(/`([^`]+)`/g, '$1');

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/** An LSP range (0-based) as a SARIF region (1-based; end column exclusive, as LSP's end character). */
export function sarifRegion(r: Range): { startLine: number; startColumn: number; endLine: number; endColumn: number } {
  return { startLine: r.start.line + 1, startColumn: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** A report path as a URI relative to the run's base (forward slashes, percent-encoded). */
function artifactUri(path: string, baseDir: string): { uri: string; uriBaseId?: string } {
  const abs = resolve(path);
  const rel = relative(baseDir, abs);
  if (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '') {
    return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
  }
  return { uri: pathToFileURL(abs).toString() };
}

export interface SarifOptions {
  /** Paths in the results are relative to this folder (SRCROOT); default the working directory. */
  baseDir?: string;
  version?: string;
  rules?: Map<string, RuleDoc>;
}

/** The SARIF 2.1.0 log of one check run. */
export function toSarif(reports: readonly FileReport[], opts: SarifOptions = {}): object {
  const baseDir = resolve(opts.baseDir ?? '.');
  const docs = opts.rules ?? readRuleDocs();
  // Every documented rule, so a viewer can show help for codes with no result in this run; then any undocumented code seen.
  const codes = [...docs.keys()];
  const suppressedOf = (r: FileReport) => ('suppressed' in r && r.suppressed ? r.suppressed : []);
  for (const r of reports) for (const d of [...r.diagnostics, ...suppressedOf(r)]) if (!codes.includes(d.code)) codes.push(d.code);
  const index = new Map(codes.map((c, i) => [c, i]));
  const rules = codes.map((code) => {
    const doc = docs.get(code);
    const helpUri = ruleHelpUri(code);
    const summary = doc?.summary ?? `RoPE Lens rule ${code}.`;
    const level = codeInfo(code)?.severity;
    return {
      id: code,
      name: code
        .split('/')
        .pop()!
        .replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase()),
      shortDescription: { text: brief(plain(summary)) },
      fullDescription: { text: brief(plain(doc ? pageSummary(doc.markdown) || summary : summary)) },
      help: { text: `${plain(doc?.markdown ?? summary)}\n\n${helpUri}`, markdown: `${doc?.markdown ?? summary}\n\n[${code}](${helpUri})` },
      helpUri,
      ...(level ? { defaultConfiguration: { level: SARIF_LEVEL[level] } } : {}),
    };
  });
  const results = reports.flatMap((report) => {
    const artifact = artifactUri(report.path, baseDir);
    return report.diagnostics
      .map((d) => {
        const range = 'range' in d ? d.range : undefined;
        const location = { physicalLocation: { artifactLocation: artifact, ...(range ? { region: sarifRegion(range) } : {}) } };
        const fixes =
          'fixes' in d && d.fixes.length
            ? d.fixes.map((f) => ({
                description: { text: f.title },
                artifactChanges: [
                  {
                    artifactLocation: artifact,
                    replacements: f.edits.map((e) => ({ deletedRegion: sarifRegion(e.range), insertedContent: { text: e.newText } })),
                  },
                ],
              }))
            : undefined;
        const key = 'key' in d && d.key ? ` [${d.key}]` : '';
        return {
          ruleId: d.code,
          ruleIndex: index.get(d.code)!,
          level: SARIF_LEVEL[d.severity],
          message: { text: d.message + key },
          locations: [location],
          ...(fixes ? { fixes } : {}),
          properties: { severity: d.severity },
        };
      })
      .concat(
        suppressedOf(report).map((d) => ({
          ruleId: d.code,
          ruleIndex: index.get(d.code)!,
          level: SARIF_LEVEL[d.severity],
          message: { text: d.message },
          locations: [{ physicalLocation: { artifactLocation: artifact, region: sarifRegion(d.range) } }],
          suppressions: [{ kind: d.suppression.kind, justification: d.suppression.justification }],
          properties: { severity: d.severity },
        })),
      );
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'RoPE Lens',
            informationUri: REPOSITORY_URL,
            ...(opts.version ? { semanticVersion: opts.version, version: opts.version } : {}),
            rules,
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(baseDir + sep).toString() } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/** GitHub's escaping of a workflow command's message. */
export function escapeGithubData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub's escaping of a workflow command's property value (adds : and ,). */
export function escapeGithubProperty(s: string): string {
  return escapeGithubData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const GITHUB_COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

/**
 * One workflow command per finding (`::error file=…,line=…,col=…::…`). Paths inside the working
 * directory (the workspace, in a workflow) are written relative to it, as annotations need.
 */
export function toGithub(reports: readonly FileReport[], baseDir = '.'): string[] {
  const base = resolve(baseDir);
  const lines: string[] = [];
  for (const report of reports) {
    const rel = relative(base, resolve(report.path));
    const file = (rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : report.path).split(sep).join('/');
    for (const d of report.diagnostics) {
      const props: [string, string | number][] = [['file', file]];
      if ('range' in d && d.range) {
        const r = sarifRegion(d.range);
        props.push(['line', r.startLine], ['col', r.startColumn], ['endLine', r.endLine], ['endColumn', r.endColumn]);
      }
      props.push(['title', `RoPE Lens ${d.code}`]);
      const key = 'key' in d && d.key ? ` [${d.key}]` : '';
      const body = props.map(([k, v]) => `${k}=${escapeGithubProperty(String(v))}`).join(',');
      lines.push(`::${GITHUB_COMMAND[d.severity]} ${body}::${escapeGithubData(d.message + key)}`);
    }
  }
  return lines;
}
