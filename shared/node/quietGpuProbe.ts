/**
 * Node-only: asks which WebGPU adapter this machine has in a child process, so that Dawn's native
 * log lines ("Warning: Couldn't load Vulkan …", "… artificially reduced …"), which it writes to file
 * descriptor 2 directly where no JavaScript can catch them, land in a pipe instead of the user's
 * stderr. The process itself then loads Dawn only when a GPU will do work (a hardware adapter, or
 * a software one the user insists on with --backend gpu); on a machine without a GPU it never does.
 *
 * The lines are kept, not lost: with ROPE_LENS_NATIVE_LOG=1 (set by `--verbose`, and by the language
 * server when its trace setting is on) they are passed on to stderr, prefixed.
 */
import { spawnSync } from 'node:child_process';
import type { WebGpuInfo } from './webgpuLoad';

export interface QuietProbe {
  info: WebGpuInfo | null;
  /** Why there is no adapter (empty when there is one). */
  reason: string;
  /** What Dawn wrote to stderr in the child (empty when nothing). */
  nativeLog: string;
}

/** The environment variable that lets Dawn's own lines through (see the module comment). */
export const NATIVE_LOG_ENV = 'ROPE_LENS_NATIVE_LOG';

/** An adapter request with Dawn loading its backends takes ~0.3–1 s; a hung driver must not hang the caller. */
const PROBE_TIMEOUT_MS = 60_000;

/** Runs `script --probe` (dist/webgpuWorker.js prints {info, reason} as one JSON line) with stderr piped. */
export function probeWebGpuQuietly(script: string): QuietProbe {
  const r = spawnSync(process.execPath, [script, '--probe'], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    // Mesa's EGL reaches llvmpipe without a display only surfaceless (as openWebGpu sets for itself).
    env: { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM ?? 'surfaceless' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const nativeLog = r.stderr ?? '';
  passOn(nativeLog);
  const last = (r.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    const answer = JSON.parse(last) as { info: WebGpuInfo | null; reason: string };
    return { info: answer.info, reason: answer.reason, nativeLog };
  } catch {
    const why = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
    const said = nativeLog.trim().split('\n').pop();
    return { info: null, reason: `the WebGPU probe did not answer (${why}${said ? `: ${said}` : ''})`, nativeLog };
  }
}

/** Dawn's lines from a child's stderr: passed on to ours, prefixed, only when NATIVE_LOG_ENV asks. */
export function passOn(nativeLog: string): void {
  if (!nativeLog.trim() || process.env[NATIVE_LOG_ENV] !== '1') return;
  for (const line of nativeLog.replace(/\n+$/, '').split('\n')) process.stderr.write(`[webgpu] ${line}\n`);
}
