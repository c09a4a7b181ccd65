/**
 * Validation of everything the page sends. A webview is a browser page: treat its messages like
 * network input. Each parser returns a typed message or a reason, never throws, and accepts only
 * the exact shapes of `PageMessage` with values in the ranges the Inspector can compute.
 */
import { InspectorControls, PageMessage, REWRITE_METHODS, RewriteMethod, InspectorState } from './types';
import type { PlanViewRequest } from './planTypes';

/** Largest target length the Inspector computes interactively (f(m) is scanned over every m). */
export const MAX_TARGET_LENGTH = 4_194_304;
export const MIN_TARGET_LENGTH = 16;
export const MIN_BASE = 1.0001;
export const MAX_BASE = 1e12;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function onlyKeys(o: Record<string, unknown>, allowed: string[]): string | undefined {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) return `unexpected field '${k}'`;
  return undefined;
}

export function isRewriteMethod(v: unknown): v is RewriteMethod {
  return typeof v === 'string' && (REWRITE_METHODS as readonly string[]).includes(v);
}

export function parseControls(raw: unknown): Parsed<InspectorControls> {
  if (!isPlainObject(raw)) return { ok: false, reason: 'controls must be an object' };
  const extra = onlyKeys(raw, ['method', 'targetLength', 'base']);
  if (extra) return { ok: false, reason: extra };
  if (!isRewriteMethod(raw.method)) return { ok: false, reason: `unknown method ${JSON.stringify(raw.method)}` };
  const t = raw.targetLength;
  if (typeof t !== 'number' || !Number.isInteger(t) || t < MIN_TARGET_LENGTH || t > MAX_TARGET_LENGTH) {
    return { ok: false, reason: `target length must be an integer in [${MIN_TARGET_LENGTH}, ${MAX_TARGET_LENGTH}], got ${String(t)}` };
  }
  const controls: InspectorControls = { method: raw.method, targetLength: t };
  if (raw.base !== undefined) {
    const b = raw.base;
    if (typeof b !== 'number' || !Number.isFinite(b) || b < MIN_BASE || b > MAX_BASE) {
      return { ok: false, reason: `base must be a number in [${MIN_BASE}, ${MAX_BASE}], got ${String(b)}` };
    }
    controls.base = b;
  }
  return { ok: true, value: controls };
}

export function parsePageMessage(raw: unknown): Parsed<PageMessage> {
  if (!isPlainObject(raw)) return { ok: false, reason: 'message must be an object' };
  switch (raw.type) {
    case 'ready':
    case 'export-json': {
      const extra = onlyKeys(raw, ['type']);
      return extra ? { ok: false, reason: extra } : { ok: true, value: { type: raw.type } };
    }
    case 'update':
    case 'apply': {
      const extra = onlyKeys(raw, ['type', 'controls']);
      if (extra) return { ok: false, reason: extra };
      const c = parseControls(raw.controls);
      return c.ok ? { ok: true, value: { type: raw.type, controls: c.value } } : c;
    }
    case 'plan-write': {
      const extra = onlyKeys(raw, ['type', 'stage']);
      if (extra) return { ok: false, reason: extra };
      const k = raw.stage;
      if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k >= MAX_PLAN_STAGES)
        return { ok: false, reason: `stage must be an integer in [0, ${MAX_PLAN_STAGES}), got ${String(k)}` };
      return { ok: true, value: { type: 'plan-write', stage: k } };
    }
    default:
      return { ok: false, reason: `unknown message type ${JSON.stringify(raw.type)}` };
  }
}

/** Most stages a plan request may name (the target included). */
export const MAX_PLAN_STAGES = 16;
/** Longest plan target (the planner's bound scans stop at 2²⁴). */
export const MAX_PLAN_LENGTH = 16_777_216;

const isPlanLength = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 2 && v <= MAX_PLAN_LENGTH;

/** A plan request kept in the page's state (target, optional stages before it). */
export function parsePlanRequest(raw: unknown): Parsed<PlanViewRequest> {
  if (!isPlainObject(raw)) return { ok: false, reason: 'plan request must be an object' };
  const extra = onlyKeys(raw, ['target', 'stages']);
  if (extra) return { ok: false, reason: extra };
  if (!isPlanLength(raw.target)) return { ok: false, reason: `plan target must be an integer in [2, ${MAX_PLAN_LENGTH}], got ${String(raw.target)}` };
  if (raw.stages === undefined) return { ok: true, value: { target: raw.target } };
  if (!Array.isArray(raw.stages) || raw.stages.length >= MAX_PLAN_STAGES || !raw.stages.every(isPlanLength)) {
    return { ok: false, reason: `plan stages must be fewer than ${MAX_PLAN_STAGES} integer lengths` };
  }
  return { ok: true, value: { target: raw.target, stages: [...raw.stages] as number[] } };
}

/** The serializer hands back whatever the page stored: keep only what still validates. */
export function parseState(raw: unknown): InspectorState {
  if (!isPlainObject(raw)) return {};
  const state: InspectorState = {};
  if (typeof raw.uri === 'string' && raw.uri.length < 4096) state.uri = raw.uri;
  const c = parseControls(raw.controls);
  if (c.ok) state.controls = c.value;
  const p = parsePlanRequest(raw.plan);
  if (p.ok) state.plan = p.value;
  if (raw.view === 'plan' && state.plan) state.view = 'plan';
  else if (raw.view === 'inspector') state.view = 'inspector';
  return state;
}
