/**
 * The bottom of the analysis: what a finding and a fix are, and the bound questions rules may ask.
 * Every layer above (fixes, rules, service, protocol) speaks these types; nothing here imports
 * anything. Ranges and edits use LSP's shapes so the server passes them through unchanged.
 */
import type { Range } from './range';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface TextEdit {
  range: Range;
  newText: string;
}

export type FixKind = 'ntk' | 'yarn' | 'linear' | 'dynamic' | 'llama3' | 'raise-base' | 'other';

export interface Fix {
  title: string;
  kind: FixKind;
  /** The one fix an editor may apply unasked (fixAll) or show first. */
  preferred?: boolean;
  edits: TextEdit[];
  /**
   * For rewrites that extend a context: the generalised bound of the effective frequencies at the
   * target length (advice.md): the first failing relative distance, or null when it holds.
   */
  verdict?: FixVerdict;
  /** For rewrites the advice ranks (advice/advice.ts): the values written, so every front-end's answer compares. */
  rewrite?: FixRewrite;
}

export interface FixRewrite {
  factor: number;
  original?: number;
  base?: number;
  recipe?: boolean;
}

/**
 * A rewrite's verdict (advice/scalingVerdict.ts): the bound on its effective frequencies at `length`
 * (`lmax`, null when met) and, for a rewrite used without training, the reach it is judged by.
 */
export interface FixVerdict {
  lmax: number | null;
  length: number;
  /** `bound`: trained frequencies, judged by the bound; `reach`: used without training, judged by factor × original. */
  judgedBy?: 'bound' | 'reach';
  /** Untrained: the longest context the rewrite reaches. */
  reach?: number;
  /** Untrained: the context the scaling stretches from. */
  from?: number;
  /** Untrained: who validated the recipe ("Qwen's model card for Qwen/Qwen2.5-7B"). */
  validatedBy?: string;
}

export interface Finding {
  code: string;
  severity: Severity;
  /** What will happen, in one first sentence of at most 120 characters (advice.md, issue 33). */
  message: string;
  /**
   * The rest: why, the numbers behind it, what else to do. The LSP shows it as related information,
   * the CLI under --verbose and in --json; the headline stands without it.
   */
  detail?: string;
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
  /**
   * Proof that every real base within ±10% of `candidate` is valid for L (bstar/neighbourhood.ts):
   * null when proven, else a base of the neighbourhood that is invalid (or could not be cleared);
   * undefined while not computed.
   */
  robust(candidate: number, headDim: number, length: number): number | null | undefined;
  /**
   * Lengths above which this oracle does not prove neighbourhoods (the CLI's synchronous one: the proof
   * costs ~L² cosines on one core); absent: it proves any length.
   */
  readonly proofLimit?: number;
}

/** A bound question the oracle could not answer yet (base set: an L_max question, which decides findings). */
export interface PendingBound {
  length: number;
  headDim: number;
  base?: number;
}
