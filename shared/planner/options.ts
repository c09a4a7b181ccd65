/**
 * The candidate settings for one stage, each judged on its effective frequencies: the generalised
 * bound Σᵢ cos(m·θᵢ′) ≥ 0 for m < L (lmaxOfFrequencies), Liu et al.'s critical dimension at L, the
 * attention factor transformers applies, and how far the frequencies move from the trained ones.
 * Every frequency comes from the shared RoPE core (computeFrequencies, the seed methods).
 */
import type { RopeSpec } from '../rope/spec';
import { computeFrequencies, defaultInvFreq } from '../rope/invFreq';
import { lognAttentionScale, ntkFixedInvFreq, ntkMixedInvFreq } from '../rope/seedMethods';
import { criticalDimension, wavelengths } from '../rope/analysis';
import { lmax as lmaxOfBase, lmaxOfFrequencies, robustNeighbourhood } from '../bstar/index';
import { type RobustChoice, chooseRobustBase, rungNote } from '../fixes/robustChoice';
import { provenOnce } from '../bstar/proofCache';
import type { PlanMethod, PlanOption, Trainer } from './types';

/** Su's empirical exponent for NTK-RoPE-mixed (seed 000). */
export const NTK_MIXED_EXPONENT = 0.625;

export interface PlanModelFacts {
  base: number;
  rotaryDim: number;
  trained: number;
  modelType?: string;
  /** The config as shipped (its own scaling and context), for the "as shipped" option. */
  shippedSpec: RopeSpec;
  shippedContext: number;
}

export interface StageInput {
  length: number;
  ntkAwareBase: number;
  gradientBase: number;
}

/**
 * How a plan proves a base's ±10% neighbourhood: `prove` answers null when every base within ±10% of
 * the candidate is valid at L, else a base there that is not; lengths above `maxLength` are not proven.
 */
export interface PlanProofs {
  prove(candidate: number, dim: number, L: number): number | null;
  maxLength: number;
}

interface Candidate {
  method: PlanMethod;
  label: string;
  invFreq: Float64Array;
  attentionFactor: number;
  ropeTheta?: number;
  ropeScaling?: Record<string, string | number>;
  perDimension?: boolean;
  expressible: boolean;
  trainable: boolean;
  trainers: Trainer[];
  notes: string[];
  lognScale?: number;
}

const BASE_TRAINERS: Trainer[] = ['axolotl', 'torchtune'];
const SCALING_TRAINERS: Trainer[] = ['axolotl', 'llama-factory'];

export function isLlamaFamily(modelType: string | undefined): boolean {
  return modelType === 'llama';
}

function plainSpec(base: number, dim: number, mpe: number): RopeSpec {
  return { ropeType: 'default', base, rotaryDim: dim, maxPositionEmbeddings: mpe };
}

function baseCandidate(method: PlanMethod, label: string, base: number, m: PlanModelFacts, L: number, notes: string[]): Candidate {
  const f = computeFrequencies(plainSpec(base, m.rotaryDim, L));
  return {
    method,
    label,
    invFreq: f.invFreq,
    attentionFactor: f.attentionFactor,
    ropeTheta: base,
    expressible: true,
    trainable: true,
    trainers: BASE_TRAINERS,
    notes,
  };
}

function scalingCandidate(
  method: PlanMethod,
  label: string,
  spec: RopeSpec,
  scaling: Record<string, string | number>,
  seqLen: number | undefined,
  trainable: boolean,
  notes: string[],
): Candidate {
  const f = computeFrequencies(spec, { seqLen });
  return {
    method,
    label,
    invFreq: f.invFreq,
    attentionFactor: f.attentionFactor,
    ropeScaling: scaling,
    expressible: true,
    trainable,
    trainers: SCALING_TRAINERS,
    notes,
  };
}

/**
 * Longest stage for which a plan proves a robust base on its own thread (the language server's plan
 * view): the proof costs about L² cosines, ~2 s for one candidate at 131,072 tokens on one core.
 * Beyond it the option is left out and the plan says why; the CLI proves every length on every core.
 */
export const PLAN_PROOF_MAX_LENGTH = 131072;

/** Proofs on the calling thread, up to PLAN_PROOF_MAX_LENGTH. */
export const IN_THREAD_PROOFS: PlanProofs = planProofs(robustNeighbourhood, PLAN_PROOF_MAX_LENGTH);

/** The smallest round base ≥ the model's whose ±10% neighbourhood is proven valid at L (advice.md), or undefined. */
export function robustBase(base: number, dim: number, L: number, proofs: PlanProofs = IN_THREAD_PROOFS): RobustChoice | undefined {
  const start = Math.max(base, L / 2);
  if (L > proofs.maxLength) {
    // Past the plan's own proof limit only the proven table answers (its proofs were made ahead of time).
    const c = chooseRobustBase(
      start,
      dim,
      L,
      () => undefined,
      () => undefined,
    );
    return c?.from === 'table' ? c : undefined;
  }
  return chooseRobustBase(
    start,
    dim,
    L,
    (x) => lmaxOfBase(x, dim, L),
    (c) => proofs.prove(c, dim, L),
  );
}

/**
 * A prover from a function that returns the proof's verdict (the CLI's threads), each rung proven once per
 * process (bstar/proofCache.ts: a plan asks the same rungs for every stage and request).
 */
export function planProofs(verdict: typeof robustNeighbourhood, maxLength = Number.POSITIVE_INFINITY): PlanProofs {
  return { prove: (c, dim, L) => provenOnce(c, dim, L, verdict), maxLength };
}

function candidates(m: PlanModelFacts, st: StageInput, proofs: PlanProofs): Candidate[] {
  const L = st.length,
    T = m.trained,
    d = m.rotaryDim,
    b = m.base;
  const s = L / T;
  const out: Candidate[] = [];
  const shipped = computeFrequencies({ ...m.shippedSpec }, { seqLen: L });
  out.push({
    method: 'as-shipped',
    label: 'Unchanged (as shipped)',
    invFreq: shipped.invFreq,
    attentionFactor: shipped.attentionFactor,
    expressible: true,
    trainable: true,
    trainers: ['axolotl', 'llama-factory', 'torchtune'],
    notes: [
      L <= m.shippedContext
        ? `The config already declares a context of ${m.shippedContext}.`
        : `Beyond the shipped context ${m.shippedContext}: positions past T = ${T} are extrapolated.`,
    ],
  });
  out.push(
    baseCandidate('ntk-aware', 'NTK-aware base', st.ntkAwareBase, m, L, [
      `b·s^(d/(d−2)) applied stage by stage from (b = ${b}, T = ${T}); equals the one-step value with s = ${s}.`,
    ]),
  );
  out.push(
    baseCandidate('gradient', "Gradient's law base", st.gradientBase, m, L, [
      `b^(ln(L/2π)/ln(T/2π)) applied stage by stage as Gradient did; keeps the critical dimension of T.`,
    ]),
  );
  const choice = robustBase(b, d, L, proofs);
  if (choice !== undefined) {
    const robust = choice.base;
    out.push(
      baseCandidate('robust-base', 'Smallest robust valid base', robust, m, L, [
        (robust <= b * 1.0001
          ? `The model's base already satisfies the bound at ${L} with its ±10% neighbourhood.`
          : `The smallest round base ≥ ${b} whose whole ±10% neighbourhood satisfies the bound at ${choice.provenAt} (b* itself sits on a narrow island).`) +
          rungNote(choice, L),
      ]),
    );
  }
  const common = { base: b, rotaryDim: d };
  out.push(
    scalingCandidate(
      'yarn',
      'YaRN',
      { ...common, ropeType: 'yarn', factor: s, originalMaxPositionEmbeddings: T, maxPositionEmbeddings: L },
      { rope_type: 'yarn', factor: s, original_max_position_embeddings: T },
      undefined,
      true,
      ['NTK-by-parts interpolation with the attention temperature 0.1·ln(s) + 1.'],
    ),
  );
  out.push(
    scalingCandidate(
      'linear',
      'Linear (position interpolation)',
      { ...common, ropeType: 'linear', factor: s, maxPositionEmbeddings: L },
      { rope_type: 'linear', factor: s },
      undefined,
      true,
      ['Every frequency divided by s.'],
    ),
  );
  if (isLlamaFamily(m.modelType)) {
    out.push(
      scalingCandidate(
        'llama3',
        'llama3',
        { ...common, ropeType: 'llama3', factor: s, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: T, maxPositionEmbeddings: L },
        { rope_type: 'llama3', factor: s, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: T },
        undefined,
        true,
        ["Meta's Llama-3.1 scheme (Llama family only)."],
      ),
    );
  }
  out.push(
    scalingCandidate(
      'dynamic',
      'Dynamic NTK',
      { ...common, ropeType: 'dynamic', factor: s, maxPositionEmbeddings: T },
      { rope_type: 'dynamic', factor: s },
      L,
      false,
      [
        `Inference only: the base grows with each sequence's length past max_position_embeddings (keep it at T = ${T}); training and inference would see different frequencies. Shown at sequence length ${L}.`,
      ],
    ),
  );
  const logn = lognAttentionScale(L, T);
  const perDimNote =
    'Per-dimension factors: no Hugging Face config key (rope_theta or rope_scaling) expresses them, so no trainer YAML can; it needs a custom RoPE.';
  out.push({
    method: 'ntk-fixed',
    label: 'NTK-RoPE-fixed (Su)',
    invFreq: ntkFixedInvFreq(b, d, s),
    attentionFactor: 1,
    perDimension: true,
    expressible: false,
    trainable: true,
    trainers: [],
    lognScale: logn,
    notes: [perDimNote, "Every digit's radix scaled by λ = s^(2/d), including the first."],
  });
  out.push({
    method: 'ntk-mixed',
    label: 'NTK-RoPE-mixed (Su)',
    invFreq: ntkMixedInvFreq(b, d, s, NTK_MIXED_EXPONENT),
    attentionFactor: 1,
    perDimension: true,
    expressible: false,
    trainable: true,
    trainers: [],
    lognScale: logn,
    notes: [perDimNote, `λ₁⋯λ_m = exp(a·m^${NTK_MIXED_EXPONENT}) with a = ln s/(d/2)^${NTK_MIXED_EXPONENT}.`],
  });
  return out;
}

/** Liu et al.'s d_extra for a plain base; for other frequency sets, twice the pairs whose period fits in L. */
function criticalDimOf(c: Candidate, wl: ArrayLike<number>, d: number, L: number): number {
  if (c.ropeTheta !== undefined) return criticalDimension(c.ropeTheta, d, L);
  let n = 0;
  for (let i = 0; i < wl.length; i++) if (wl[i] <= L) n++;
  return Math.min(d, 2 * n);
}

function meanLogChange(invFreq: Float64Array, original: Float64Array): number {
  let s = 0;
  for (let i = 0; i < original.length; i++) s += Math.abs(Math.log(invFreq[i] / original[i]));
  return s / original.length;
}

/**
 * The frequencies the checkpoint runs as shipped: "change" is measured from them (issue 33), so a
 * model's own scaling is no change (Llama-3.1's llama3 ×8) and dropping it is one. Dynamic scaling
 * is taken at the shipped context, where it has not started yet.
 */
export function shippedFrequencies(m: PlanModelFacts): Float64Array {
  return computeFrequencies({ ...m.shippedSpec }, { seqLen: m.shippedContext }).invFreq;
}

export function stageOptions(m: PlanModelFacts, st: StageInput, proofs: PlanProofs = IN_THREAD_PROOFS): PlanOption[] {
  const L = st.length;
  const original = defaultInvFreq(m.base, m.rotaryDim);
  const shipped = shippedFrequencies(m);
  return candidates(m, st, proofs).map((c) => {
    const hit = lmaxOfFrequencies(c.invFreq, L);
    const wl = wavelengths(c.invFreq);
    const o: PlanOption = {
      method: c.method,
      label: c.label,
      lmax: hit ?? L,
      meetsBound: hit === null,
      criticalDim: criticalDimOf(c, wl, m.rotaryDim, L),
      attentionFactor: c.attentionFactor,
      change: meanLogChange(c.invFreq, shipped),
      expressible: c.expressible,
      trainable: c.trainable,
      trainers: c.trainers,
      notes: c.notes,
      wavelengths: Array.from(wl),
    };
    if (c.ropeTheta !== undefined) o.ropeTheta = c.ropeTheta;
    if (c.ropeScaling) o.ropeScaling = c.ropeScaling;
    if (c.perDimension) o.perDimensionFactors = Array.from(c.invFreq, (x, i) => original[i] / x);
    if (c.lognScale !== undefined) o.lognScale = c.lognScale;
    return o;
  });
}
