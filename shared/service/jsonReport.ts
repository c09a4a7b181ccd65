/** The CLI's `--json` shape (see README): plain values, 0-based LSP ranges. */
import type { ModelRope } from '../config/modelRope';
import type { FileAnalysis, Finding } from './types';

export interface JsonRope {
  base: number | null;
  baseKey: string | null;
  rotaryDim: number | null;
  headDim: number | null;
  contextLength: number | null;
  contextKey: string | null;
  originalContextLength: number | null;
  scaling: ({ type: string } & Record<string, unknown>) | null;
  partialRotaryFactor: number | null;
}

export interface JsonFileReport {
  path: string;
  kind: FileAnalysis['kind'];
  rope: JsonRope | null;
  training: FileAnalysis['training'];
  serving?: FileAnalysis['serving'];
  diagnostics: { code: string; severity: Finding['severity']; message: string; range: Finding['range']; fixes: { title: string; edits: Finding['fixes'][number]['edits'] }[] }[];
}

/** Unknown values (NaN: the base model was not found) are null in JSON. */
const known = (n: number): number | null => (Number.isFinite(n) ? n : null);

export function ropeToJson(r: ModelRope): JsonRope {
  let scaling: JsonRope['scaling'] = null;
  if (r.scaling && r.scaling.type !== 'default' && (r.scaling.type !== undefined || r.scaling.rawType)) {
    scaling = { type: r.scaling.type ?? r.scaling.rawType!.value };
    for (const [k, v] of Object.entries(r.scaling.params)) {
      if (k === 'rope_type' || k === 'type') continue;
      scaling[k] = v.value;
    }
  }
  return {
    base: known(r.base.value),
    baseKey: r.base.key ?? null,
    rotaryDim: known(r.rotaryDim.value),
    headDim: known(r.headDim.value),
    contextLength: known(r.contextLength.value),
    contextKey: r.contextLength.key ?? null,
    originalContextLength: r.originalContextLength?.value ?? null,
    scaling,
    partialRotaryFactor: known(r.partialRotaryFactor.value),
  };
}

export function toJsonReport(path: string, a: FileAnalysis): JsonFileReport {
  return {
    path,
    kind: a.kind,
    rope: a.rope ? ropeToJson(a.rope) : null,
    training: a.training,
    ...(a.serving ? { serving: a.serving } : {}),
    diagnostics: a.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      message: d.message,
      range: d.range,
      fixes: d.fixes.map((f) => ({ title: f.title, edits: f.edits })),
    })),
  };
}
