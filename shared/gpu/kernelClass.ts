/**
 * The gpu.js backend a kernel ran on, by name, without `constructor.name`: a minifier renames
 * classes (the packaged extension reported `n` and `eE`), so the kernel object is matched against
 * gpu.js's exported classes, most specific first (WebGL2Kernel and HeadlessGLKernel extend WebGLKernel).
 */
import * as gpujs from 'gpu.js';

export const GPUJS_KERNEL_CLASSES = ['WebGPUKernel', 'WebGL2Kernel', 'HeadlessGLKernel', 'WebGLKernel', 'WebAssemblyKernel', 'CPUKernel'] as const;

/** Classes that run on a GPU (everything but the CPU and WebAssembly fallbacks). */
export const GPU_KERNEL_CLASSES: readonly string[] = ['WebGPUKernel', 'WebGL2Kernel', 'HeadlessGLKernel', 'WebGLKernel'];

export function kernelClassName(kernel: unknown): string {
  if (!kernel || typeof kernel !== 'object') return 'unknown';
  const lib = gpujs as unknown as Record<string, unknown>;
  for (const name of GPUJS_KERNEL_CLASSES) {
    const C = lib[name];
    if (typeof C === 'function' && kernel instanceof (C as new (...a: never[]) => unknown)) return name;
  }
  return 'unknown';
}
