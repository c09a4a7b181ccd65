/**
 * The analysis service's contract: a pure function of a document's text that the CLI, the
 * language server and the Inspector all call. Nothing here imports VS Code or LSP packages;
 * ranges and edits use LSP's shapes so the server can pass them through unchanged.
 */
import type { Range } from '../document/positions';
import type { ModelRope } from '../config/modelRope';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface TextEdit { range: Range; newText: string }

export type FixKind = 'ntk' | 'yarn' | 'linear' | 'dynamic' | 'llama3' | 'raise-base' | 'other';

export interface Fix {
  title: string;
  kind: FixKind;
  /** The one fix an editor may apply unasked (fixAll) or show first. */
  preferred?: boolean;
  edits: TextEdit[];
}

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  range: Range;
  related?: { range: Range; message: string }[];
  fixes: Fix[];
}

/** Answers about the base bound; the server's implementation may not know yet (undefined). */
export interface BoundOracle {
  /** First m < L with f_b(m) < 0, null if none; undefined while not computed. */
  lmax(base: number, headDim: number, length: number): number | null | undefined;
  /** Exact b*(L, d); undefined while not computed. */
  bstar(length: number, headDim: number): number | undefined;
  /** Smallest base above which every base is valid for L; undefined while not computed. */
  threshold(length: number, headDim: number): number | undefined;
}

export interface TrainingDescription {
  tool: string;
  sequenceLength?: number;
  baseModel?: string;
  /** Where the base model's config came from: a path, `hf-cache:…`, `catalog:…`, or null. */
  resolvedFrom: string | null;
}

export interface FileAnalysis {
  kind: 'model-config' | 'training-config' | 'serving-config' | 'other';
  rope: ModelRope | null;
  /** A model config with no rotary position embedding at all: why (absolute positions, T5 buckets, …). */
  noRope?: string;
  training: TrainingDescription | null;
  /** A serving config (vLLM YAML): the model, where it was found, max-model-len and vLLM's derived length. */
  serving?: import('./analyzeServing').ServingDescription;
  diagnostics: Finding[];
  /** Bound questions the oracle could not answer yet; the server computes them and re-runs. */
  pendingBounds: { length: number; headDim: number; base?: number }[];
}
