/**
 * The one place the server calls the analysis service. It maps settings onto the service's
 * options and applies the user's "preferred rewrite" to the fixes; everything else (rules,
 * fixes, edits) is the service's.
 */
import { dirname, join } from 'node:path';
import { analyzeText } from '../shared/service/analyze';
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
    // Forced ("Check This File as a Model Config"): read it as a config.json would be, past the
    // sniffer's list of names that are never configs (settings.json, generation_config.json…).
    fileName: req.forceModelConfig ? forcedName(req.fileName, req.languageId) : req.fileName,
    languageId: req.languageId,
    variant: req.settings.transformersVersion,
    oracle: req.oracle,
    severityOverrides: req.settings.severity,
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

function forcedName(fileName: string, languageId: string | undefined): string {
  const yaml = languageId === 'yaml' || /\.ya?ml$/i.test(fileName);
  return join(dirname(fileName), yaml ? 'config.yaml' : 'config.json');
}
