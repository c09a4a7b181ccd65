/**
 * The analysis service's result: what a document is and what was found in it. Findings and fixes
 * are defined below the service (shared/core/findings) and re-exported here for the front-ends.
 */
import type { ModelRope } from '../config/modelRope';
import type { PendingBound } from '../core/findings';

export type { Severity, TextEdit, FixKind, Fix, FixVerdict, Finding, BoundOracle, PendingBound } from '../core/findings';
import type { Finding } from '../core/findings';

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
  pendingBounds: PendingBound[];
}
