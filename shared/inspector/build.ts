/**
 * Builds the Inspector's data for one model and one set of controls. Pure and synchronous, so the
 * extension host, the CLI's standalone export and the exported page itself (for its controls) all
 * call the same function. Every frequency comes from the shared RoPE core (computeFrequencies and
 * the seed methods); every f_b(m) value from the b* engine's float64 scans.
 */
import type { InspectorMap } from './mapResolution';
import { RopeError } from '../core/errors';
import type { RopeFrequencies, RopeSpec, RopeType } from '../rope/spec';
import { computeFrequencies, defaultInvFreq } from '../rope/invFreq';
import type { TransformersVariant } from '../rope/spec';
import { ntkAwareBase, gradientThetaBase, ntkByPartsInvFreq } from '../rope/seedMethods';
import { wavelengths as wavelengthsOf, criticalDimension } from '../rope/analysis';
import { BLOCK, TOLERANCE, evalBlock, firstNegative } from '../rope/fb';
import { ConsumerTableData, FbCurve, InspectorControls, InspectorData, InspectorRecommendation, REWRITE_LABELS, RewriteCurve, RewriteMethod } from './types';
import { MAX_TARGET_LENGTH, MIN_TARGET_LENGTH } from './messages';
import { validityScan } from './validity';

/** What the builder needs to know about a model; the host derives it from the config file. */
export interface InspectorInput {
  label: string;
  uri?: string;
  modelType?: string;
  /** The RoPE as configured in the file (rope_scaling included). */
  spec: RopeSpec;
  headDim: number;
  /** The context the base model was trained at (original_max_position_embeddings, else max). */
  originalLength: number;
  /** Rewrites the host can write into the file, with the quick fix's title. */
  applicable?: { method: RewriteMethod; title: string }[];
  warnings?: string[];
  /** Where values not written in the file come from (defaults, derived). */
  notes?: string[];
  /** One line per attention group when the model has several (config/groupSummary.ts). */
  groups?: string[];
  /** The target the file itself implies (a training config's sequence length). */
  defaultTargetLength?: number;
  /** transformers generation for the rewrites' frequencies (the user's ropeLens.transformersVersion). */
  variant?: TransformersVariant;
  /** How each consumer reads the file (model configs). */
  consumers?: ConsumerTableData;
  /** The recommended rewrite at one target (the host computes it: fromConfig.ts `recommendationFor`). */
  recommended?: InspectorRecommendation | null;
}

export interface BuildOptions {
  /** Number of buckets for the f_b(m) curve (min and max kept per bucket). */
  fbBuckets?: number;
  /** Compute the validity scan around b* now (slow for long targets), or leave it null. */
  validity?: boolean;
  /** Exact b* and threshold for (target, rotaryDim) from the b* engine, when the host has them. */
  exact?: { bstar?: number; threshold?: number; robust?: number; note?: string; map?: InspectorMap };
  variant?: TransformersVariant;
}

/** The target shown when the caller gives none: the configured context if scaled, else 4×. */
export function defaultTarget(input: InspectorInput): number {
  // Unscaled: the context the file asks for when it is past the trained one (an extended config), else 4×.
  const t =
    input.defaultTargetLength !== undefined
      ? input.defaultTargetLength
      : input.spec.ropeType === 'default'
        ? input.spec.maxPositionEmbeddings > input.originalLength
          ? input.spec.maxPositionEmbeddings
          : input.originalLength * 4
        : Math.max(input.spec.maxPositionEmbeddings, input.originalLength);
  return Math.min(MAX_TARGET_LENGTH, Math.max(MIN_TARGET_LENGTH, Math.round(t)));
}

export function defaultControls(input: InspectorInput): InspectorControls {
  const targetLength = defaultTarget(input);
  const rec = input.recommended && input.recommended.targetLength === targetLength ? input.recommended.method : null;
  return { method: rec ?? (input.spec.ropeType === 'default' ? 'yarn' : 'configured'), targetLength };
}

function toArray(a: ArrayLike<number>): number[] {
  return Array.from(a);
}

function fullPeriodDims(wl: ArrayLike<number>, length: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < wl.length; i++) if (wl[i] <= length) out.push(i);
  return out;
}

function firstNegativeM(invFreq: Float64Array, length: number): number | null {
  return firstNegative(invFreq, 0, length)?.m ?? null;
}

/** The rope_scaling dict each rewrite writes, for the table (and to compare with the quick fix). */
function scalingText(method: RewriteMethod, factor: number, L0: number, base?: number): string | undefined {
  const f = Number(factor.toFixed(4));
  switch (method) {
    case 'pi':
      return `{"rope_type": "linear", "factor": ${f}}`;
    case 'yarn':
      return `{"rope_type": "yarn", "factor": ${f}, "original_max_position_embeddings": ${L0}}`;
    case 'llama3':
      return `{"rope_type": "llama3", "factor": ${f}, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": ${L0}}`;
    case 'dynamic':
      return `{"rope_type": "dynamic", "factor": ${f}}`;
    case 'ntk':
    case 'gradient':
      return base !== undefined ? `rope_theta: ${Math.round(base)}` : undefined;
    default:
      return undefined;
  }
}

/** A rewrite is a RopeSpec transformers can run, or (NTK-by-parts) frequencies from the seed method. */
interface Rewrite {
  spec?: RopeSpec;
  invFreq?: Float64Array;
  seqLen?: number;
  base?: number;
  reason?: string;
  factor?: number;
}

/** The RopeSpec (and evaluation length) that realises each rewrite for this model and target. */
function rewriteSpec(method: RewriteMethod, input: InspectorInput, target: number, factor: number): Rewrite {
  const s = input.spec;
  const L0 = input.originalLength;
  const plain = { base: s.base, rotaryDim: s.rotaryDim };
  switch (method) {
    case 'configured':
      return { spec: s, seqLen: target, factor: s.factor };
    case 'pi':
      return { spec: { ...plain, ropeType: 'linear', factor, maxPositionEmbeddings: target }, factor };
    case 'ntk': {
      const base = ntkAwareBase(s.base, factor, s.rotaryDim);
      return { spec: { ...plain, base, ropeType: 'default', maxPositionEmbeddings: target }, base, factor };
    }
    case 'ntk-by-parts':
      // bloc97's ramp over turns within L0 (α = 1, β = 32); transformers has no rope_type for it.
      return { invFreq: ntkByPartsInvFreq(s.base, s.rotaryDim, factor, L0), factor };
    case 'yarn':
      return { spec: { ...plain, ropeType: 'yarn', factor, originalMaxPositionEmbeddings: L0, maxPositionEmbeddings: target }, factor };
    case 'llama3':
      return {
        spec: { ...plain, ropeType: 'llama3', factor, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: L0, maxPositionEmbeddings: target },
        factor,
      };
    case 'dynamic':
      return { spec: { ...plain, ropeType: 'dynamic', factor, maxPositionEmbeddings: L0 }, seqLen: target, factor };
    case 'longrope':
      if (s.ropeType !== 'longrope') {
        return { reason: 'needs per-dimension short/long factors, which only a longrope config provides' };
      }
      return { spec: s, seqLen: target, factor: s.factor };
    case 'gradient': {
      const base = gradientThetaBase(s.base, L0, target);
      return { spec: { ...plain, base, ropeType: 'default', maxPositionEmbeddings: target }, base };
    }
  }
}

function rewriteCurve(method: RewriteMethod, input: InspectorInput, target: number, factor: number, variant: TransformersVariant | undefined): RewriteCurve {
  const label = REWRITE_LABELS[method];
  const empty: RewriteCurve = { method, label, available: false, wavelengths: [], attentionFactor: 1, lmax: null, fullPeriodDims: [] };
  let r: Rewrite;
  try {
    r = rewriteSpec(method, input, target, factor);
  } catch (e) {
    return { ...empty, reason: e instanceof RopeError ? e.message : String(e) };
  }
  if (!r.spec && !r.invFreq) return { ...empty, reason: r.reason };
  try {
    const freq: RopeFrequencies = r.spec ? computeFrequencies(r.spec, { seqLen: r.seqLen, variant }) : { invFreq: r.invFreq!, attentionFactor: 1 };
    const wl = wavelengthsOf(freq.invFreq);
    return {
      method,
      label,
      available: true,
      wavelengths: toArray(wl),
      attentionFactor: freq.attentionFactor,
      base: r.base ?? freq.effectiveBase ?? (method === 'configured' ? r.spec?.base : undefined),
      factor: freq.effectiveFactor ?? r.factor,
      lmax: firstNegativeM(freq.invFreq, target),
      fullPeriodDims: fullPeriodDims(wl, target),
      configText: scalingText(method, factor, input.originalLength, r.base),
    };
  } catch (e) {
    if (e instanceof RopeError) return { ...empty, reason: e.message };
    throw e;
  }
}

/**
 * f_b(m) for m in [0, length) reduced to `buckets` (min, max) pairs: every m is evaluated (with the
 * b* engine's float64 block recurrence), so a narrow dip below zero is never lost by sampling.
 */
export function fbCurve(base: number, rotaryDim: number, length: number, buckets = 1200): FbCurve {
  const theta = defaultInvFreq(base, rotaryDim);
  const nb = Math.max(1, Math.min(buckets, length));
  const per = length / nb;
  const m: number[] = new Array(nb);
  const min: number[] = new Array(nb).fill(Infinity);
  const max: number[] = new Array(nb).fill(-Infinity);
  for (let k = 0; k < nb; k++) m[k] = Math.floor(k * per);
  const buf = new Float64Array(BLOCK);
  let lmax: number | null = null;
  for (let m0 = 0; m0 < length; m0 += BLOCK) {
    const cnt = Math.min(BLOCK, length - m0);
    evalBlock(theta, m0, cnt, buf);
    for (let j = 0; j < cnt; j++) {
      const mm = m0 + j;
      const v = buf[j];
      const k = Math.min(nb - 1, Math.floor(mm / per));
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
      if (lmax === null && v < -TOLERANCE) lmax = mm;
    }
  }
  return { base, length, m, min, max, lmax };
}

function checkTarget(t: number): number {
  if (!Number.isInteger(t) || t < MIN_TARGET_LENGTH || t > MAX_TARGET_LENGTH) {
    throw new RopeError('invalid-length', `target length must be an integer in [${MIN_TARGET_LENGTH}, ${MAX_TARGET_LENGTH}], got ${String(t)}`);
  }
  return t;
}

export function buildInspectorData(input: InspectorInput, controls?: Partial<InspectorControls>, opts: BuildOptions = {}): InspectorData {
  const s = input.spec;
  const defaults = defaultControls(input);
  const target = checkTarget(controls?.targetLength ?? defaults.targetLength);
  const method = controls?.method ?? defaults.method;
  const fbBase = controls?.base ?? s.base;
  const L0 = input.originalLength;
  const warnings = [...(input.warnings ?? [])];
  let factor = target / L0;
  if (factor < 1) {
    warnings.push(`The target ${target} is shorter than the original context ${L0}: no rewrite is needed; rewrites are shown at factor 1.`);
    factor = 1;
  }
  const original = computeFrequencies({ ropeType: 'default', base: s.base, rotaryDim: s.rotaryDim, maxPositionEmbeddings: L0 });
  const wl = wavelengthsOf(original.invFreq);
  const methods: RewriteMethod[] = ['configured', 'pi', 'ntk', 'ntk-by-parts', 'yarn', 'llama3', 'dynamic', 'longrope', 'gradient'];
  const variant = opts.variant ?? input.variant;
  const rewrites = methods.map((m) => rewriteCurve(m, input, target, factor, variant));
  // Liu et al.'s d_extra counts channels; the plots index pairs (channel 2i, 2i+1 → pair i).
  const cdChannels = criticalDimension(s.base, s.rotaryDim, L0);
  const cd = cdChannels / 2;
  const ropeType: RopeType = s.ropeType;
  return {
    schema: 1,
    source: { label: input.label, uri: input.uri, modelType: input.modelType },
    controls: { method, targetLength: target, ...(controls?.base !== undefined ? { base: controls.base } : {}) },
    base: s.base,
    rotaryDim: s.rotaryDim,
    headDim: input.headDim,
    ropeType,
    originalLength: L0,
    targetLength: target,
    factor,
    dims: Array.from({ length: s.rotaryDim / 2 }, (_, i) => i),
    original: {
      method: 'configured',
      label: 'Original (unscaled)',
      available: true,
      wavelengths: toArray(wl),
      attentionFactor: 1,
      base: s.base,
      lmax: firstNegativeM(original.invFreq, target),
      fullPeriodDims: fullPeriodDims(wl, L0),
    },
    rewrites,
    criticalDim: cd >= 0 && cd < s.rotaryDim / 2 ? cd : null,
    fullPeriodDims: fullPeriodDims(wl, L0),
    fb: fbCurve(fbBase, s.rotaryDim, target, opts.fbBuckets),
    validity:
      opts.validity === false
        ? null
        : validityScan(target, s.rotaryDim, fbBase, {
            bstar: opts.exact?.bstar,
            threshold: opts.exact?.threshold,
            robust: opts.exact?.robust,
            exactNote: opts.exact?.note,
            map: opts.exact?.map,
          }),
    applicable: input.applicable ?? [],
    warnings,
    notes: input.notes ?? [],
    ...(input.groups?.length ? { groups: input.groups } : {}),
    consumers: input.consumers ?? null,
    recommended: input.recommended && input.recommended.targetLength === target ? input.recommended : null,
  };
}
