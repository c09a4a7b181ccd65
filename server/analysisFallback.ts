/**
 * TEMPORARY stand-in for shared/service/analyze.ts (the analysis service) until it lands, so the
 * server's plumbing can be exercised: it sniffs HF configs and flags a legacy `type` key inside
 * `rope_scaling`, with one rename fix. No RoPE math here.
 */
import { parseDocumentText, formatOf } from '../shared/document/parse';
import { child } from '../shared/document/configNode';
import { isModelConfig, readModelRope } from '../shared/config/modelConfig';
import type { BoundOracle, FileAnalysis, Finding } from '../shared/service/types';

export interface AnalyzeOptions { fileName: string; languageId?: string; oracle: BoundOracle; variant?: 'v4' | 'v5'; severityOverrides?: Record<string, string>; force?: boolean }

export function analyzeText(text: string, opts: AnalyzeOptions): FileAnalysis {
  const format = formatOf(opts.languageId ?? '') ?? formatOf(opts.fileName) ?? 'json';
  const doc = parseDocumentText(text, format);
  const root = doc.root;
  const isModel = isModelConfig(doc) || (opts.force === true && !!root);
  const out: FileAnalysis = { kind: isModel ? 'model-config' : 'other', rope: null, training: null, diagnostics: [], pendingBounds: [] };
  if (isModel) out.rope = readModelRope(doc) ?? null;
  if (!isModel) return out;
  const scaling = child(root, 'rope_scaling');
  const legacy = child(scaling, 'type');
  if (legacy && legacy.keyOffset !== undefined && !child(scaling, 'rope_type')) {
    const range = doc.lines.rangeOf(legacy.keyOffset, legacy.keyLength ?? 0);
    const f: Finding = {
      code: 'legacy-type-key', severity: 'information', message: '`type` is the legacy spelling of `rope_type`', range,
      fixes: [{ title: 'Rename `type` to `rope_type`', kind: 'other', preferred: true, edits: [{ range, newText: format === 'json' ? '"rope_type"' : 'rope_type' }] }],
    };
    out.diagnostics.push(f);
  }
  return out;
}
