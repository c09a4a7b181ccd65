/**
 * Node-only: which WebGPU adapter this machine has, asked of a short-lived child process
 * (dist/webgpuProbe.js), so the asking process never loads Dawn. The answer is kept for the life of
 * the process (adapters do not come and go under a running editor). Without the probe script, with
 * WebGPU disabled (ROPE_LENS_WEBGPU=0), or when the child fails or takes too long, the answer is
 * "no adapter", with the reason.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { webgpuDisabled } from './gpuBridge';
import type { WebGpuInfo } from './webgpuLoad';
import { passOn } from './quietGpuProbe';

export interface AdapterProbe {
  info: WebGpuInfo | null;
  reason: string;
}

/** Opening an adapter takes ~1 s on a GPU machine and a few on llvmpipe; a hung driver must not hang the caller. */
const PROBE_TIMEOUT_MS = 30_000;

export function defaultProbeScript(): string {
  const candidates = [join(__dirname, 'webgpuProbe.js'), resolve(__dirname, '../../dist/webgpuProbe.js')];
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

let probed: Promise<AdapterProbe> | null = null;

/** The adapter, probed once per process in a child. */
export function probeAdapter(script = defaultProbeScript()): Promise<AdapterProbe> {
  probed ??= runProbe(script);
  return probed;
}

function runProbe(script: string): Promise<AdapterProbe> {
  if (webgpuDisabled()) return Promise.resolve({ info: null, reason: 'WebGPU disabled by ROPE_LENS_WEBGPU=0' });
  if (!existsSync(script)) return Promise.resolve({ info: null, reason: `WebGPU probe script not found at ${script}` });
  return new Promise((done) => {
    const env = { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM ?? 'surfaceless' };
    execFile(process.execPath, [script], { env, timeout: PROBE_TIMEOUT_MS, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      passOn(String(stderr ?? ''));
      const line = String(stdout ?? '')
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{'));
      if (line) {
        try {
          const r = JSON.parse(line) as AdapterProbe;
          return done({ info: r.info ?? null, reason: r.reason ?? '' });
        } catch {
          // fall through
        }
      }
      done({ info: null, reason: `the WebGPU probe failed: ${err?.message ?? 'no answer'}` });
    });
  });
}
