/**
 * Quick fixes: one code action per Fix the analysis offers for a finding under the cursor, the
 * preferred one marked; and `source.fixAll.ropeLens`, which applies each finding's preferred fix
 * when the findings' edits do not overlap. Edits are the service's own minimal edits, sent as a
 * versioned change so a client applying them to a newer text refuses instead of corrupting it.
 */
import { CodeAction, CodeActionKind, CodeActionParams, Diagnostic, TextDocumentEdit, WorkspaceEdit, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { FIX_ALL_KIND } from '../shared/protocol/messages';
import type { FileAnalysis, Finding, Fix } from '../shared/service/types';
import type { Range, Position } from '../shared/document/positions';
import type { ClientSupport } from './context';
import { toDiagnostic } from './diagnostics';
import type { RopeLensSettings } from './settings';
import { SERVING_SOURCE_KIND, servingSourceActions } from './servingActions';

export function codeActionsFor(
  doc: TextDocument,
  analysis: FileAnalysis,
  params: CodeActionParams,
  settings: RopeLensSettings,
  support: ClientSupport,
  docsBase: string,
): CodeAction[] {
  const only = params.context.only;
  const wants = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(o + '.'));
  const out: CodeAction[] = [];

  if (wants(CodeActionKind.QuickFix)) {
    for (const finding of analysis.diagnostics) {
      if (settings.severity[finding.code] === 'off') continue;
      if (!overlaps(finding.range, params.range)) continue;
      const diagnostic = toDiagnostic(finding, doc.uri, settings, docsBase) as Diagnostic;
      for (const fix of finding.fixes) {
        out.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: fix.preferred === true,
          edit: workspaceEdit(doc, fix.edits, support),
        });
      }
    }
  }

  if (wants(FIX_ALL_KIND) && (only?.length ?? 0) > 0) {
    const edits = fixAllEdits(analysis.diagnostics.filter((f) => settings.severity[f.code] !== 'off'));
    if (edits.length) {
      out.push({ title: 'Fix all RoPE Lens findings with a preferred fix', kind: FIX_ALL_KIND, edit: workspaceEdit(doc, edits, support) });
    }
  }
  if ((only?.length ?? 0) > 0 && wants(SERVING_SOURCE_KIND)) out.push(...servingSourceActions(doc, analysis, support.createFiles === true));
  return out;
}

/**
 * The preferred fix of every finding that has exactly one preferred fix, skipping any fix whose
 * edits touch a range already edited (two findings rewriting the same key).
 */
export function fixAllEdits(findings: Finding[]): TextEdit[] {
  const taken: Range[] = [];
  const out: TextEdit[] = [];
  for (const finding of findings) {
    const preferred = finding.fixes.filter((f: Fix) => f.preferred);
    if (preferred.length !== 1) continue;
    const edits = preferred[0].edits;
    if (edits.some((e) => taken.some((t) => touches(t, e.range)))) continue;
    for (const e of edits) {
      taken.push(e.range);
      out.push(e);
    }
  }
  return out;
}

function workspaceEdit(doc: TextDocument, edits: TextEdit[], support: ClientSupport): WorkspaceEdit {
  if (support.documentChanges) {
    return { documentChanges: [TextDocumentEdit.create({ uri: doc.uri, version: doc.version }, edits)] };
  }
  return { changes: { [doc.uri]: edits } };
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Ranges intersect or touch (a cursor at either end of a finding counts). */
export function overlaps(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** Edit ranges conflict when they overlap or share an insertion point. */
function touches(a: Range, b: Range): boolean {
  return overlaps(a, b);
}
