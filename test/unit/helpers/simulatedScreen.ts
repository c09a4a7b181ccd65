/**
 * A stand-in for the WebGPU f_b screen, for tests without a GPU: per (base, block of m) the block's
 * float64 minimum (θ by Math.pow, f by Math.cos) lowered by up to ε with deterministic noise, as the
 * float32 screen's proven bound allows.
 */
import type { NeighbourhoodScreen } from '../../../shared/bstar/neighbourhood';

export function screenLowerBounds(bases: Float64Array, d: number, L: number, block: number, eps: number): Float64Array {
  const nb = Math.ceil(L / block);
  const out = new Float64Array(bases.length * nb);
  for (let k = 0; k < bases.length; k++) {
    const th = Array.from({ length: d / 2 }, (_, i) => Math.pow(bases[k], (-2 * i) / d));
    for (let j = 0; j < nb; j++) {
      let min = Infinity;
      for (let m = j * block; m < Math.min(L, (j + 1) * block); m++) {
        let s = 0;
        for (const t of th) s += Math.cos(m * t);
        if (s < min) min = s;
      }
      out[k * nb + j] = min - eps * (0.5 + 0.5 * Math.sin(k * 7.1 + j * 3.3)) - 1e-9;
    }
  }
  return out;
}

/** The synchronous screen the Node worker's GPU bridge stands for. */
export function simulatedScreen(eps: number): NeighbourhoodScreen {
  return (bases, d, L, block) => screenLowerBounds(bases, d, L, block, eps);
}
