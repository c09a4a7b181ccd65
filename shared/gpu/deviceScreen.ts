/**
 * The f_b screen on one WebGPU device, as the neighbourhood proof and the validity map consume it:
 * float32 chunk minima minus the proven ε, per (base, block of m), as lower bounds. Pure: the device
 * is a parameter (Dawn's in Node, `navigator.gpu`'s in the browser's b* worker), so both run this
 * same code. Every decision stays on the CPU in float64 (bstar/neighbourhood.ts, bstar/validityMap.ts),
 * so the answers are the CPU's whatever the device computes, provided it keeps to ε: `calibrate` says
 * whether it does, on a sample, before any screen is trusted.
 */
import { thetas } from '../rope/fb';
import { type Calibration, type GpuDeviceLike, WgslFbScreen, calibrationOf, calibrationRequest, packFrequencies } from './fbScreen';

/** (Bases × blocks) per device request: keeps each answer a few MB (the Node worker's slice too). */
const REQUEST_SLICE = 1 << 22;

export interface DeviceScreen {
  /** The driver's float32 error against float64 on a sample, once per head dimension. */
  calibrate(headDim: number): Promise<Calibration>;
  /**
   * Lower bounds of f over (base k, block j), row-major [k·blocks + j], block j = [j·block, min((j+1)·block, L)):
   * what a NeighbourhoodScreen returns, computed asynchronously. `eps`: the calibrated ε.
   */
  lowerBounds(bases: Float64Array, headDim: number, length: number, block: number, eps: number): Promise<Float64Array>;
  /** Device requests answered so far (bases screened). */
  readonly basesScreened: number;
  destroy(): void;
}

export function deviceScreen(device: GpuDeviceLike): DeviceScreen {
  const wgsl = new WgslFbScreen(device);
  const calibrations = new Map<number, Promise<Calibration>>();
  let basesScreened = 0;
  return {
    calibrate(headDim) {
      let c = calibrations.get(headDim);
      if (!c) {
        c = wgsl.minima(calibrationRequest(headDim)).then((out) => calibrationOf(headDim, out));
        calibrations.set(headDim, c);
      }
      return c;
    },
    async lowerBounds(bases, headDim, length, block, eps) {
      const blocks = Math.ceil(length / block);
      const out = new Float64Array(bases.length * blocks);
      const per = Math.max(1, Math.floor(REQUEST_SLICE / blocks));
      for (let k0 = 0; k0 < bases.length; k0 += per) {
        const n = Math.min(per, bases.length - k0);
        const th = Array.from({ length: n }, (_, k) => thetas(bases[k0 + k], headDim));
        const minima = await wgsl.minima({ freq: packFrequencies(th), n: headDim / 2, bases: n, count: length, offset: 0, chunk: block });
        for (let i = 0; i < n * blocks; i++) out[k0 * blocks + i] = minima[i] - eps;
        basesScreened += n;
      }
      return out;
    },
    get basesScreened() {
      return basesScreened;
    },
    destroy: () => wgsl.destroy(),
  };
}
