/**
 * Renders plain values as JSON or YAML source text for insertion into an existing document.
 * Numbers that Python must read as floats (factors) are wrapped in FloatValue so they keep a
 * decimal point (`4.0`): transformers 4.4x warns on an int `factor`, and PyYAML reads `1e6`
 * without a dot as a string.
 */
export class FloatValue {
  constructor(readonly value: number) {}
}
export const float = (v: number): FloatValue => new FloatValue(v);

export type PlainValue = number | string | boolean | null | FloatValue | PlainObject;
export interface PlainObject {
  [key: string]: PlainValue;
}

export function isPlainObject(v: PlainValue | undefined): v is PlainObject {
  return typeof v === 'object' && v !== null && !(v instanceof FloatValue);
}

/** Shortest round-tripping decimal text, always with a '.', never an exponent below 1e21. */
export function floatText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`cannot write ${n} into a config`);
  let s = String(n);
  if (/e/i.test(s)) s = Math.abs(n) >= 1e21 ? BigInt(n).toString() : n.toFixed(20).replace(/0+$/, '');
  if (!s.includes('.')) s += '.0';
  if (s.endsWith('.')) s += '0';
  return s;
}

function numberText(v: number | FloatValue): string {
  if (v instanceof FloatValue) return floatText(v.value);
  if (!Number.isFinite(v)) throw new Error(`cannot write ${v} into a config`);
  return Number.isInteger(v) ? String(v) : floatText(v);
}

export interface Layout {
  eol: string;
  unit: string;
}

export function detectEol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The indentation step of a document: a tab, or the smallest positive run of spaces seen. */
export function detectIndentUnit(text: string): string {
  let best = 0;
  const re = /^([ \t]+)\S/gm;
  let m: RegExpExecArray | null;
  let lines = 0;
  while ((m = re.exec(text)) && lines++ < 2000) {
    if (m[1].startsWith('\t')) return '\t';
    const n = m[1].length;
    if (n > 0 && (best === 0 || n < best)) best = n;
  }
  return ' '.repeat(best || 2);
}

// ---- JSON ----

export function jsonScalar(v: Exclude<PlainValue, PlainObject>): string {
  if (v instanceof FloatValue || typeof v === 'number') return numberText(v);
  return JSON.stringify(v);
}

/** A JSON value; objects are multi-line at `indent` when `layout` is given, else inline. */
export function jsonValue(v: PlainValue, indent: string, layout?: Layout): string {
  if (!isPlainObject(v)) return jsonScalar(v);
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  if (!layout) return '{' + keys.map((k) => `${JSON.stringify(k)}: ${jsonValue(v[k], indent)}`).join(', ') + '}';
  const inner = indent + layout.unit;
  return '{' + keys.map((k) => `${layout.eol}${inner}${JSON.stringify(k)}: ${jsonValue(v[k], inner, layout)}`).join(',') + layout.eol + indent + '}';
}

// ---- YAML (1.1, as PyYAML reads it) ----

const YAML11_SPECIAL = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

export function yamlKey(k: string, quoted = false): string {
  return quoted || !/^[A-Za-z_][\w.\-]*$/.test(k) || YAML11_SPECIAL.test(k) ? JSON.stringify(k) : k;
}

export function yamlScalar(v: Exclude<PlainValue, PlainObject>, quoted = false): string {
  if (v instanceof FloatValue || typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'null';
  const plainSafe = /^[A-Za-z_][\w.\-\/]*$/.test(v) && !YAML11_SPECIAL.test(v);
  return quoted || !plainSafe ? JSON.stringify(v) : v;
}

/** A flow-style YAML value (`{a: 1, b: yarn}`); `quoted` writes JSON-like keys and strings. */
export function yamlFlow(v: PlainValue, quoted = false): string {
  if (!isPlainObject(v)) return yamlScalar(v, quoted);
  const keys = Object.keys(v);
  return '{' + keys.map((k) => `${yamlKey(k, quoted)}: ${yamlFlow(v[k], quoted)}`).join(', ') + '}';
}

/** A block-style `key: value` entry; nested objects go on the following lines, one unit deeper. */
export function yamlBlockEntry(key: string, v: PlainValue, indent: string, layout: Layout): string {
  if (!isPlainObject(v)) return `${yamlKey(key)}: ${yamlScalar(v)}`;
  const keys = Object.keys(v);
  if (keys.length === 0) return `${yamlKey(key)}: {}`;
  const inner = indent + layout.unit;
  return `${yamlKey(key)}:` + keys.map((k) => layout.eol + inner + yamlBlockEntry(k, v[k], inner, layout)).join('');
}
