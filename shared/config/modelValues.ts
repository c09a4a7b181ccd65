/**
 * Small readers that turn ConfigNodes into Located values. Real configs write the same number
 * many ways (`1e6`, `"1e6"`, `500_000`); Python's float() accepts all of them, so we do too.
 */
import { ConfigNode, child, pathOf } from '../document/configNode';
import type { Located } from './modelRope';

/** Key path of a node as written, e.g. `text_config.rope_scaling.factor` or `rope_scaling.long_factor[3]`. */
export function keyPathOf(node: ConfigNode): string {
  let out = '';
  for (const seg of pathOf(node)) {
    out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  }
  return out;
}

const NUMERIC_STRING = /^[+-]?(\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(e[+-]?\d+)?$/i;

/** A node's numeric value: numbers as they are, numeric strings as Python float() reads them. */
export function numberOf(node: ConfigNode | undefined): number | undefined {
  if (!node) return undefined;
  if (node.kind === 'number' && typeof node.value === 'number') return node.value;
  if (node.kind === 'string' && typeof node.value === 'string') {
    const s = node.value.trim();
    if (!NUMERIC_STRING.test(s) || /__|_$|^_|_\.|\._/.test(s)) return undefined;
    const n = Number(s.replace(/_/g, ''));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A node's boolean value (YAML/JSON booleans only). */
export function booleanOf(node: ConfigNode | undefined): boolean | undefined {
  return node?.kind === 'boolean' && typeof node.value === 'boolean' ? node.value : undefined;
}

/** A node's string value. */
export function stringOf(node: ConfigNode | undefined): string | undefined {
  return node?.kind === 'string' && typeof node.value === 'string' ? node.value : undefined;
}

/** The numeric property `key` of `obj` as a Located value, or undefined when absent, null or not a number. */
export function locatedNumber(obj: ConfigNode | undefined, key: string): Located<number> | undefined {
  const node = child(obj, key);
  const value = numberOf(node);
  return value === undefined ? undefined : { value, node, key: keyPathOf(node!) };
}

export function locatedBoolean(obj: ConfigNode | undefined, key: string): Located<boolean> | undefined {
  const node = child(obj, key);
  const value = booleanOf(node);
  return value === undefined ? undefined : { value, node, key: keyPathOf(node!) };
}

export function locatedString(obj: ConfigNode | undefined, key: string): Located<string> | undefined {
  const node = child(obj, key);
  const value = stringOf(node);
  return value === undefined ? undefined : { value, node, key: keyPathOf(node!) };
}

/** A plain value of a scaling parameter: numbers (also from numeric strings), lists, booleans, strings. */
export function paramValue(node: ConfigNode): unknown {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'string':
      return numberOf(node) ?? node.value;
    case 'boolean':
      return node.value;
    case 'null':
      return null;
    case 'array':
      return (node.children ?? []).map(paramValue);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const c of node.children ?? []) out[c.key!] = paramValue(c);
      return out;
    }
  }
}

/** A derived or default value with the reason. */
export function noted<T>(value: T, note: string): Located<T> {
  return { value, note };
}
