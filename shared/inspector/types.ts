/**
 * What the RoPE Inspector shows, as plain JSON-safe data. The extension host (or the CLI's
 * standalone export) computes it with the shared core; the page only draws it. Arrays are plain
 * number[] so the object survives postMessage, JSON and the HTML export unchanged.
 */
import type { RopeType } from '../rope/spec';
import type { PlanViewData, PlanViewRequest } from './planTypes';

/** The rewrites the Inspector compares; `configured` is the file's own rope_scaling. */
export type RewriteMethod = 'configured' | 'pi' | 'ntk' | 'ntk-by-parts' | 'yarn' | 'llama3' | 'dynamic' | 'longrope' | 'gradient';

export const REWRITE_METHODS: readonly RewriteMethod[] = ['configured', 'pi', 'ntk', 'ntk-by-parts', 'yarn', 'llama3', 'dynamic', 'longrope', 'gradient'];

export const REWRITE_LABELS: Record<RewriteMethod, string> = {
  configured: 'As configured',
  pi: 'PI (linear)',
  ntk: 'NTK-aware',
  'ntk-by-parts': 'NTK-by-parts',
  yarn: 'YaRN',
  llama3: 'Llama 3',
  dynamic: 'Dynamic NTK (at target)',
  longrope: 'LongRoPE',
  gradient: 'Raised base (Gradient law)',
};

/** One rewrite's per-dimension picture, or why it is not available for this model. */
export interface RewriteCurve {
  method: RewriteMethod;
  label: string;
  available: boolean;
  /** Why the rewrite cannot be shown (e.g. longrope needs per-dimension factors from the file). */
  reason?: string;
  /** 2π/θᵢ for i = 0 … rotaryDim/2 − 1, after the rewrite. */
  wavelengths: number[];
  /** Scaling applied to cos/sin (attention temperature); 1 when the rewrite has none. */
  attentionFactor: number;
  /** Effective base the rewrite uses (NTK-aware, dynamic, gradient), when it changes the base. */
  base?: number;
  factor?: number;
  /** First m < target with f(m) < 0 for this rewrite's frequencies; null when none. */
  lmax: number | null;
  /** Pair indices whose wavelength ≤ the target length (they complete a full turn within it). */
  fullPeriodDims: number[];
  /** A one-line summary of the rope_scaling this rewrite would write, when it is a config edit. */
  configText?: string;
}

/** f(m) = Σᵢ cos(m·θᵢ) sampled over [0, length): per-bucket min and max so no dip is hidden. */
export interface FbCurve {
  base: number;
  length: number;
  /** Bucket start positions m. */
  m: number[];
  min: number[];
  max: number[];
  /** First m with f(m) < 0 (the first negative crossing), or null if f ≥ 0 on [0, length). */
  lmax: number | null;
}

/** Validity of bases around b* for the target length: valid islands and the threshold. */
export interface ValidityScan {
  length: number;
  rotaryDim: number;
  /** Bases scanned (log-spaced) and, for each, L_max(b) capped at `length` (length = valid). */
  bases: number[];
  lmax: number[];
  /** [lo, hi] runs of consecutive valid grid bases. */
  islands: [number, number][];
  bstar?: number;
  threshold?: number;
  /** The smallest round base whose whole ±10% neighbourhood is proven valid (what the fixes suggest), when known. */
  robust?: number;
  /** How b* and the threshold were obtained, or why they are missing. */
  note?: string;
  /** Which engine evaluated the grid ('float64 CPU' or the gpu.js backend name). */
  engine: string;
}

export interface InspectorControls {
  /** The rewrite shown in plot (b)'s focus and used by Apply. */
  method: RewriteMethod;
  /** Target context length; the factor is target / original context. */
  targetLength: number;
  /** Base for plot (c) and for the raised-base rewrite; default: the file's rope_theta. */
  base?: number;
}

export interface InspectorData {
  schema: 1;
  source: { label: string; uri?: string; modelType?: string };
  controls: InspectorControls;
  base: number;
  rotaryDim: number;
  headDim: number;
  ropeType: RopeType;
  /** The context the base model was trained at (original_max_position_embeddings or max). */
  originalLength: number;
  targetLength: number;
  factor: number;
  /** Pair indices 0 … rotaryDim/2 − 1. */
  dims: number[];
  /** Unscaled frequencies of the file's base: the reference picture. */
  original: RewriteCurve;
  rewrites: RewriteCurve[];
  /** Liu et al.'s critical dimension for (base, original length), as a pair index, if defined. */
  criticalDim: number | null;
  /** Pair indices whose wavelength ≤ the original length. */
  fullPeriodDims: number[];
  fb: FbCurve;
  validity: ValidityScan | null;
  /** Rewrites the page can ask to apply, with the title the quick fix shows. */
  applicable: { method: RewriteMethod; title: string }[];
  warnings: string[];
  /** Where values not written in the file come from (defaults, derived). */
  notes: string[];
  /** One line per attention group when the model has several: layers, table, base, rotated dims, reach. */
  groups?: string[];
  /** The consumer table for a model config; null for training configs and inputs without it. */
  consumers: ConsumerTableData | null;
  /**
   * The rewrite RoPE Lens recommends at this target (advice/advice.ts, the same `check` prefers and
   * `serve` writes), or null when nothing needs extending or the host did not compute it.
   */
  recommended: InspectorRecommendation | null;
}

/** The one recommendation at a target length, as the host computed it. */
export interface InspectorRecommendation {
  targetLength: number;
  /** The trained context and the reach it was judged from. */
  trainedContext: number;
  reach: number;
  kind: 'ntk' | 'yarn' | 'linear' | 'dynamic' | 'llama3' | 'raise-base';
  /** The curve of this page that shows it, when one does with the same values (a vendor recipe may not). */
  method: RewriteMethod | null;
  factor: number;
  original?: number;
  base?: number;
  label: string;
  why: string;
  recipe: boolean;
  verdict?: { lmax: number | null; length: number };
}

/**
 * How each consumer (transformers by release, vLLM, SGLang, llama.cpp, TGI, Ollama) reads the
 * file, as display cells (shared/serving/consumersView computes them on the host side).
 */
export interface ConsumerTableData {
  columns: string[];
  rows: { cells: string[]; differs: number[]; detail: string[] }[];
}

/* ---------- messages ---------- */

/** Extension (or standalone host) → page. */
export type HostMessage =
  | { type: 'data'; data: InspectorData }
  | { type: 'busy'; what: string }
  | { type: 'error'; message: string }
  | { type: 'applied'; ok: boolean; message: string }
  /** The context-extension plan (computed by the server): the page switches to its plan view. */
  | { type: 'plan'; plan: PlanViewData };

/** Page → extension. */
export type PageMessage =
  | { type: 'ready' }
  | { type: 'update'; controls: InspectorControls }
  | { type: 'apply'; controls: InspectorControls }
  | { type: 'export-json' }
  /** "Write this stage into <file>" (0-based stage of the plan on show). */
  | { type: 'plan-write'; stage: number };

/** The state the page keeps with setState and the serializer restores. */
export interface InspectorState {
  uri?: string;
  controls?: InspectorControls;
  /** Which view the page shows; the plan view is asked again from `plan` after a reload. */
  view?: 'inspector' | 'plan';
  plan?: PlanViewRequest;
}
