/**
 * Node-only: which WebGPU adapter this machine has, asked of a short-lived child process
 * (dist/webgpuProbe.js, webgpuProbeChild.ts) whose stderr is a pipe. Two reasons for the child:
 * - Dawn writes its own log lines ("Warning: Couldn't load Vulkan …", "… artificially reduced …")
 *   to file descriptor 2 directly, where no JavaScript can catch them; in the child they land in
 *   the pipe instead of the user's stderr.
 * - The asking process loads Dawn (and, without a GPU, Mesa's software rasterizer) only when a GPU
 *   will do work: a hardware adapter, or a software one the user insists on with --backend gpu.
 *
 * Dawn's lines are kept, not lost: with ROPE_LENS_NATIVE_LOG=1 (set by `--verbose`, and by the
 * language server when its trace setting is verbose) they are passed on to stderr, prefixed
 * (docs/native-logs.md).
 *
 * Two fronts to the one child: `probeAdapter` (asynchronous, kept for the life of the process; the
 * bound engine on the language server's or the CLI's main thread) and `probeAdapterNow`
 * (synchronous; the b* worker thread, whose certified sweep is synchronous, before it opens a device).
 * Without the probe script, with WebGPU disabled (ROPE_LENS_WEBGPU=0), or when the child fails or
 * takes too long, the answer is "no adapter", with the reason.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { WebGpuInfo } from './webgpuLoad';
import { trimTrailing } from '../core/text';

export interface AdapterProbe {
  info: WebGpuInfo | null;
  /** Why there is no adapter (empty when there is one). */
  reason: string;
}

/** The environment variable that lets Dawn's own lines through (see the module comment). */
export const NATIVE_LOG_ENV = 'ROPE_LENS_NATIVE_LOG';

/** Opening an adapter takes ~0.3–1 s on a GPU machine and a few on llvmpipe; a hung driver must not hang the caller. */
const PROBE_TIMEOUT_MS = 60_000;

/** WebGPU disabled by the environment (ROPE_LENS_WEBGPU=0): everything runs as without the package. */
export function webgpuDisabled(): boolean {
  const v = process.env.ROPE_LENS_WEBGPU;
  return v === '0' || v === 'off' || v === 'false';
}

export function defaultProbeScript(): string {
  const candidates = [join(__dirname, 'webgpuProbe.js'), resolve(__dirname, '../../dist/webgpuProbe.js')];
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

/** Answers by probe script (in practice one: the default). */
const probed = new Map<string, Promise<AdapterProbe>>();

/** The adapter, probed once per process in a child. */
export function probeAdapter(script = defaultProbeScript()): Promise<AdapterProbe> {
  const known = probed.get(script);
  if (known) return known;
  const asking = new Promise<AdapterProbe>((done) => {
    const refused = notProbed(script);
    if (refused) return done(refused);
    execFile(process.execPath, [script], { env: childEnv(), timeout: PROBE_TIMEOUT_MS, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const status = typeof err?.code === 'number' ? err.code : err ? null : 0;
      const error = typeof err?.code === 'string' ? err : undefined;
      done(answerOf(String(stdout ?? ''), String(stderr ?? ''), { error, signal: err?.signal ?? null, status }));
    });
  });
  probed.set(script, asking);
  return asking;
}

/** The adapter, probed now in a child, blocking the caller until it answers (a worker thread may block). */
export function probeAdapterNow(script = defaultProbeScript()): AdapterProbe {
  const refused = notProbed(script);
  if (refused) return refused;
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', env: childEnv(), timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  return answerOf(r.stdout ?? '', r.stderr ?? '', r);
}

/** Why no child is started, or null when one is. */
function notProbed(script: string): AdapterProbe | null {
  if (webgpuDisabled()) return { info: null, reason: 'WebGPU disabled by ROPE_LENS_WEBGPU=0' };
  if (!existsSync(script)) return { info: null, reason: `WebGPU probe script not found at ${script}` };
  return null;
}

/** Mesa's EGL reaches llvmpipe without a display only surfaceless (as openWebGpu sets for itself). */
function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM ?? 'surfaceless' };
}

/** The child's answer (its last JSON line on stdout, { info, reason }); Dawn's lines on its stderr are passed on when asked. */
function answerOf(stdout: string, stderr: string, end: { error?: Error; signal: NodeJS.Signals | null; status: number | null }): AdapterProbe {
  passOnNativeLog(stderr);
  const line = stdout
    .split('\n')
    .map((l) => l.trim())
    .reverse()
    .find((l) => l.startsWith('{'));
  if (line) {
    try {
      const r = JSON.parse(line) as Partial<AdapterProbe>;
      return { info: r.info ?? null, reason: r.reason ?? '' };
    } catch {
      // said below, with how the child ended
    }
  }
  const why = end.error ? end.error.message : end.signal ? `killed by ${end.signal}` : `exit ${end.status}`;
  const said = stderr.trim().split('\n').pop();
  return { info: null, reason: `the WebGPU probe did not answer (${why}${said ? `: ${said}` : ''})` };
}

/** Dawn's lines from the child's stderr: passed on to ours, prefixed, only when NATIVE_LOG_ENV asks. */
function passOnNativeLog(nativeLog: string): void {
  if (!nativeLog.trim() || process.env[NATIVE_LOG_ENV] !== '1') return;
  for (const line of trimTrailing(nativeLog, '\n').split('\n')) process.stderr.write(`[webgpu] ${line}\n`);
}
