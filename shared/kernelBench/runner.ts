/**
 * Micro-benchmark runner (pure; the clock and the UI yield are passed in so Node, the webview and
 * tests drive it alike): warm-up calls, timed repeats, median and interquartile spread,
 * throughput in elements/s and GB/s, the ratio to a memory-copy bandwidth measured in the same run,
 * and each case's max error against its float64 reference. Cancellable between calls.
 */
import { summarize } from './stats';

export type CaseKind = 'memcpy' | 'rope' | 'fb-scan';

export interface BenchCase {
  id: string;
  label: string;
  kind: CaseKind;
  /** 'gpu.js', 'TypeScript', … */
  impl: string;
  /** What actually ran (gpu.js kernel class, 'JS float32', …); read after the first call. */
  backend(): string;
  /** Elements produced per call (tensor elements; (base, m) pairs for the f_b scan). */
  elements: number;
  /** Bytes read plus written per call; undefined for compute-bound cases (no GB/s shown). */
  bytes?: number;
  /** Id of the memcpy case this one's GB/s is compared with (a GPU kernel against the GPU's own copy); default the first. */
  memcpyRef?: string;
  run(): void | Promise<void>;
  /** Error of the last call's output against the float64 reference. */
  verify?(): { maxAbs: number; refMax: number };
  teardown?(): void;
}

export interface BenchSettings {
  warmup: number;
  repeats: number;
}

export interface CaseResult {
  id: string;
  label: string;
  kind: CaseKind;
  impl: string;
  backend: string;
  elements: number;
  bytes: number | null;
  samplesMs: number[];
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Interquartile range / median, percent. */
  spreadPct: number;
  elementsPerSec: number;
  gbPerSec: number | null;
  /** GB/s of this case over the memory-copy GB/s of the same run. */
  ratioToMemcpy: number | null;
  maxAbsError: number | null;
  /** maxAbsError / max |reference|. */
  relError: number | null;
  /** Set when the case failed; the run goes on with the next case. */
  error?: string;
}

export interface BenchRun {
  settings: BenchSettings;
  environment: string;
  memcpyGBs: number | null;
  results: CaseResult[];
  cancelled: boolean;
  totalMs: number;
}

export interface RunnerHooks {
  now(): number;
  signal?: { aborted: boolean };
  onProgress?(done: number, total: number, label: string): void;
  /** Lets a UI repaint or a cancel arrive between calls. */
  yieldToUi?(): Promise<void>;
}

async function timeCalls(c: BenchCase, n: number, hooks: RunnerHooks, out?: number[]): Promise<boolean> {
  for (let i = 0; i < n; i++) {
    if (hooks.signal?.aborted) return false;
    const t0 = hooks.now();
    await c.run();
    const dt = hooks.now() - t0;
    out?.push(dt);
    if (hooks.yieldToUi) await hooks.yieldToUi();
  }
  return true;
}

export async function runBenchmarks(cases: BenchCase[], settings: BenchSettings, environment: string, hooks: RunnerHooks): Promise<BenchRun> {
  const t0 = hooks.now();
  const results: CaseResult[] = [];
  const total = cases.length * (settings.warmup + settings.repeats);
  let done = 0;
  let cancelled = false;
  for (const c of cases) {
    hooks.onProgress?.(done, total, c.label);
    const samples: number[] = [];
    let error: string | undefined;
    try {
      const ok = (await timeCalls(c, settings.warmup, hooks)) && (await timeCalls(c, settings.repeats, hooks, samples));
      if (!ok) {
        cancelled = true;
        c.teardown?.();
        break;
      }
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    done += settings.warmup + settings.repeats;
    let maxAbs: number | null = null,
      rel: number | null = null;
    if (!error && c.verify) {
      try {
        const v = c.verify();
        maxAbs = v.maxAbs;
        rel = v.refMax > 0 ? v.maxAbs / v.refMax : null;
      } catch (e) {
        error = `verification failed: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    let backend = '';
    // Bundlers rename classes (_WebAssemblyKernel): report the plain name.
    try {
      backend = c.backend().replace(/^_+/, '');
    } catch {
      backend = 'unknown';
    }
    c.teardown?.();
    const s = samples.length ? summarize(samples) : undefined;
    const sec = s ? s.median / 1000 : NaN;
    results.push({
      id: c.id,
      label: c.label,
      kind: c.kind,
      impl: c.impl,
      backend,
      elements: c.elements,
      bytes: c.bytes ?? null,
      samplesMs: samples,
      medianMs: s?.median ?? NaN,
      minMs: s?.min ?? NaN,
      maxMs: s?.max ?? NaN,
      spreadPct: s?.iqrPct ?? NaN,
      elementsPerSec: c.elements / sec,
      gbPerSec: c.bytes !== undefined ? c.bytes / sec / 1e9 : null,
      ratioToMemcpy: null,
      maxAbsError: maxAbs,
      relError: rel,
      ...(error ? { error } : {}),
    });
    hooks.onProgress?.(done, total, c.label);
  }
  const usable = (r: CaseResult | undefined) => (r && !r.error && r.gbPerSec !== null && Number.isFinite(r.gbPerSec) ? r.gbPerSec : null);
  const memcpyGBs = usable(results.find((r) => r.kind === 'memcpy' && usable(r) !== null));
  const refOf = new Map(cases.map((c) => [c.id, c.memcpyRef]));
  for (const r of results) {
    const ref = refOf.get(r.id);
    const gbs = ref ? usable(results.find((x) => x.id === ref)) : memcpyGBs;
    if (gbs && r.gbPerSec !== null && Number.isFinite(r.gbPerSec)) r.ratioToMemcpy = r.gbPerSec / gbs;
  }
  return { settings, environment, memcpyGBs, results, cancelled, totalMs: hooks.now() - t0 };
}

/** The memory-copy reference: Float32Array.set of `n` floats (bytes = read + write). */
export function memcpyCase(n: number): BenchCase {
  const src = new Float32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  const dst = new Float32Array(n);
  return {
    id: 'memcpy',
    label: `memory copy (${((n * 4) / 1048576).toFixed(1)} MiB)`,
    kind: 'memcpy',
    impl: 'TypedArray.set',
    backend: () => 'JS',
    elements: n,
    bytes: 8 * n,
    run: () => {
      dst.set(src);
    },
    verify: () => {
      let maxAbs = 0;
      for (let i = 0; i < n; i++) maxAbs = Math.max(maxAbs, Math.abs(dst[i] - src[i]));
      return { maxAbs, refMax: n - 1 };
    },
  };
}
