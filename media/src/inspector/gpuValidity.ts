/**
 * "Check on the GPU": re-evaluates the validity grid with the b* engine's gpu.js f_b screen on
 * WebGL2 (float32 screen; flagged chunks re-checked in float64 by the screen itself) and compares
 * each base's verdict with the extension's float64 scan. Opt-in, in batches, because a software
 * WebGL (SwiftShader) runs the screen far slower than the CPU scan; on a real GPU it is quick.
 */
import { GPU } from 'gpu.js';
import { createFbScreen } from '../../../shared/gpu/fbKernel';
import type { ValidityScan } from '../../../shared/inspector/types';
import { fmtCompact } from '../../../shared/core/format';

export interface GpuCheckResult {
  kernel: string;
  agree: number;
  total: number;
  disagree: number[];
  checkedChunks: number;
  ms: number;
}

/** For tests: the last finished check. */
export const lastGpuCheck: { result?: GpuCheckResult; error?: string } = {};

const BATCH = 4;

export function gpuValidityControl(v: ValidityScan): HTMLElement {
  const box = document.createElement('div');
  box.className = 'rl-gpu-check';
  const btn = document.createElement('button');
  btn.type = 'button';
  btn.className = 'secondary';
  btn.id = 'rl-gpu-check';
  btn.textContent = 'Check these bases on the GPU (gpu.js)';
  const out = document.createElement('span');
  out.className = 'rl-note';
  out.id = 'rl-gpu-result';
  box.append(btn, ' ', out);
  if (!GPU.isWebGL2Supported) {
    btn.disabled = true;
    out.textContent = 'No WebGL2 in this view: the plot above is the float64 CPU scan only.';
    return box;
  }
  btn.addEventListener('click', () => {
    btn.disabled = true;
    const gpu = new GPU({ mode: 'webgl2' });
    const screen = createFbScreen(gpu, v.rotaryDim);
    const t0 = performance.now();
    const disagree: number[] = [];
    let agree = 0,
      checked = 0,
      i = 0;
    const finish = (error?: string) => {
      screen.destroy();
      void gpu.destroy();
      btn.disabled = false;
      if (error) {
        lastGpuCheck.error = error;
        out.textContent = `GPU check failed: ${error}`;
        return;
      }
      const r: GpuCheckResult = { kernel: screen.kernelClass(), agree, total: v.bases.length, disagree, checkedChunks: checked, ms: performance.now() - t0 };
      lastGpuCheck.result = r;
      out.textContent =
        `${r.kernel}: ${agree}/${r.total} bases agree with the float64 scan` +
        (disagree.length ? `; differ at b = ${disagree.map((b) => fmtCompact(b)).join(', ')}` : '') +
        ` (${checked} chunks re-checked in float64, ${(r.ms / 1000).toFixed(1)} s).`;
    };
    const step = () => {
      try {
        const bases = v.bases.slice(i, i + BATCH);
        const res = screen.screen(bases, v.length);
        res.forEach((r, k) => {
          checked += r.checkedChunks;
          const gpuValid = r.firstNegative === null;
          const cpuValid = v.lmax[i + k] >= v.length;
          if (gpuValid === cpuValid) agree++;
          else disagree.push(bases[k]);
        });
        i += BATCH;
        out.textContent = `GPU screen (${screen.kernelClass()}): ${Math.min(i, v.bases.length)}/${v.bases.length} bases…`;
        if (i < v.bases.length) setTimeout(step, 0);
        else finish();
      } catch (e) {
        finish((e as Error).message);
      }
    };
    out.textContent = 'Compiling the GPU kernel…';
    setTimeout(step, 20);
  });
  return box;
}
