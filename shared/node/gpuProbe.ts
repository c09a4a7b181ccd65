/**
 * Node-only: does this process have a real GPU context for gpu.js, and a witness screen on it?
 * gpu.js falls back silently (to WebAssemblyKernel or CPUKernel) when headless-gl is missing, so
 * the answer comes from the class of a kernel that actually ran, not from gpu.js's own flags; and a
 * context that is a software rasterizer (llvmpipe, SwiftShader) is reported as such, because the
 * float64 CPU sweep beats it.
 */
import { RopeError } from '../core/errors';
import { createFbScreen, FbScreen } from '../gpu/fbKernel';
import { GPU_KERNEL_CLASSES, kernelClassName } from '../gpu/kernelClass';

export interface GpuProbe {
  available: boolean;
  software: boolean;
  kernel: string;
  renderer: string;
  reason: string;
}

const SOFTWARE = /llvmpipe|softpipe|swiftshader|swrast/i;

type GpuModule = typeof import('gpu.js');

function loadGpu(): GpuModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('gpu.js') as GpuModule;
}

function rendererOf(gpu: InstanceType<GpuModule['GPU']>): string {
  const gl = gpu.context as { RENDERER?: number; getParameter?(p: number): unknown } | undefined;
  try {
    return gl?.getParameter && gl.RENDERER !== undefined ? String(gl.getParameter(gl.RENDERER)) : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Asks headless-gl itself for a context before loading gpu.js (~1 MB of code and its heap): in
 * most Node processes (no `gl` build, no display) there is none, and the language server should
 * not pay for gpu.js to learn that.
 */
function headlessGlContext(): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const createContext = require('gl') as (w: number, h: number) => { getExtension(n: string): { destroy?(): void } | null } | null;
    const ctx = typeof createContext === 'function' ? createContext(1, 1) : null;
    if (!ctx) return false;
    ctx.getExtension('STACKGL_destroy_context')?.destroy?.();
    return true;
  } catch {
    return false;
  }
}

export function probeGpu(): GpuProbe {
  if (!headlessGlContext()) {
    return {
      available: false,
      software: false,
      kernel: 'none',
      renderer: 'none',
      reason: 'no headless-gl (WebGL) context in this Node process, so gpu.js would not run on a GPU',
    };
  }
  try {
    const { GPU } = loadGpu();
    // In Node the only GPU route is headless-gl; without it there is nothing to try.
    if (!GPU.isHeadlessGLSupported) {
      return { available: false, software: false, kernel: 'none', renderer: 'none', reason: 'gpu.js has no headless-gl (WebGL) context in this Node process' };
    }
    const gpu = new GPU({ mode: 'gpu' });
    try {
      const k = gpu
        .createKernel(function (this: { thread: { x: number } }, a: number[]) {
          return a[this.thread.x] + 1;
        })
        .setOutput([2]);
      const out = k([1, 2]) as Float32Array;
      const kernel = kernelClassName((k as unknown as { kernel?: unknown }).kernel);
      const ok = GPU_KERNEL_CLASSES.includes(kernel) && out[0] === 2 && out[1] === 3;
      const renderer = rendererOf(gpu);
      return {
        available: ok,
        software: SOFTWARE.test(renderer),
        kernel,
        renderer,
        reason: ok ? '' : `gpu.js runs on ${kernel} here (no WebGL/headless-gl context in this Node process)`,
      };
    } finally {
      gpu.destroy();
    }
  } catch (e) {
    return { available: false, software: false, kernel: 'none', renderer: 'none', reason: `gpu.js could not start: ${(e as Error)?.message ?? String(e)}` };
  }
}

/** A gpu.js f_b screen on headless-gl; refuses (RopeError) if gpu.js would run it anywhere but a GPU. */
export function openGpuScreen(headDim: number): FbScreen {
  const { GPU } = loadGpu();
  const screen = createFbScreen(new GPU({ mode: 'gpu' }), headDim);
  screen.screen([1e4], 64);
  if (!screen.onGpu()) {
    screen.destroy();
    throw new RopeError('invalid-parameter', `gpu backend unavailable: gpu.js fell back to ${screen.kernelClass()}`);
  }
  return screen;
}
