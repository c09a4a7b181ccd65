/**
 * Context-extension recipes from the literature (the project's seed texts), as plain functions of
 * base b, rotary dimension d, scale s = L'/L and lengths. Pair index i runs 0 … d/2 − 1 with
 * θᵢ = b^(−2i/d); Su's texts count digits m = i + 1.
 */
import { RopeError } from '../core/errors';
import { defaultInvFreq } from './invFreq';
import { checkBase, checkFactor, checkLength, checkNumber, checkRotaryDim } from './validate';

/**
 * NTK-aware base b' = b·s^(d/(d−2)): the lowest frequency is interpolated by exactly s while the
 * highest is left alone. (b = 10000, s = 4, d = 128 → 40889.94; one seed prints 41810.5, wrongly.)
 */
export function ntkAwareBase(base: number, scale: number, dim: number): number {
  checkBase(base);
  checkFactor(scale, 'scale');
  checkRotaryDim(dim);
  if (dim <= 2) throw new RopeError('invalid-dimension', `NTK-aware scaling needs d > 2, got ${dim}`);
  return base * Math.pow(scale, dim / (dim - 2));
}

/** Su's NTK-RoPE-old: every digit's radix β = b^(2/d) scaled by λ = k^(2/d), i.e. base b·k. */
export function ntkOldBase(base: number, scale: number): number {
  checkBase(base);
  return base * checkFactor(scale, 'scale');
}

/** NTK-RoPE-fixed: θ_m = 1 / (λ·(βλ)^(m−1)) with β = b^(2/d), λ = k^(2/d), m = 1 … d/2. */
export function ntkFixedInvFreq(base: number, dim: number, scale: number): Float64Array {
  const inv = defaultInvFreq(base, dim);
  checkFactor(scale, 'scale');
  for (let i = 0; i < inv.length; i++) inv[i] /= Math.pow(scale, (2 * (i + 1)) / dim);
  return inv;
}

/** The mixed-base exponent a with λ₁⋯λ_{d/2} = exp(a·(d/2)^b) = k, i.e. a = ln k / (d/2)^b. */
export function ntkMixedA(scale: number, dim: number, exponentB = 0.625): number {
  checkFactor(scale, 'scale');
  checkRotaryDim(dim);
  checkNumber(exponentB, 'b');
  return Math.log(scale) / Math.pow(dim / 2, exponentB);
}

/**
 * NTK-RoPE-mixed: θ_m = β^(−(m−1)) / (λ₁⋯λ_m) with λ₁⋯λ_m = exp(a·m^b), a = ln k/(d/2)^b.
 * b = 1 gives NTK-RoPE-fixed, b = 0 position interpolation; 0.625 is Su's empirical default.
 */
export function ntkMixedInvFreq(base: number, dim: number, scale: number, exponentB = 0.625): Float64Array {
  if (exponentB > 1) throw new RopeError('invalid-parameter', `b must be ≤ 1 so that λ₁ ≥ λ₂ ≥ … ≥ 1, got ${exponentB}`);
  const a = ntkMixedA(scale, dim, exponentB);
  const inv = defaultInvFreq(base, dim);
  for (let i = 0; i < inv.length; i++) inv[i] *= Math.exp(-a * Math.pow(i + 1, exponentB));
  return inv;
}

/** NTK-by-parts ramp γ(r): 0 below α, 1 above β, linear between. */
export function ntkByPartsRamp(r: number, alpha: number, beta: number): number {
  if (!(beta > alpha)) throw new RopeError('invalid-parameter', `the ramp needs β > α, got α=${alpha}, β=${beta}`);
  if (r < alpha) return 0;
  if (r > beta) return 1;
  return (r - alpha) / (beta - alpha);
}

/**
 * NTK-by-parts: h(θᵢ) = (1 − γ(rᵢ))·θᵢ/s + γ(rᵢ)·θᵢ with rᵢ = L/λᵢ = L·θᵢ/2π (turns within the
 * original context L). Defaults α = 1, β = 32 as in YaRN for LLaMA.
 */
export function ntkByPartsInvFreq(base: number, dim: number, scale: number, originalLength: number, alpha = 1, beta = 32): Float64Array {
  const inv = defaultInvFreq(base, dim);
  checkFactor(scale, 'scale');
  checkLength(originalLength, 'original context length');
  for (let i = 0; i < inv.length; i++) {
    const r = (originalLength * inv[i]) / (2 * Math.PI);
    const g = ntkByPartsRamp(r, alpha, beta);
    inv[i] = (1 - g) * (inv[i] / scale) + g * inv[i];
  }
  return inv;
}

/** Position interpolation: every θᵢ divided by s (positions m → m·L/L'). */
export function positionInterpolationInvFreq(base: number, dim: number, scale: number): Float64Array {
  const inv = defaultInvFreq(base, dim);
  checkFactor(scale, 'scale');
  for (let i = 0; i < inv.length; i++) inv[i] /= scale;
  return inv;
}

/** Su's log-n attention scale applied only past the training length: max(1, log_L n). */
export function lognAttentionScale(n: number, trainingLength: number): number {
  checkLength(n, 'position n');
  checkLength(trainingLength, 'training length');
  if (trainingLength === 1) throw new RopeError('invalid-length', 'training length must be > 1');
  return Math.max(1, Math.log(n) / Math.log(trainingLength));
}

/**
 * Gradient's theta law b' = b^(ln(L'/2π) / ln(L/2π)): keeps the critical dimension of L' under b'
 * equal to that of L under b. (b = 5e5, L = 8192 → L' = 262144 gives 283,461,213.5.)
 */
export function gradientThetaBase(base: number, length: number, newLength: number): number {
  checkBase(base);
  checkLength(length, 'context length');
  checkLength(newLength, 'new context length');
  if (length <= 2 * Math.PI) throw new RopeError('invalid-length', `context length must exceed 2π, got ${length}`);
  return Math.pow(base, Math.log(newLength / (2 * Math.PI)) / Math.log(length / (2 * Math.PI)));
}
