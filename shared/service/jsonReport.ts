/** The CLI's `--json` shape (see docs/check.md): plain values, 0-based LSP ranges. */
import type { ModelRope } from '../config/modelRope';
import type { FileAnalysis, Finding } from './types';
import { toPlain, type Plain } from '../config/wire';

const RESHAPED: ReadonlySet<string> = new Set<Reshaped>([
  'base',
  'headDim',
  'rotaryDim',
  'partialRotaryFactor',
  'contextLength',
  'originalContextLength',
  'scaling',
  'groups',
  'trainedContext',
  'identity',
]);

/** ModelRope fields the report writes in its own, historical form (users and tests rely on these keys). */
type Reshaped =
  | 'base'
  | 'headDim'
  | 'rotaryDim'
  | 'partialRotaryFactor'
  | 'contextLength'
  | 'originalContextLength'
  | 'scaling'
  | 'groups'
  | 'trainedContext'
  | 'identity';

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
  /** Every distinct attention group (advice.md): base, rotary dim and reach per layer type. */
  groups: JsonGroup[];
  trainedContext: { value: number; source: string } | null;
  identity: { id: string; via: string; candidates?: string[] } | null;
}

export interface JsonGroup {
  layerType: string;
  layers: number | null;
  base: number | null;
  /** null when a class default applies (or the layers have no RoPE). */
  baseKey: string | null;
  rotaryDim: number | null;
  /** null for full attention. */
  window: number | null;
  reach: number;
  /** For NoPE layers: why they have no rotary embedding. */
  noRope?: string;
  /** Where the layer mix was read from, or what is assumed when no pattern was understood. */
  pattern?: string;
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
  serving?: FileAnalysis['serving'];
  /** Launch files: what each invocation asks for (engine or trainer, model, length, overrides). */
  launches?: FileAnalysis['launches'];
  diagnostics: JsonDiagnostic[];
  /** Findings silenced by a suppression comment (`inSource`) or the project file (`external`). */
  suppressed?: (Omit<JsonDiagnostic, 'fixes'> & { suppression: { kind: 'inSource' | 'external'; justification: string } })[];
}

export interface JsonDiagnostic {
  code: string;
  severity: Finding['severity'];
  message: string;
  /** The explanation behind the headline, when the finding has one. */
  detail?: string;
  range: Finding['range'];
  fixes: {
    title: string;
    kind: Finding['fixes'][number]['kind'];
    preferred: boolean;
    edits: Finding['fixes'][number]['edits'];
    verdict?: Finding['fixes'][number]['verdict'];
  }[];
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
    groups: (r.groups ?? []).map(groupToJson),
    trainedContext: r.trainedContext ? { value: r.trainedContext.value, source: r.trainedContext.source } : null,
    identity: r.identity ? { ...r.identity } : null,
  };
}

function groupToJson(g: NonNullable<ModelRope['groups']>[number]): JsonGroup {
  const out: JsonGroup = {
    layerType: g.layerType,
    layers: g.layers,
    base: g.base ? known(g.base.value) : null,
    baseKey: g.base?.key ?? null,
    rotaryDim: g.rotaryDim ? known(g.rotaryDim.value) : null,
    window: g.window ? g.window.value : null,
    reach: g.reach,
  };
  if (g.noRope) out.noRope = g.noRope;
  if (g.pattern) out.pattern = g.pattern;
  return out;
}

export function toJsonReport(path: string, a: FileAnalysis): JsonFileReport {
  return {
    path,
    kind: a.kind,
    rope: a.rope ? ropeToJson(a.rope) : null,
    ...(a.noRope !== undefined ? { noRope: a.noRope } : {}),
    training: a.training,
    ...(a.serving ? { serving: a.serving } : {}),
    ...(a.launches ? { launches: a.launches } : {}),
    diagnostics: a.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      message: d.message,
      ...(d.detail ? { detail: d.detail } : {}),
      range: d.range,
      fixes: d.fixes.map((f) => ({
        title: f.title,
        kind: f.kind,
        preferred: f.preferred === true,
        edits: f.edits,
        ...(f.verdict ? { verdict: f.verdict } : {}),
      })),
    })),
    ...(a.suppressed?.length
      ? {
          suppressed: a.suppressed.map((x) => ({
            code: x.finding.code,
            severity: x.finding.severity,
            message: x.finding.message,
            range: x.finding.range,
            suppression: { kind: x.kind, justification: x.justification },
          })),
        }
      : {}),
  };
}
