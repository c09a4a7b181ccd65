/**
 * Node-only: does this process have a real GPU context for gpu.js? gpu.js falls back silently
 * (to WebAssemblyKernel or CPUKernel) when headless-gl is missing, so the answer comes from the
 * class of a kernel that actually ran, not from gpu.js's own flags.
 */
export interface GpuProbe { available: boolean; kernel: string; reason: string }

// Bundlers may rename classes (e.g. _WebAssemblyKernel), so match the stem.
const GPU_KERNELS = /(HeadlessGL|WebGL2?|WebGPU)Kernel/;

export function probeGpu(): GpuProbe {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GPU } = require('gpu.js') as typeof import('gpu.js');
    // In Node the only GPU route is headless-gl; without it there is nothing to try.
    if (!GPU.isHeadlessGLSupported) {
      return { available: false, kernel: 'none', reason: 'gpu.js has no headless-gl (WebGL) context in this Node process' };
    }
    const gpu = new GPU({ mode: 'gpu' });
    try {
      const k = gpu.createKernel(function (this: { thread: { x: number } }, a: number[]) { return a[this.thread.x] + 1; }).setOutput([2]);
      const out = k([1, 2]) as Float32Array;
      const kernel = (k as unknown as { kernel?: { constructor: { name: string } } }).kernel?.constructor.name ?? 'unknown';
      const ok = GPU_KERNELS.test(kernel) && out[0] === 2 && out[1] === 3;
      return { available: ok, kernel, reason: ok ? '' : `gpu.js runs on ${kernel} here (no WebGL/headless-gl context in this Node process)` };
    } finally {
      gpu.destroy();
    }
  } catch (e) {
    return { available: false, kernel: 'none', reason: `gpu.js could not start: ${(e as Error)?.message ?? String(e)}` };
  }
}
