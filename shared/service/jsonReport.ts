/** The CLI's `--json` shape (see README): plain values, 0-based LSP ranges. */
import type { ModelRope } from '../config/modelRope';
import type { FileAnalysis, Finding } from './types';
import { toPlain, type Plain } from '../config/wire';

const RESHAPED: ReadonlySet<string> = new Set<Reshaped>(['base', 'headDim', 'rotaryDim', 'partialRotaryFactor', 'contextLength', 'originalContextLength', 'scaling']);

/** ModelRope fields the report writes in its own, historical form (users and tests rely on these keys). */
type Reshaped = 'base' | 'headDim' | 'rotaryDim' | 'partialRotaryFactor' | 'contextLength' | 'originalContextLength' | 'scaling';

export interface JsonRopeCore {
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

/** The rope in `--json`: the core keys above, plus every other ModelRope field with located values unwrapped. */
export type JsonRope = JsonRopeCore & { [K in Exclude<keyof ModelRope, Reshaped>]?: Plain<ModelRope[K]> };

export interface JsonFileReport {
  path: string;
  kind: FileAnalysis['kind'];
  rope: JsonRope | null;
  /** A model config without rotary embeddings: why. */
  noRope?: string;
  training: FileAnalysis['training'];
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
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (!RESHAPED.has(k) && v !== undefined) rest[k] = toPlain(v);
  return {
    ...(rest as Omit<JsonRope, keyof JsonRopeCore>),
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
    ...(a.noRope !== undefined ? { noRope: a.noRope } : {}),
    training: a.training,
    diagnostics: a.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      message: d.message,
      range: d.range,
      fixes: d.fixes.map((f) => ({ title: f.title, edits: f.edits })),
    })),
  };
}
