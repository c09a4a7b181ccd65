/**
 * A GGUF judged like its config: the header metadata is mapped back to config.json keys, the same
 * analysis runs on them, and each finding names the GGUF key it is about (a binary file has no
 * line to point at, and no text fix: the remedies are llama.cpp flags or a new conversion).
 */
import { analyzeText } from '../service/analyze';
import type { BoundOracle, Finding } from '../service/types';
import type { Located, ModelRope } from '../config/modelRope';
import type { TransformersVariant } from '../rope/spec';
import { readModelRope } from '../config/modelConfig';
import { parseJsonDocument } from '../document/parseJson';
import { catalogConfigText, findCatalogEntry } from '../config/catalog';
import { GgufConfig, GgufMetadata, ggufConfigText, ggufKeyAtLine, ggufToConfig } from './metadata';
import { fmt } from '../rules/context';

export const GGUF_CONTEXT_BEYOND_TRAINED = 'gguf/context-beyond-trained';
export const GGUF_NOT_A_MODEL = 'gguf/no-architecture';

export interface GgufFinding {
  code: string;
  severity: Finding['severity'];
  message: string;
  /** The GGUF metadata key the finding is about, when one is. */
  key: string | null;
}

export interface GgufAnalysis {
  kind: 'gguf';
  rope: ModelRope | null;
  gguf: { architecture: string | null; name: string | null; hubRef: string | null; scalingType: string | null };
  /** The config.json keys the header stands for. */
  config: Record<string, unknown> | null;
  diagnostics: GgufFinding[];
}

/** Findings about keys a GGUF cannot hold: longrope factor lists live in tensors, not in the header. */
const LONGROPE_TENSOR_CODES = new Set(['rope/scaling-missing-key', 'rope/longrope-factor-length']);

export function analyzeGguf(m: GgufMetadata, opts: { oracle: BoundOracle; variant?: TransformersVariant }): GgufAnalysis {
  const g = ggufToConfig(m);
  if (!g) {
    return {
      kind: 'gguf', rope: null, config: null,
      gguf: { architecture: null, name: null, hubRef: null, scalingType: null },
      diagnostics: [{ code: GGUF_NOT_A_MODEL, severity: 'information', message: 'The GGUF header has no general.architecture: not a model file (vocabulary or adapter only?), nothing to check.', key: 'general.architecture' }],
    };
  }
  const text = ggufConfigText(g);
  const analysis = analyzeText(text, { fileName: 'config.json', oracle: opts.oracle, variant: opts.variant, verifyFixes: false });
  const rope = withGgufKeys(g, analysis.rope ?? readModelRope(parseJsonDocument(text)));
  const diagnostics: GgufFinding[] = analysis.diagnostics
    .filter((d) => !(g.scalingType === 'longrope' && LONGROPE_TENSOR_CODES.has(d.code)))
    .map((d) => ({ code: d.code, severity: d.severity, message: d.message, key: ggufKeyAtLine(g, d.range.start.line) ?? null }));
  const beyond = contextBeyondTrained(g);
  if (beyond) diagnostics.push(beyond);
  return {
    kind: 'gguf', rope, config: g.config,
    gguf: { architecture: g.arch, name: g.name ?? null, hubRef: g.hubRef ?? null, scalingType: g.scalingType ?? null },
    diagnostics,
  };
}

/** The RoPE description of a GGUF header: keys named as in the GGUF, the trained context from the catalog when the model is known. */
export function ggufRope(m: GgufMetadata): { config: GgufConfig; rope: ModelRope } | undefined {
  const g = ggufToConfig(m);
  const rope = g && withGgufKeys(g, readModelRope(parseJsonDocument(ggufConfigText(g))));
  return g && rope ? { config: g, rope } : undefined;
}

function withGgufKeys(g: GgufConfig, rope: ModelRope | undefined): ModelRope | null {
  if (!rope) return null;
  const rename = <T>(l: Located<T> | undefined): Located<T> | undefined => (l && l.key && g.keyOf[l.key] ? { ...l, key: g.keyOf[l.key] } : l);
  const out: ModelRope = { ...rope, base: rename(rope.base)!, contextLength: rename(rope.contextLength)!, headDim: rename(rope.headDim)!, rotaryDim: rename(rope.rotaryDim)! };
  if (rope.originalContextLength) out.originalContextLength = rename(rope.originalContextLength);
  const trained = catalogTrainedContext(g);
  if (trained && !rope.trainedContext) out.trainedContext = { value: trained.value, source: `catalog:${trained.id}` };
  return out;
}

/** The trained context of the model a GGUF names (general.* → hub id → catalog), when known and unscaled there. */
function catalogTrainedContext(g: GgufConfig): { value: number; id: string } | undefined {
  if (!g.hubRef) return undefined;
  const entry = findCatalogEntry(g.hubRef);
  const stock = entry && readModelRope(parseJsonDocument(catalogConfigText(entry)));
  if (!entry || !stock) return undefined;
  return { value: stock.originalContextLength?.value ?? stock.contextLength.value, id: entry.id };
}

/**
 * advice.md situation 3 for a GGUF: its context_length is above the length the named model was
 * trained at (from the catalog) and the header carries no scaling, so llama.cpp and Ollama
 * extrapolate every position past it.
 */
function contextBeyondTrained(g: GgufConfig): GgufFinding | undefined {
  const ctx = g.config['max_position_embeddings'];
  if (typeof ctx !== 'number' || g.config['rope_scaling'] || !g.hubRef) return undefined;
  const entry = findCatalogEntry(g.hubRef);
  if (!entry) return undefined;
  const stock = readModelRope(parseJsonDocument(catalogConfigText(entry)));
  if (!stock) return undefined;
  const trained = stock.originalContextLength?.value ?? stock.contextLength.value;
  if (stock.scaling && stock.scaling.type !== 'default') return undefined;
  if (!(ctx > trained)) return undefined;
  const s = ctx / trained;
  return {
    code: GGUF_CONTEXT_BEYOND_TRAINED,
    severity: 'warning',
    message: `${g.arch}.context_length is ${fmt(ctx)}, above the ${fmt(trained)} ${entry.id} was trained at, and the GGUF has no RoPE scaling: llama.cpp and Ollama extrapolate every position past ${fmt(trained)}. Run llama-server with --rope-scaling yarn --rope-scale ${Number(s.toFixed(6))} --yarn-orig-ctx ${trained}, or convert from a config with rope_scaling {"rope_type": "yarn", "factor": ${Number(s.toFixed(6))}, "original_max_position_embeddings": ${trained}}.`,
    key: `${g.arch}.context_length`,
  };
}
