/**
 * Node-only: opens a WebGPU device through the optional `webgpu` package (Dawn for Node), lazily.
 * Nothing here runs until a GPU job or probe asks for it; without the package, without a native
 * binary for this platform or without an adapter the answer is `{ device: null, reason }`, never a throw.
 *
 * The native module is required directly (dist/<platform>-<arch>/dawn.node beside the package's
 * package.json) rather than through the package's ES-module index, so the CommonJS bundles need no
 * dynamic import. ROPE_LENS_WEBGPU_DIR names another folder with that layout (a copy carried to a
 * machine without node_modules). Adapters are tried in order: Dawn's default (Vulkan, Metal, D3D12),
 * then OpenGL ES in WebGPU compatibility mode, which is what Mesa's llvmpipe offers through EGL on a
 * machine without a GPU (set EGL_PLATFORM=surfaceless there; we set it when unset).
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The WebGPU typings and flags live with the screen (shared/gpu/fbScreen.ts), which any device runs.
import type { GpuDeviceLike } from '../gpu/fbScreen';
export { type GpuBufferLike, type GpuDeviceLike, MAP_READ, USAGE } from '../gpu/fbScreen';

export interface WebGpuInfo {
  /** 'vulkan' etc. (Dawn's default backend) or 'opengles' (compatibility mode). */
  backend: string;
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** A CPU rasterizer (llvmpipe, lavapipe, SwiftShader): correct plumbing, but slower than the float64 CPU sweep. */
  software: boolean;
}

export interface WebGpuHandle {
  device: GpuDeviceLike | null;
  info: WebGpuInfo | null;
  /** Why there is no device (empty when there is one). */
  reason: string;
}

const SOFTWARE = /llvmpipe|lavapipe|softpipe|swiftshader|swrast|software/i;

interface DawnModule {
  create(flags: string[]): { requestAdapter(o?: Record<string, unknown>): Promise<AdapterLike | null> };
  globals: Record<string, unknown>;
}
interface AdapterLike {
  info?: { vendor?: string; architecture?: string; device?: string; description?: string };
  limits: Record<string, number>;
  requestDevice(d?: Record<string, unknown>): Promise<GpuDeviceLike>;
}

/** The folder holding webgpu's package.json and dist/, or null when the optional package is missing. */
export function webgpuPackageDir(): string | null {
  const env = process.env.ROPE_LENS_WEBGPU_DIR;
  if (env) return existsSync(join(env, 'package.json')) ? env : null;
  try {
    const req = createRequire(__filename);
    return dirname(req.resolve('webgpu/package.json'));
  } catch {
    return null;
  }
}

let dawn: DawnModule | null | undefined;
let dawnError = '';

function loadDawn(): DawnModule | null {
  if (dawn !== undefined) return dawn;
  const dir = webgpuPackageDir();
  if (!dir) {
    dawnError = 'the optional package `webgpu` is not installed';
    return (dawn = null);
  }
  const arch = process.platform === 'darwin' ? 'universal' : process.arch;
  const file = join(dir, 'dist', `${process.platform}-${arch}`, 'dawn.node');
  if (!existsSync(file)) {
    dawnError = `webgpu has no native binary for ${process.platform}-${arch} (${file})`;
    return (dawn = null);
  }
  try {
    const req = createRequire(__filename);
    dawn = req(file) as DawnModule;
    // WebGPU's classes (GPUBufferUsage and friends) as globals, as the package's own index does.
    for (const [k, v] of Object.entries(dawn.globals)) if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
    return dawn;
  } catch (e) {
    dawnError = `webgpu's native binary did not load: ${(e as Error)?.message ?? String(e)}`;
    return (dawn = null);
  }
}

let opened: Promise<WebGpuHandle> | null = null;
/** The Dawn instance behind each opened device on this thread, held so the garbage collector never frees one under its device. */
const liveInstances: unknown[] = [];

/** One device per thread, opened on first use (later calls share it). */
export function openWebGpu(): Promise<WebGpuHandle> {
  opened ??= open();
  return opened;
}

async function open(): Promise<WebGpuHandle> {
  const d = loadDawn();
  if (!d) return { device: null, info: null, reason: dawnError };
  process.env.EGL_PLATFORM ??= 'surfaceless';
  const attempts: { backend: string; flags: string[]; opts: Record<string, unknown> }[] = [
    { backend: 'default', flags: [], opts: { powerPreference: 'high-performance' } },
    { backend: 'opengles', flags: ['backend=opengles'], opts: { featureLevel: 'compatibility' } },
  ];
  const why: string[] = [];
  for (const a of attempts) {
    try {
      const gpu = d.create(a.flags);
      const adapter = await gpu.requestAdapter(a.opts);
      if (!adapter) {
        why.push(`${a.backend}: no adapter`);
        continue;
      }
      const i = adapter.info ?? {};
      const label = `${i.vendor ?? ''} ${i.architecture ?? ''} ${i.device ?? ''} ${i.description ?? ''}`;
      // Dawn lists software Vulkan (lavapipe, SwiftShader) as adapters too; keep looking past them for the
      // GL path only when the default one refused, so report whatever answered first.
      const device = await adapter.requestDevice({
        requiredLimits: {
          maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
          maxBufferSize: adapter.limits.maxBufferSize,
        },
      });
      // Dawn's instance lives only as long as the object create() returned: once that is garbage-collected,
      // the device's internals are freed under it (the H100 run's hangs and aborts at L ≥ 2^18 were this:
      // a few dozen screens in, a GC, then a hung mapAsync, a mutex assertion or std::system_error).
      liveInstances.push(gpu);
      const backend = a.backend === 'default' ? (/vulkan/i.test(label) ? 'vulkan' : 'native') : a.backend;
      return {
        device,
        info: {
          backend: a.backend === 'default' ? backend : 'opengles',
          vendor: i.vendor ?? '',
          architecture: i.architecture ?? '',
          device: i.device ?? '',
          description: i.description ?? '',
          software: SOFTWARE.test(label),
        },
        reason: '',
      };
    } catch (e) {
      why.push(`${a.backend}: ${(e as Error)?.message ?? String(e)}`);
    }
  }
  return { device: null, info: null, reason: `no WebGPU adapter (${why.join('; ')})` };
}

/** One-line description of an adapter for reports. */
export function describeAdapter(info: WebGpuInfo): string {
  const name = [info.vendor, info.device || info.architecture].filter(Boolean).join(' ');
  return `${name || 'unknown adapter'}${info.description ? ` (${info.description})` : ''}, WebGPU on ${info.backend}${info.software ? ', software rasterizer' : ''}`;
}
