/**
 * Validation of everything the page sends. A webview is a browser page: treat its messages like
 * network input. Each parser returns a typed message or a reason, never throws, and accepts only
 * the exact shapes of `PageMessage` with values in the ranges the Inspector can compute.
 */
import { InspectorControls, PageMessage, REWRITE_METHODS, RewriteMethod, InspectorState } from './types';

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
    default:
      return { ok: false, reason: `unknown message type ${JSON.stringify(raw.type)}` };
  }
}

/** The serializer hands back whatever the page stored: keep only what still validates. */
export function parseState(raw: unknown): InspectorState {
  if (!isPlainObject(raw)) return {};
  const state: InspectorState = {};
  if (typeof raw.uri === 'string' && raw.uri.length < 4096) state.uri = raw.uri;
  const c = parseControls(raw.controls);
  if (c.ok) state.controls = c.value;
  return state;
}
