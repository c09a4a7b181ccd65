/**
 * inv_freq and the attention factor exactly as transformers' `modeling_rope_utils.py` computes them,
 * evaluated in float64 (transformers itself runs these formulas in float32 torch tensors; the
 * expressions, their order of operations and their defaults are reproduced here one for one).
 *
 * Two generations differ (see docs/freqs.md, "Transformers semantics (v4 vs v5)"):
 *  - v4 = transformers 4.45 (`rope_scaling`): yarn's attention factor ignores mscale/mscale_all_dim,
 *    its correction range is computed on max_position_embeddings and always truncated; longrope
 *    only honours a top-level original_max_position_embeddings (Phi-3) and then forces
 *    factor = mpe / original.
 *  - v5 (`rope_parameters`): original_max_position_embeddings defaults to the top-level value, else
 *    the dict's, else max_position_embeddings; yarn uses it for the correction range, honours
 *    mscale/mscale_all_dim and `truncate`; a missing factor becomes mpe / original.
 * v5 is the default because it is what transformers ships now and the only generation that reads
 * DeepSeek-style mscale keys; v4 reproduces older pinned deployments.
 */
import { RopeError } from '../core/errors';
import { RopeFrequencies, RopeSpec, TransformersVariant } from './spec';
import { checkBase, checkCommon, checkFactor, checkFactorList, checkLength, checkNumber, checkRotaryDim } from './validate';

/** Which generation's formulas computeFrequencies follows when the caller does not say. */
export const DEFAULT_VARIANT: TransformersVariant = 'v5';

export interface FrequencyOptions {
  /**
   * The sequence length the model is running at. dynamic: the NTK base grows once it exceeds
   * max_position_embeddings; longrope: long_factor applies once it exceeds the original context.
   * Undefined means "at initialisation", as transformers' `rope_init_fn(config, device)`.
   */
  seqLen?: number;
  variant?: TransformersVariant;
}

/** θᵢ = 1 / base^(2i/dim) for i = 0 … dim/2 − 1 (exponent formed as (2i)/dim, as torch.arange(0, dim, 2)/dim). */
export function defaultInvFreq(base: number, dim: number): Float64Array {
  checkBase(base);
  checkRotaryDim(dim);
  const out = new Float64Array(dim / 2);
  for (let i = 0; i < out.length; i++) out[i] = 1.0 / Math.pow(base, (2 * i) / dim);
  return out;
}

/** base^((2i)/dim) for each pair: the "pos_freqs" of yarn and longrope. */
function posFreqs(base: number, dim: number): Float64Array {
  const out = new Float64Array(dim / 2);
  for (let i = 0; i < out.length; i++) out[i] = Math.pow(base, (2 * i) / dim);
  return out;
}

/** inv_freq and attention factor of `spec`, as transformers computes them. Throws RopeError on bad input. */
export function computeFrequencies(spec: RopeSpec, opts: FrequencyOptions = {}): RopeFrequencies {
  checkCommon(spec);
  const variant = opts.variant ?? DEFAULT_VARIANT;
  if (variant !== 'v4' && variant !== 'v5') {
    throw new RopeError('invalid-parameter', `variant must be 'v4' or 'v5', got '${String(variant)}'`);
  }
  if (opts.seqLen !== undefined) checkLength(opts.seqLen, 'sequence length');
  let result: RopeFrequencies;
  switch (spec.ropeType) {
    case 'default':
      result = { invFreq: defaultInvFreq(spec.base, spec.rotaryDim), attentionFactor: 1.0 };
      break;
    case 'linear':
      result = linear(spec);
      break;
    case 'dynamic':
      result = dynamic(spec, opts.seqLen);
      break;
    case 'yarn':
      result = variant === 'v4' ? yarnV4(spec) : yarnV5(spec);
      break;
    case 'longrope':
      result = longrope(spec, opts.seqLen, variant);
      break;
    case 'llama3':
      result = llama3(spec, variant);
      break;
    case 'proportional':
      result = proportional(spec);
      break;
  }
  assertFinite(result, spec.ropeType);
  return result;
}

/**
 * v5 `_compute_proportional_rope_parameters`: rope_angles = int(partial_rotary_factor × head_dim // 2)
 * pairs rotate with exponents over the whole head_dim, the rest get inv_freq 0; all divided by factor.
 */
function proportional(spec: RopeSpec): RopeFrequencies {
  const headDim = spec.headDim ?? spec.rotaryDim;
  const angles = Math.floor(spec.rotaryDim / 2);
  const factor = spec.factor ?? 1;
  checkFactor(factor);
  const out = new Float64Array(Math.floor(headDim / 2));
  for (let i = 0; i < out.length; i++) out[i] = i < angles ? 1.0 / Math.pow(spec.base, (2 * i) / headDim) / factor : 0;
  return { invFreq: out, attentionFactor: 1.0, effectiveFactor: factor };
}

/** Last line of defence: no NaN or Infinity ever leaves the core silently. */
function assertFinite(r: RopeFrequencies, type: string): void {
  if (!Number.isFinite(r.attentionFactor)) {
    throw new RopeError('invalid-parameter', `${type}: the attention factor is not finite (${r.attentionFactor}); check the scaling parameters`);
  }
  for (let i = 0; i < r.invFreq.length; i++) {
    if (!Number.isFinite(r.invFreq[i]) || r.invFreq[i] < 0) {
      throw new RopeError('invalid-parameter', `${type}: inv_freq[${i}] is not a finite number (${r.invFreq[i]}); check the scaling parameters`);
    }
  }
}

function requiredFactor(spec: RopeSpec): number {
  if (spec.factor === undefined) throw new RopeError('invalid-factor', `rope type '${spec.ropeType}' needs a factor`);
  return checkFactor(spec.factor);
}

/** linear (position interpolation): default inv_freq / factor. */
function linear(spec: RopeSpec): RopeFrequencies {
  const factor = requiredFactor(spec);
  const invFreq = defaultInvFreq(spec.base, spec.rotaryDim);
  for (let i = 0; i < invFreq.length; i++) invFreq[i] /= factor;
  return { invFreq, attentionFactor: 1.0, effectiveFactor: factor };
}

/**
 * dynamic NTK: base·((factor·L/mpe) − (factor − 1))^(dim/(dim−2)) with L = max(seqLen, mpe);
 * at L ≤ mpe this is the plain base (the expression reduces to 1).
 */
function dynamic(spec: RopeSpec, seqLen: number | undefined): RopeFrequencies {
  const factor = requiredFactor(spec);
  const dim = spec.rotaryDim;
  if (dim <= 2) throw new RopeError('invalid-dimension', `dynamic scaling needs a rotary dimension > 2, got ${dim}`);
  const mpe = spec.maxPositionEmbeddings;
  const L = seqLen !== undefined && seqLen > mpe ? seqLen : mpe;
  const base = spec.base * Math.pow((factor * L) / mpe - (factor - 1), dim / (dim - 2));
  return { invFreq: defaultInvFreq(base, dim), attentionFactor: 1.0, effectiveFactor: factor, effectiveBase: base };
}

/** transformers' yarn get_mscale: 1 for scale ≤ 1, else 0.1·mscale·ln(scale) + 1. */
export function yarnGetMscale(scale: number, mscale = 1): number {
  if (scale <= 1) return 1.0;
  return 0.1 * mscale * Math.log(scale) + 1.0;
}

/** The (fractional) dimension index at which a frequency makes `numRotations` turns over `length` positions. */
export function yarnCorrectionDim(numRotations: number, dim: number, base: number, length: number): number {
  return (dim * Math.log(length / (numRotations * 2 * Math.PI))) / (2 * Math.log(base));
}

/** yarn's [low, high] ramp bounds, floored/ceiled when `truncate`, clamped to [0, dim − 1]. */
export function yarnCorrectionRange(betaFast: number, betaSlow: number, dim: number, base: number, length: number, truncate: boolean): [number, number] {
  let low = yarnCorrectionDim(betaFast, dim, base, length);
  let high = yarnCorrectionDim(betaSlow, dim, base, length);
  if (truncate) {
    low = Math.floor(low);
    high = Math.ceil(high);
  }
  return [Math.max(low, 0), Math.min(high, dim - 1)];
}

/** Blends interpolated and extrapolated frequencies with yarn's clamped linear ramp over pair index. */
function yarnBlend(base: number, dim: number, factor: number, low: number, high: number): Float64Array {
  const pos = posFreqs(base, dim);
  const hi = low === high ? high + 0.001 : high; // transformers' guard against a zero-width ramp
  const invFreq = new Float64Array(dim / 2);
  for (let i = 0; i < invFreq.length; i++) {
    const extrapolation = 1.0 / pos[i];
    const interpolation = 1.0 / (factor * pos[i]);
    const ramp = Math.min(Math.max((i - low) / (hi - low), 0), 1);
    const extrapolationFactor = 1 - ramp;
    invFreq[i] = interpolation * (1 - extrapolationFactor) + extrapolation * extrapolationFactor;
  }
  return invFreq;
}

/** Python's `value or default` for optional numbers (0 and None both fall back). */
function orDefault(value: number | undefined, fallback: number): number {
  return value === undefined || value === 0 ? fallback : value;
}

function yarnBetas(spec: RopeSpec): [number, number] {
  const betaFast = checkNumber(orDefault(spec.betaFast, 32), 'beta_fast', true);
  const betaSlow = checkNumber(orDefault(spec.betaSlow, 1), 'beta_slow', true);
  return [betaFast, betaSlow];
}

function checkedAttentionFactor(value: number | undefined): number | undefined {
  return value === undefined ? undefined : checkNumber(value, 'attention_factor', true);
}

/** The original context v5 uses: top-level (Phi-3 style) first, then the scaling dict's, then mpe. */
function originalContextV5(spec: RopeSpec): number {
  return spec.topLevelOriginalMaxPositionEmbeddings ?? spec.originalMaxPositionEmbeddings ?? spec.maxPositionEmbeddings;
}

/** Explicit factor (must be ≥ 1), else mpe / original as transformers derives it. */
function factorOrRatio(spec: RopeSpec, original: number): number {
  return spec.factor !== undefined ? checkFactor(spec.factor) : spec.maxPositionEmbeddings / original;
}

/** yarn, transformers v5. */
function yarnV5(spec: RopeSpec): RopeFrequencies {
  const dim = spec.rotaryDim;
  const original = originalContextV5(spec);
  const factor = factorOrRatio(spec, original);
  let attentionFactor = checkedAttentionFactor(spec.attentionFactor);
  if (attentionFactor === undefined) {
    const mscale = spec.mscale === undefined ? undefined : checkNumber(spec.mscale, 'mscale');
    const mscaleAllDim = spec.mscaleAllDim === undefined ? undefined : checkNumber(spec.mscaleAllDim, 'mscale_all_dim');
    attentionFactor = mscale && mscaleAllDim ? yarnGetMscale(factor, mscale) / yarnGetMscale(factor, mscaleAllDim) : yarnGetMscale(factor);
  }
  const [betaFast, betaSlow] = yarnBetas(spec);
  const truncate = spec.truncate ?? true;
  const [low, high] = yarnCorrectionRange(betaFast, betaSlow, dim, spec.base, original, truncate);
  return {
    invFreq: yarnBlend(spec.base, dim, factor, low, high),
    attentionFactor,
    effectiveFactor: factor,
    effectiveOriginalContext: original,
    correctionRange: [low, high],
  };
}

/** yarn, transformers 4.45: 0.1·ln(factor)+1, correction range on max_position_embeddings, always truncated. */
function yarnV4(spec: RopeSpec): RopeFrequencies {
  const dim = spec.rotaryDim;
  const mpe = spec.maxPositionEmbeddings;
  const factor = factorOrRatio(spec, spec.originalMaxPositionEmbeddings ?? mpe);
  const attentionFactor = checkedAttentionFactor(spec.attentionFactor) ?? 0.1 * Math.log(factor) + 1.0;
  const [betaFast, betaSlow] = yarnBetas(spec);
  const [low, high] = yarnCorrectionRange(betaFast, betaSlow, dim, spec.base, mpe, true);
  return {
    invFreq: yarnBlend(spec.base, dim, factor, low, high),
    attentionFactor,
    effectiveFactor: factor,
    effectiveOriginalContext: mpe,
    correctionRange: [low, high],
  };
}

/**
 * longrope: inv_freq = 1 / (ext · base^((2i)/dim)) with ext = long_factor when seqLen > original,
 * else short_factor; attention factor √(1 + ln f / ln original) for f > 1.
 */
function longrope(spec: RopeSpec, seqLen: number | undefined, variant: TransformersVariant): RopeFrequencies {
  const dim = spec.rotaryDim;
  const shortFactor = checkFactorList(spec.shortFactor, dim, 'short_factor');
  const longFactor = checkFactorList(spec.longFactor, dim, 'long_factor');
  let original: number;
  let factor: number;
  if (variant === 'v5') {
    original = originalContextV5(spec);
    factor = factorOrRatio(spec, original);
  } else if (spec.topLevelOriginalMaxPositionEmbeddings !== undefined) {
    // 4.45: a top-level original context overrides any factor with the ratio.
    original = spec.topLevelOriginalMaxPositionEmbeddings;
    factor = spec.maxPositionEmbeddings / original;
  } else {
    // 4.45 ignores the dict's original_max_position_embeddings; a missing factor would crash there.
    original = spec.maxPositionEmbeddings;
    factor = spec.factor !== undefined ? checkFactor(spec.factor) : 1.0;
  }
  let attentionFactor = checkedAttentionFactor(spec.attentionFactor);
  if (attentionFactor === undefined) {
    attentionFactor = factor <= 1.0 ? 1.0 : Math.sqrt(1 + Math.log(factor) / Math.log(original));
  }
  const useLong = seqLen !== undefined && seqLen > original;
  const ext = useLong ? longFactor : shortFactor;
  const invFreq = new Float64Array(dim / 2);
  for (let i = 0; i < invFreq.length; i++) invFreq[i] = 1.0 / (ext[i] * Math.pow(spec.base, (2 * i) / dim));
  return { invFreq, attentionFactor, effectiveFactor: factor, effectiveOriginalContext: original, usedLongFactor: useLong };
}

/**
 * llama3: wavelengths above original/low_freq_factor are divided by factor, below
 * original/high_freq_factor kept, and the band between blended by the smooth factor.
 */
function llama3(spec: RopeSpec, variant: TransformersVariant): RopeFrequencies {
  const factor = requiredFactor(spec);
  if (spec.lowFreqFactor === undefined || spec.highFreqFactor === undefined) {
    throw new RopeError('invalid-parameter', 'llama3 scaling needs low_freq_factor and high_freq_factor');
  }
  const low = checkNumber(spec.lowFreqFactor, 'low_freq_factor', true);
  const high = checkNumber(spec.highFreqFactor, 'high_freq_factor', true);
  if (high < low) {
    throw new RopeError('invalid-parameter', `high_freq_factor must not be below low_freq_factor, got high_freq_factor=${high} and low_freq_factor=${low}`);
  }
  // high = low (Llama 4 ships 1.0 / 1.0) is a plain step: the blended band is empty unless a
  // wavelength hits the edge exactly, where transformers would divide by zero (caught below).
  const old = variant === 'v5' ? originalContextV5(spec) : (spec.originalMaxPositionEmbeddings ?? spec.maxPositionEmbeddings);
  const lowFreqWavelen = old / low;
  const highFreqWavelen = old / high;
  const invFreq = defaultInvFreq(spec.base, spec.rotaryDim);
  for (let i = 0; i < invFreq.length; i++) {
    const inv = invFreq[i];
    const wavelen = (2 * Math.PI) / inv;
    const scaled = wavelen > lowFreqWavelen ? inv / factor : inv;
    const isMedium = !(wavelen < highFreqWavelen) && !(wavelen > lowFreqWavelen);
    if (isMedium) {
      const smooth = (old / wavelen - low) / (high - low);
      invFreq[i] = ((1 - smooth) * scaled) / factor + smooth * scaled;
    } else {
      invFreq[i] = scaled;
    }
  }
  return { invFreq, attentionFactor: 1.0, effectiveFactor: factor, effectiveOriginalContext: old };
}
