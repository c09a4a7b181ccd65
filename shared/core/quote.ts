/**
 * User values quoted back in messages, as the program that reads them would print them (Python's
 * repr for transformers' errors, JSON for a value to write), and never longer than a short line:
 * a value can be anything a file holds (a five-level nested object, a 10,000-entry list), and a
 * message pastes only its beginning, then "…". Writing stops as soon as the limit is reached, so
 * the cost is bounded by the limit, not by the value. Pure; imports only the limits.
 */
import { MAX_QUOTED_CHARS } from './limits';

export interface QuoteOptions {
  /** Characters kept before "…" (default MAX_QUOTED_CHARS). */
  max?: number;
  /**
   * Keys whose integral numbers Python holds as floats. JSON.parse loses "8.0" vs "8"; transformers'
   * messages print 8.0 for a factor, so these keys' numbers are printed as floats.
   */
  floatKeys?: ReadonlySet<string>;
}

/** Python's repr(value) of a JSON value: {'factor': 8.0, 'rope_type': 'yarn'}, elided past `max`. */
export function pyRepr(value: unknown, opts: QuoteOptions = {}): string {
  return write(value, opts, (w, v, key) => pyWrite(w, v, key, opts.floatKeys));
}

/** Python's str(value), as an f-string prints it: a string bare, anything else as its repr. */
export function pyStr(value: unknown, opts: QuoteOptions = {}): string {
  return typeof value === 'string' ? elide(value, opts.max ?? MAX_QUOTED_CHARS) : pyRepr(value, opts);
}

/** JSON text of a value, as it would be written in a config, elided past `max`. */
export function jsonQuote(value: unknown, opts: QuoteOptions = {}): string {
  return write(value, opts, jsonWrite);
}

/** `text` cut to `max` characters (whole code points), "…" appended when something was cut. */
export function elide(text: string, max = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  let cut = max;
  // Do not split a surrogate pair.
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return text.slice(0, cut) + '…';
}

/** Collects output until the limit, then stops every further write (the recursion ends at once). */
class Writer {
  private parts: string[] = [];
  private length = 0;
  full = false;
  constructor(private readonly max: number) {}
  put(s: string): void {
    if (this.full) return;
    this.parts.push(s);
    this.length += s.length;
    if (this.length > this.max) this.full = true;
  }
  /** Characters still taken: a long string is cut to this before being escaped. */
  room(): number {
    return Math.max(0, this.max - this.length);
  }
  /** `s` cut to one character more than fits, so that writing it marks the writer full. */
  fit(s: string): string {
    return s.length > this.room() ? s.slice(0, this.room() + 1) : s;
  }
  text(): string {
    const all = this.parts.join('');
    return this.full ? elide(all, this.max) : all;
  }
}

type Emit = (w: Writer, v: unknown, key: string | undefined) => void;

function write(value: unknown, opts: QuoteOptions, emit: Emit): string {
  const w = new Writer(opts.max ?? MAX_QUOTED_CHARS);
  emit(w, value, undefined);
  return w.text();
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pyWrite(w: Writer, v: unknown, key: string | undefined, floatKeys: ReadonlySet<string> | undefined): void {
  if (w.full) return;
  if (v === null || v === undefined) w.put('None');
  else if (typeof v === 'boolean') w.put(v ? 'True' : 'False');
  else if (typeof v === 'number') w.put(pyNumber(v, key !== undefined && !!floatKeys?.has(key)));
  else if (typeof v === 'string') w.put(pyString(w.fit(v)));
  else if (Array.isArray(v)) {
    w.put('[');
    for (let i = 0; i < v.length && !w.full; i++) {
      if (i) w.put(', ');
      pyWrite(w, v[i], key, floatKeys);
    }
    w.put(']');
  } else if (isRecord(v)) {
    w.put('{');
    let first = true;
    for (const k of Object.keys(v)) {
      if (w.full) break;
      if (!first) w.put(', ');
      first = false;
      w.put(pyString(w.fit(k)));
      w.put(': ');
      pyWrite(w, v[k], k, floatKeys);
    }
    w.put('}');
  } else w.put(String(v));
}

function jsonWrite(w: Writer, v: unknown): void {
  if (w.full) return;
  if (Array.isArray(v)) {
    w.put('[');
    for (let i = 0; i < v.length && !w.full; i++) {
      if (i) w.put(',');
      jsonWrite(w, v[i]);
    }
    w.put(']');
  } else if (isRecord(v)) {
    w.put('{');
    let first = true;
    for (const k of Object.keys(v)) {
      if (w.full) break;
      if (!first) w.put(',');
      first = false;
      w.put(JSON.stringify(w.fit(k)) + ':');
      jsonWrite(w, v[k]);
    }
    w.put('}');
  } else if (typeof v === 'string') w.put(JSON.stringify(w.fit(v)));
  else if (typeof v === 'number' && !Number.isFinite(v))
    w.put(String(v)); // not JSON; say what it is
  else w.put(JSON.stringify(v ?? null));
}

/** Python's repr of a str: single quotes unless the text has ' and no ", escapes as Python writes them. */
export function pyString(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += '\\' + q;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c <= 0xdfff)
      out += '\\u' + c.toString(16).padStart(4, '0'); // lone surrogate
    else out += ch;
  }
  return out + q;
}

/**
 * Python's repr of a number read from JSON: an int as its digits; a float in the shortest form that
 * round-trips, positional for exponents −4 … 15 and as 1e+16 / 1e-05 beyond, as Python prints it.
 */
export function pyNumber(x: number, asFloat = false): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && !asFloat) return Math.abs(x) < 1e21 ? BigInt(x).toString() : pyFloat(x);
  return pyFloat(x);
}

function pyFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  const sign = mant.startsWith('-') ? '-' : '';
  const digits = mant.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac || '0'}`;
}
