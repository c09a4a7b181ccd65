/**
 * Per-dimension readings of a frequency vector: wavelengths, how many turns each pair makes within
 * a context, Liu et al.'s critical dimension, and f_b(m) = Σᵢ cos(m·θᵢ) (the quantity whose first
 * negative value bounds the usable context, Men et al. 2024).
 */
import { RopeError } from '../core/errors';
import { checkBase, checkLength, checkRotaryDim } from './validate';

type Freqs = ArrayLike<number>;

/** θ = 0 is allowed: proportional RoPE (Gemma-4) leaves pairs unrotated (an infinite wavelength). */
function checkFreq(theta: number, i: number): number {
  if (!Number.isFinite(theta) || theta < 0) {
    throw new RopeError('invalid-parameter', `inv_freq[${i}] must be a finite number ≥ 0, got ${String(theta)}`);
  }
  return theta;
}

/** λᵢ = 2π / θᵢ: positions per full turn of pair i. */
export function wavelengths(invFreq: Freqs): Float64Array {
  const out = new Float64Array(invFreq.length);
  for (let i = 0; i < out.length; i++) out[i] = (2 * Math.PI) / checkFreq(invFreq[i], i);
  return out;
}

/** L·θᵢ / 2π: full turns pair i makes over `length` positions. */
export function rotationsWithin(invFreq: Freqs, length: number): Float64Array {
  checkLength(length, 'context length');
  const out = new Float64Array(invFreq.length);
  for (let i = 0; i < out.length; i++) out[i] = (length * checkFreq(invFreq[i], i)) / (2 * Math.PI);
  return out;
}

/** min(1, turns): the fraction of a full period pair i has seen within `length` positions. */
export function periodFractionSeen(invFreq: Freqs, length: number): Float64Array {
  const r = rotationsWithin(invFreq, length);
  for (let i = 0; i < r.length; i++) r[i] = Math.min(1, r[i]);
  return r;
}

/**
 * Liu et al.'s critical dimension d_extra = 2⌈(d/2)·log_b(L/2π)⌉, clamped to [0, d]: the channels
 * whose period fits inside a context of L (they saw a full turn during training).
 */
export function criticalDimension(base: number, dim: number, length: number): number {
  checkBase(base);
  checkRotaryDim(dim);
  checkLength(length, 'context length');
  const raw = 2 * Math.ceil((dim / 2) * (Math.log(length / (2 * Math.PI)) / Math.log(base)));
  return Math.min(dim, Math.max(0, raw));
}

/** f_b(m) = Σᵢ cos(m·θᵢ). */
export function fb(m: number, invFreq: Freqs): number {
  if (!Number.isFinite(m)) throw new RopeError('invalid-parameter', `position m must be finite, got ${String(m)}`);
  let s = 0;
  for (let i = 0; i < invFreq.length; i++) s += Math.cos(m * invFreq[i]);
  return s;
}

/** f_b at each m of `mValues`. */
export function fbCurve(invFreq: Freqs, mValues: ArrayLike<number>): Float64Array {
  for (let i = 0; i < invFreq.length; i++) {
    if (!Number.isFinite(invFreq[i])) throw new RopeError('invalid-parameter', `inv_freq[${i}] must be finite, got ${String(invFreq[i])}`);
  }
  const out = new Float64Array(mValues.length);
  for (let k = 0; k < out.length; k++) out[k] = fb(mValues[k], invFreq);
  return out;
}
