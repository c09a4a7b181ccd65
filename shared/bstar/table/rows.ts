/**
 * The shape of the proven table (proven.json, schema in proven.schema.json): per (rung length, rotary
 * dim), the smallest robust round base, b* and the proven threshold, each with how it was proven.
 * Every fact is optional: a row holds what the generator reached.
 */

/** How one fact was established. */
export interface Provenance {
  /** 'cpu-float64', or 'webgpu-screen+cpu-float64' (a float32 screen sparing float64 work; decisions in float64). */
  backend: string;
  /** PROOF_CODE_VERSION of the code that proved it. */
  codeVersion: string;
  /** Wall time of the computation, ms (the machine the generator ran on). */
  ms: number;
  /** The machine, when not the developer's own (e.g. the lent device's CPU cores). */
  machine?: string;
}

export interface TableRow {
  length: number;
  dim: number;
  /** b*(length, dim): the smallest valid base (certified sweep). */
  bstar?: { value: number } & Provenance;
  /** The smallest round base (two significant digits) whose every base within ±10% is valid for every m < length. */
  robust?: { base: number; proofs: number } & Provenance;
  /**
   * Every base ≥ validAbove is proven valid; located: validAbove sits just above a known invalid base
   * (invalidAt), so it is the threshold itself, not only a bound on it.
   */
  threshold?: { validAbove: number; located: boolean; invalidAt: number } & Provenance;
}

export interface ProvenTableFile {
  $schema?: string;
  /** What the file is and how to regenerate it. */
  about: string;
  rows: TableRow[];
}
