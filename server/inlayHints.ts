/**
 * `b* ≈ 629,979 for 32,768` (b* rounded up to a figure valid for L) beside rope_theta, as an inlay hint or a code lens (setting
 * `ropeLens.hints`). Shows "computing" until the bound is known; the server refreshes hints when
 * it arrives.
 */
import { CodeLens, InlayHint, InlayHintKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { BoundOracle, FileAnalysis } from '../shared/service/types';
import type { TransformersVariant } from '../shared/rope/spec';
import { ropeFacts } from '../shared/service/ropeFacts';
import { grouped } from '../shared/core/format';
import { OPEN_INSPECTOR_COMMAND } from './hover';

function hintText(analysis: FileAnalysis, oracle: BoundOracle, variant: TransformersVariant): string | undefined {
  if (!analysis.rope) return undefined;
  const f = ropeFacts(analysis.rope, oracle, variant);
  // The figure is b* rounded up to one that is itself valid for L: a printed base never fails the bound.
  const bstar = f.bstarShown === undefined ? 'b* computing…' : `b* ≈ ${f.bstarShown}`;
  return `${bstar} for ${grouped(f.contextLength)}`;
}

export function inlayHintsFor(doc: TextDocument, analysis: FileAnalysis, oracle: BoundOracle, variant: TransformersVariant): InlayHint[] {
  const node = analysis.rope?.base.node;
  const label = hintText(analysis, oracle, variant);
  if (!node || !label) return [];
  return [
    {
      position: doc.positionAt(node.offset + node.length),
      label,
      kind: InlayHintKind.Parameter,
      paddingLeft: true,
      tooltip: 'Exact b*(L, d): the smallest RoPE base for which Σcos(m·θᵢ) stays ≥ 0 for every position m < L',
    },
  ];
}

export function codeLensesFor(doc: TextDocument, analysis: FileAnalysis, oracle: BoundOracle, variant: TransformersVariant): CodeLens[] {
  const node = analysis.rope?.base.node;
  const label = hintText(analysis, oracle, variant);
  if (!node || !label) return [];
  const start = doc.positionAt(node.keyOffset ?? node.offset);
  return [
    {
      range: { start, end: start },
      command: { title: `${label} · Open RoPE Inspector`, command: OPEN_INSPECTOR_COMMAND, arguments: [doc.uri] },
    },
  ];
}
