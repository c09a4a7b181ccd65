/**
 * The few analysis helpers the Inspector needs from shared/rope. TEMPORARY bodies until
 * shared/rope/analysis.ts and seedMethods.ts land; then this file only re-exports those.
 */
export function wavelengths(invFreq: Float64Array): Float64Array {
  const out = new Float64Array(invFreq.length);
  for (let i = 0; i < invFreq.length; i++) out[i] = (2 * Math.PI) / invFreq[i];
  return out;
}
/** NTK-aware base: b·s^(d/(d−2)). */
export function ntkAwareBase(base: number, factor: number, dim: number): number {
  return base * Math.pow(factor, dim / (dim - 2));
}
/** Gradient's law: b' = b^(ln(T'/2π)/ln(T/2π)). */
export function gradientBase(base: number, trainLength: number, targetLength: number): number {
  return Math.pow(base, Math.log(targetLength / (2 * Math.PI)) / Math.log(trainLength / (2 * Math.PI)));
}
/** Liu et al.'s critical dimension as a pair index: ⌈(d/2)·log_b(T/2π)⌉. */
export function criticalDimension(base: number, dim: number, trainLength: number): number | null {
  const v = Math.ceil((dim / 2) * (Math.log(trainLength / (2 * Math.PI)) / Math.log(base)));
  return Number.isFinite(v) ? v : null;
}
