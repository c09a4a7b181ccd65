/** Findings → LSP diagnostics: severity (after the user's per-rule setting), code, docs link, related info. */
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIAGNOSTIC_SOURCE, RULE_PAGES_DIR } from '../shared/protocol/messages';
import type { Finding, FileAnalysis, Severity } from '../shared/service/types';
import type { RopeLensSettings } from './settings';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

const REPOSITORY_PAGES = 'https://github.com/rope-lens/rope-lens/blob/main/' + RULE_PAGES_DIR;

/**
 * Where `codeDescription` points: the rule pages shipped next to the bundle (the .vsix carries
 * docs/rules/, so the link opens offline), else the repository's copy. Each code's page is
 * `<base>/<code>.md`.
 */
export function rulesDocBase(bundleDir: string = __dirname): string {
  for (const candidate of [join(bundleDir, '..', RULE_PAGES_DIR), join(bundleDir, '..', '..', RULE_PAGES_DIR)]) {
    if (existsSync(candidate)) return pathToFileURL(candidate).toString();
  }
  return REPOSITORY_PAGES;
}

/** The page of a code under a base from rulesDocBase. */
export function rulePageHref(docsBase: string, code: string): string {
  return `${docsBase}/${code.split('/').map(encodeURIComponent).join('/')}.md`;
}

export function toDiagnostic(finding: Finding, uri: string, settings: RopeLensSettings, docsBase: string): Diagnostic | undefined {
  const severity = settings.severity[finding.code] ?? finding.severity;
  if (severity === 'off') return undefined;
  const d: Diagnostic = {
    range: finding.range,
    severity: SEVERITY[severity],
    code: finding.code,
    codeDescription: { href: rulePageHref(docsBase, finding.code) },
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
  };
  // The headline is the message; the explanation behind it is related information on the same range.
  const related = [...(finding.detail ? [{ range: finding.range, message: finding.detail }] : []), ...(finding.related ?? [])];
  if (related.length) {
    d.relatedInformation = related.map((r) => ({ location: { uri, range: r.range }, message: r.message }));
  }
  return d;
}

export function diagnosticsOf(analysis: FileAnalysis, uri: string, settings: RopeLensSettings, docsBase: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of analysis.diagnostics) {
    const d = toDiagnostic(f, uri, settings, docsBase);
    if (d) out.push(d);
  }
  return out;
}
