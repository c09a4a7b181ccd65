/** Findings → LSP diagnostics: severity (after the user's per-rule setting), code, docs link, related info. */
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { DIAGNOSTIC_SOURCE, RULE_PAGES_DIR } from '../shared/protocol/messages';
import type { Finding, FileAnalysis, Severity } from '../shared/service/types';
import type { RopeLensSettings } from './settings';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The repository's rule pages: where links point when no copy ships beside the server (the platform's docsBase). */
export const REPOSITORY_PAGES = 'https://github.com/rope-lens/rope-lens/blob/main/' + RULE_PAGES_DIR;

/** The page of a code under a base from the platform's docsBase. */
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
