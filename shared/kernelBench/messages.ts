/**
 * Messages of the kernel-benchmark webview, and the validation of what the page sends back (a
 * webview is untrusted input: results are checked for shape and finite numbers before the host
 * writes them anywhere).
 */
import type { BenchRun, CaseResult } from './runner';

export type BenchHostMessage = { type: 'node-results'; run: BenchRun | null; note?: string } | { type: 'start'; size: 'small' | 'medium' };

export type BenchPageMessage = { type: 'ready' } | { type: 'webview-results'; run: BenchRun } | { type: 'export' };

const MAX_RESULTS = 64;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumOrNull = (v: unknown) => v === null || (typeof v === 'number' && !Number.isNaN(v));
const isStr = (v: unknown, max = 200) => typeof v === 'string' && v.length <= max;

function validResult(r: unknown): r is CaseResult {
  if (!isObj(r)) return false;
  const strings = ['id', 'label', 'kind', 'impl', 'backend'].every((k) => isStr(r[k]));
  const nums = ['elements', 'medianMs', 'minMs', 'maxMs', 'spreadPct', 'elementsPerSec'].every((k) => typeof r[k] === 'number');
  const opt = ['bytes', 'gbPerSec', 'ratioToMemcpy', 'maxAbsError', 'relError'].every((k) => isNumOrNull(r[k]));
  const samples = Array.isArray(r.samplesMs) && r.samplesMs.length <= 10000 && r.samplesMs.every((x) => typeof x === 'number');
  return strings && nums && opt && samples && (r.error === undefined || isStr(r.error, 2000));
}

export function parseBenchRun(v: unknown): BenchRun | undefined {
  if (!isObj(v) || !Array.isArray(v.results) || v.results.length > MAX_RESULTS) return undefined;
  if (!v.results.every(validResult)) return undefined;
  if (!isStr(v.environment, 1000) || typeof v.cancelled !== 'boolean' || !isNumOrNull(v.memcpyGBs) || typeof v.totalMs !== 'number') return undefined;
  const s = v.settings;
  if (!isObj(s) || !Number.isInteger(s.warmup) || !Number.isInteger(s.repeats)) return undefined;
  return v as unknown as BenchRun;
}

export function parseBenchPageMessage(raw: unknown): BenchPageMessage | undefined {
  if (!isObj(raw)) return undefined;
  switch (raw.type) {
    case 'ready':
    case 'export':
      return Object.keys(raw).length === 1 ? { type: raw.type } : undefined;
    case 'webview-results': {
      const run = parseBenchRun(raw.run);
      return run && Object.keys(raw).length === 2 ? { type: 'webview-results', run } : undefined;
    }
    default:
      return undefined;
  }
}
