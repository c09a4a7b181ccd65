/**
 * The Inspector's plan view: a context-extension plan as the page draws it (table rows with their
 * text already formatted, wavelength curves per option). Self-contained types, so the webview
 * bundle reaches no planner code; the server builds it (planView.ts) from the planner's Plan.
 */

export const PLAN_TRAINERS = ['axolotl', 'llama-factory', 'torchtune'] as const;
export type PlanTrainer = (typeof PLAN_TRAINERS)[number];

export interface PlanViewRow {
  method: string;
  label: string;
  /** "rope_theta 4,400,000", "factor 8, original 8192", "as configured", … */
  setting: string;
  /** "meets" or "holds to 56,262". */
  bound: string;
  meets: boolean;
  lmax: number;
  criticalDim: number;
  attentionFactor: number;
  change: number;
  recommended: boolean;
  /** "no config key", "inference only". */
  tags: string[];
  /** 2π/θᵢ′ per pair. */
  wavelengths: number[];
}

export interface PlanViewSnippet {
  trainer: PlanTrainer;
  yaml?: string;
  note?: string;
}

export interface PlanViewStage {
  /** 0-based. */
  index: number;
  length: number;
  factor: number;
  rows: PlanViewRow[];
  recommended: string | null;
  recommendedLabel: string | null;
  reason: string;
  snippets: PlanViewSnippet[];
  /** The file's trainer has a snippet for this stage: the page offers "Write this stage into <file>". */
  writable: boolean;
}

/** What produced the plan: the page keeps it in its state to ask again after a reload. */
export interface PlanViewRequest {
  target: number;
  stages?: number[];
}

export interface PlanViewData {
  schema: 1;
  source: { label: string; uri: string };
  request: PlanViewRequest;
  model: string;
  from: string;
  modelType?: string;
  base: number;
  rotaryDim: number;
  trainedContext: number;
  trainedContextSource: string;
  shippedContext: number;
  shippedScaling?: string;
  target: number;
  criticalDimAtTrained: number;
  /** Pair indices 0 … rotaryDim/2 − 1 (the x axis of the wavelength charts). */
  dims: number[];
  /** The trained frequencies' wavelengths (reference curve). */
  trainedWavelengths: number[];
  stages: PlanViewStage[];
  notes: string[];
  /** The open file is this trainer's YAML: stages can be written into it. */
  writeTarget?: { trainer: PlanTrainer; fileLabel: string };
}
