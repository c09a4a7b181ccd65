/**
 * The shapes a RoPE description takes outside the process that read it, derived from the core
 * types instead of copied: a field added to ModelRope (or anything it holds) reaches the CLI's JSON,
 * the server's `ropeLens/describe` answer and the Inspector without a hand-written twin.
 *   Wire<T>:  every tree node replaced by its source range (what the language server sends).
 *   Plain<T>: every located value replaced by the value itself (what `--json` prints).
 *   Detached<T>: every tree node dropped (a value read from another file: a base model's config).
 */
import type { ConfigNode } from '../document/configNode';
import type { Range } from '../document/positions';
import type { Located } from './modelRope';

type LocatedKeys = keyof Located<unknown>;
/** Located<V> exactly (only value/node/key/note), not a richer object that happens to have `value`. */
type IsLocated<T> = T extends { value: unknown } ? (Exclude<keyof T, LocatedKeys> extends never ? true : false) : false;

export type Wire<T> = T extends ConfigNode
  ? Range
  : T extends readonly (infer E)[]
    ? Wire<E>[]
    : T extends object
      ? { [K in keyof T as K extends 'node' ? 'range' : K]: Wire<T[K]> }
      : T;

export type Plain<T> = T extends readonly (infer E)[]
  ? Plain<E>[]
  : IsLocated<T> extends true
    ? T extends Located<infer V>
      ? Plain<V>
      : never
    : T extends object
      ? { [K in keyof T as K extends 'node' ? never : K]: Plain<T[K]> }
      : T;

export type Detached<T> = T extends readonly (infer E)[]
  ? Detached<E>[]
  : T extends object
    ? { [K in keyof T as K extends 'node' ? never : K]: Detached<T[K]> }
    : T;

const isNode = (v: unknown): v is ConfigNode =>
  typeof v === 'object' && v !== null && typeof (v as ConfigNode).offset === 'number' && typeof (v as ConfigNode).length === 'number' && 'kind' in v;

const LOCATED_KEYS = new Set(['value', 'node', 'key', 'note']);
function isLocated(v: object): v is Located<unknown> {
  return 'value' in v && Object.keys(v).every((k) => LOCATED_KEYS.has(k));
}

function mapDeep(v: unknown, onObject: (o: Record<string, unknown>) => unknown | undefined): unknown {
  if (Array.isArray(v)) return v.map((x) => mapDeep(x, onObject));
  if (typeof v !== 'object' || v === null) return v;
  const special = onObject(v as Record<string, unknown>);
  if (special !== undefined) return special;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = mapDeep(x, onObject);
  return out;
}

/** Nodes → ranges (`rangeOf` turns a node into the document's positions). */
export function toWire<T>(value: T, rangeOf: (node: ConfigNode) => Range): Wire<T> {
  return mapDeep(value, (o) => {
    if (!('node' in o) || !isNode(o.node)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
      if (x === undefined) continue;
      if (k === 'node') out.range = rangeOf(x as ConfigNode);
      else out[k] = toWire(x, rangeOf);
    }
    return out;
  }) as Wire<T>;
}

/** Located values → their values, nodes dropped; NaN (unknown) → null so JSON keeps the key. */
export function toPlain<T>(value: T): Plain<T> {
  const leaf = (x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? null : x);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number') return leaf(v);
    return mapDeep(v, (o) => {
      if (isLocated(o)) return walk(o.value) ?? null;
      if (!('node' in o)) return undefined;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(o)) if (k !== 'node' && x !== undefined) out[k] = walk(x);
      return out;
    });
  };
  return walk(value) as Plain<T>;
}

/**
 * Values read from another document (a training YAML's base model): nodes dropped, since they
 * point into that file, and every located value notes where it came from.
 */
export function detached<T>(value: T, from: string): Detached<T> {
  return mapDeep(value, (o) => {
    if (isLocated(o)) {
      const out: Record<string, unknown> = { value: detached(o.value, from) };
      if (o.key !== undefined) out.key = o.key;
      out.note = o.note ?? `from ${from}`;
      return out;
    }
    if (!('node' in o)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) if (k !== 'node' && x !== undefined) out[k] = detached(x, from);
    return out;
  }) as Detached<T>;
}
