/**
 * The one place the server calls the analysis service. It maps settings onto the service's
 * options and applies the user's "preferred rewrite" to the fixes; everything else (rules,
 * fixes, edits) is the service's.
 */
import { analyzeText } from './analysisFallback';
import type { BoundOracle, FileAnalysis, Finding } from '../shared/service/types';
import type { RopeLensSettings } from './settings';

export interface AnalyzeRequest {
  fileName: string;
  languageId?: string;
  settings: RopeLensSettings;
  oracle: BoundOracle;
  /** Treat the file as a model config even when sniffing says otherwise. */
  forceModelConfig?: boolean;
}

export function analyze(text: string, req: AnalyzeRequest): FileAnalysis {
  if (!req.settings.enable) return { kind: 'other', rope: null, training: null, diagnostics: [], pendingBounds: [] };
  const analysis = analyzeText(text, {
    fileName: req.fileName,
    languageId: req.languageId,
    variant: req.settings.transformersVersion,
    oracle: req.oracle,
    severityOverrides: req.settings.severity,
    force: req.forceModelConfig,
  });
  if (req.settings.preferredRewrite !== 'auto') {
    for (const f of analysis.diagnostics) preferKind(f, req.settings.preferredRewrite);
  }
  return analysis;
}

/** Marks the fix of the user's preferred kind as preferred, when the finding offers one. */
function preferKind(finding: Finding, kind: string): void {
  if (!finding.fixes.some((x) => x.kind === kind)) return;
  for (const fix of finding.fixes) fix.preferred = fix.kind === kind;
}
