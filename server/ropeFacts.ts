/**
 * The numbers hovers, inlay hints, code lenses and `describe` show for a document's RoPE setup,
 * gathered from the analysis (ModelRope), the bound oracle and the frequency core. Nothing is
 * decided here; it only collects and formats.
 */
import type { ModelRope, Located, ScalingDescription } from '../shared/config/modelRope';
import type { RopeSpec, TransformersVariant, RopeType } from '../shared/rope/spec';
import { computeFrequencies } from '../shared/rope/invFreq';
import type { BoundOracle } from '../shared/service/types';

export interface RopeFacts {
  base: number;
  rotaryDim: number;
  contextLength: number;
  ropeType: RopeType;
  /** b*(L, d): undefined while computing. */
  bstar: number | undefined;
  threshold: number | undefined;
  /** First invalid position for the configured base (null: none below L). */
  lmax: number | null | undefined;
  /** Liu et al.: dimensions that see a full period within the context, 2⌈(d/2)·log_b(L/2π)⌉. */
  criticalDim: number | undefined;
  attentionFactor: number | undefined;
  /** Why the attention factor is missing (bad scaling parameters), if it is. */
  frequencyError?: string;
  spec: RopeSpec | undefined;
}

/** camelCase RopeSpec field for each transformers key it reads. */
const SPEC_KEYS: Record<string, keyof RopeSpec> = {
  factor: 'factor',
  attention_factor: 'attentionFactor',
  beta_fast: 'betaFast',
  beta_slow: 'betaSlow',
  mscale: 'mscale',
  mscale_all_dim: 'mscaleAllDim',
  truncate: 'truncate',
  low_freq_factor: 'lowFreqFactor',
  high_freq_factor: 'highFreqFactor',
  short_factor: 'shortFactor',
  long_factor: 'longFactor',
  original_max_position_embeddings: 'originalMaxPositionEmbeddings',
};

/** The frequency core's input for a document's (base, dims, context, scaling). */
export function specOf(rope: ModelRope, scaling: ScalingDescription | undefined = rope.scaling): RopeSpec {
  const spec: RopeSpec = {
    ropeType: scaling?.type ?? 'default',
    base: rope.base.value,
    rotaryDim: rope.rotaryDim.value,
    maxPositionEmbeddings: rope.contextLength.value,
  };
  if (rope.originalContextLength) spec.originalMaxPositionEmbeddings = rope.originalContextLength.value;
  for (const [key, located] of Object.entries(scaling?.params ?? {})) {
    const field = SPEC_KEYS[key];
    if (field) (spec as unknown as Record<string, unknown>)[field] = (located as Located<unknown>).value;
  }
  return spec;
}

export function criticalDimension(base: number, rotaryDim: number, length: number): number | undefined {
  if (!(base > 1) || !(length > 2 * Math.PI) || !(rotaryDim > 0)) return undefined;
  const d = 2 * Math.ceil((rotaryDim / 2) * (Math.log(length / (2 * Math.PI)) / Math.log(base)));
  return Math.min(rotaryDim, d);
}

export function ropeFacts(rope: ModelRope, oracle: BoundOracle, variant: TransformersVariant): RopeFacts {
  const base = rope.base.value;
  const d = rope.rotaryDim.value;
  const L = rope.contextLength.value;
  const facts: RopeFacts = {
    base, rotaryDim: d, contextLength: L, ropeType: rope.scaling?.type ?? 'default',
    bstar: undefined, threshold: undefined, lmax: undefined,
    criticalDim: criticalDimension(base, d, L), attentionFactor: undefined, spec: undefined,
  };
  if (validBoundInput(base, d, L)) {
    facts.bstar = oracle.bstar(L, d);
    facts.threshold = oracle.threshold(L, d);
    facts.lmax = oracle.lmax(base, d, L);
  }
  try {
    facts.spec = specOf(rope);
    facts.attentionFactor = computeFrequencies(facts.spec, { variant }).attentionFactor;
  } catch (e) {
    facts.frequencyError = (e as Error)?.message ?? String(e);
  }
  return facts;
}

function validBoundInput(base: number, d: number, L: number): boolean {
  return Number.isFinite(base) && base > 1 && Number.isInteger(d) && d >= 2 && d % 2 === 0 && Number.isInteger(L) && L >= 1;
}

/** 629978.3 → "6.30e5"; small integers stay plain. */
export function sci(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) < 1e4 && Number.isInteger(x)) return String(x);
  if (Math.abs(x) < 1e4) return x.toPrecision(4);
  return x.toExponential(2).replace('e+', 'e');
}

/** 131072 → "131,072". */
export function grouped(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : String(n);
}
