/**
 * Fixes on a trainer's command line, as token edits. A key path names one of the command's
 * options (the stand-in document's children, config/trainers/launch/launchDoc.ts); a deeper path
 * reaches into an option whose value is JSON (`--rope_scaling '{…}'`).
 *  - an option the command has: its value is replaced in place, keeping how the token is quoted;
 *  - one it lacks: the trainer's own spelling is appended at the invocation's append point with
 *    its separator (` `, ` \\\n    ` in a continued command, `, ` in an exec-form array), so
 *    multi-line commands stay multi-line;
 *  - one the command line cannot carry (axolotl's overrides_of_model_config, a generic script's
 *    unknown flags): the fix gets the UNWRITABLE edit and the service drops it whole, so no fix
 *    is ever half-applied.
 */
import { variableUses } from './launchEdits';
import type { TextEdit } from '../core/findings';
import type { ConfigNode } from '../document/configNode';
import { nodeAt } from '../document/configNode';
import type { QuoteStyle, Token } from '../launch/types';
import { doubleQuoted, shellSafe, singleQuoted } from '../launch/quote';
import type { LineIndex } from '../document/positions';
import type { TrainerLaunch } from '../config/trainers/launch/types';
import type { ConfigEditor, KeyPath } from './configEditor';
import { FloatValue, PlainObject, PlainValue, float, isPlainObject, jsonScalar } from './render';
import { OffsetEdit, toTextEdits } from './textEdits';
import { compactJsonText } from '../core/json';

/** Marks a fix this command line cannot express; `withoutUnwritable` drops such fixes. */
export const UNWRITABLE: TextEdit = Object.freeze({ range: { start: { line: -1, character: -1 }, end: { line: -1, character: -1 } }, newText: '' });

export function isWritable(edits: readonly TextEdit[]): boolean {
  return edits.length > 0 && !edits.includes(UNWRITABLE);
}

class Unwritable extends Error {}

export class CommandLineEditor implements ConfigEditor {
  constructor(private readonly launch: TrainerLaunch) {}

  nodeAt(path: KeyPath): ConfigNode | undefined {
    return nodeAt(this.launch.doc.root, path);
  }

  set(path: KeyPath, value: PlainValue): TextEdit[] {
    return this.run(() => {
      const [key, ...rest] = path;
      if (rest.length) return this.editJson(key, (obj) => setIn(obj, rest, value));
      if (isPlainObject(value)) return this.writeObject(key, value);
      return [this.write(key, this.scalar(key, value))];
    });
  }

  mergeObject(path: KeyPath, entries: PlainObject, owned: readonly string[]): TextEdit[] {
    return this.setObject(
      path,
      entries,
      this.keysOf(path).filter((k) => !owned.includes(k)),
    );
  }

  setObject(path: KeyPath, entries: PlainObject, keep: readonly string[] = []): TextEdit[] {
    return this.run(() => {
      const old = this.plainAt(path);
      const next: PlainObject = {};
      if (isPlainObject(old)) for (const [k, v] of Object.entries(old)) if (keep.includes(k) && !(k in entries)) next[k] = v;
      Object.assign(next, entries);
      const [key, ...rest] = path;
      if (rest.length) return this.editJson(key, (obj) => setIn(obj, rest, next));
      return this.writeObject(key, next);
    });
  }

  remove(path: KeyPath): TextEdit[] {
    return this.run(() => {
      const [key, ...rest] = path;
      if (rest.length) return this.nodeAt(path) ? this.editJson(key, (obj) => removeIn(obj, rest)) : [];
      const o = this.launch.options.get(key);
      if (!o) return [];
      const last = o.value && o.value !== o.flag ? o.value : o.flag;
      const argv = this.launch.invocation.argv;
      const prev = argv[argv.indexOf(o.flag) - 1];
      const start = prev ? prev.offset + prev.length : o.flag.offset;
      return [{ offset: start, length: last.offset + last.length - start, newText: '' }];
    });
  }

  // ---- internals ----

  private run(f: () => OffsetEdit[]): TextEdit[] {
    try {
      return toTextEdits(this.launch.doc.lines, mergeInsertions(f()));
    } catch (e) {
      if (e instanceof Unwritable) return [UNWRITABLE];
      throw e;
    }
  }

  private keysOf(path: KeyPath): string[] {
    const v = this.plainAt(path);
    return isPlainObject(v) ? Object.keys(v) : [];
  }

  private plainAt(path: KeyPath): PlainValue | undefined {
    const n = this.nodeAt(path);
    return n ? plainOf(n) : undefined;
  }

  /** A whole object at an option: JSON text where the command takes JSON, else the writer's own options (Megatron). */
  private writeObject(key: string, value: PlainObject): OffsetEdit[] {
    const w = this.launch.writer;
    if (w.jsonKeys.includes(key)) return [this.write(key, compactJson(value))];
    const pairs = w.scaling?.(unwrap(value) as Record<string, unknown>);
    if (!pairs) throw new Unwritable();
    return pairs.flatMap(([k, v]) => (v === null ? this.writeFlag(k) : this.write(k, v)));
  }

  /** Rewrites the JSON object held by option `key` (starting from {} when the command lacks it). */
  private editJson(key: string, op: (obj: PlainObject) => void): OffsetEdit[] {
    if (!this.launch.writer.jsonKeys.includes(key)) throw new Unwritable();
    const old = this.plainAt([key]);
    const obj: PlainObject = isPlainObject(old) ? { ...old } : {};
    op(obj);
    return [this.write(key, compactJson(obj))];
  }

  private scalar(key: string, v: Exclude<PlainValue, PlainObject>): string {
    if (typeof v === 'number' && this.launch.writer.number) return this.launch.writer.number(key, v);
    if (typeof v === 'string') return v;
    return jsonScalar(v);
  }

  private assignment(tok: Token, value: string): OffsetEdit | undefined {
    return assignmentEdit(this.launch.doc.text, this.launch.doc.lines, tok, value);
  }

  /** Replaces option `key`'s value, or appends the option in the trainer's spelling. */
  private write(key: string, text: string): OffsetEdit {
    const o = this.launch.options.get(key);
    const json = this.launch.invocation.append?.form === 'json-array' || this.launch.invocation.append?.form === 'yaml-list';
    if (o) {
      if (o.form === 'flag') throw new Unwritable();
      const tok = o.value!;
      // Part of the value is not in the file (a command substitution), or it is written in a sourced file.
      if (!tok.known || tok.from) throw new Unwritable();
      if (o.form === 'flag-value') return this.assignment(tok, text) ?? { offset: tok.offset, length: tok.length, newText: quoteAs(text, tok.quote, json) };
      if (o.valueOffset !== tok.offset) return { offset: o.valueOffset, length: o.valueLength, newText: quoteAs(text, 'none', json) };
      const prefix = tok.value.slice(0, tok.value.indexOf('=') + 1);
      return { offset: tok.offset, length: tok.length, newText: quoteAs(prefix + text, tok.quote, json) };
    }
    return this.append(this.launch.writer.write(key, text));
  }

  /** A flag without a value (`--use-rope-scaling`): present already, or appended. */
  private writeFlag(key: string): OffsetEdit[] | OffsetEdit {
    if (this.launch.options.get(key)?.form === 'flag') return [];
    return this.append(this.launch.writer.write(key, '')?.slice(0, 1));
  }

  /** New argument words at the invocation's append point, with its separator. */
  private append(words: string[] | undefined): OffsetEdit {
    const at = this.launch.invocation.append;
    if (!words || !at) throw new Unwritable();
    const rendered = at.form === 'shell' ? words.map((w) => quoteAs(w, 'none', false)).join(' ') : words.map((w) => JSON.stringify(w)).join(at.separator);
    return { offset: at.offset, length: 0, newText: at.separator + rendered };
  }
}

/**
 * A value that came through a variable (`--max_length $MAX_LEN`, `MAX_LEN=131072` above) is changed
 * where it is assigned, so the variable keeps working for the rest of the script; only when the
 * assignment is a plain literal of that value (a default or a computed value is replaced in place).
 */
function assignmentEdit(text: string, lines: LineIndex, tok: Token, value: string): OffsetEdit | undefined {
  const trace = tok.via?.[tok.via.length - 1];
  if (!trace?.assignedAt || trace.defaulted) return undefined;
  // Another command reads the same variable: changing its assignment would change that one too.
  if (variableUses(text, trace.name) > 1) return undefined;
  const offset = lines.offsetAt(trace.assignedAt.start);
  const raw = text.slice(offset, lines.offsetAt(trace.assignedAt.end));
  const quote: QuoteStyle | undefined = raw === tok.value ? 'none' : raw === `'${tok.value}'` ? 'single' : raw === `"${tok.value}"` ? 'double' : undefined;
  return quote ? { offset, length: raw.length, newText: quoteAs(value, quote, false) } : undefined;
}

/** Several options appended at one point become one insertion, in order. */
function mergeInsertions(edits: OffsetEdit[]): OffsetEdit[] {
  const out: OffsetEdit[] = [];
  for (const e of edits) {
    const prev = out.find((p) => p.length === 0 && e.length === 0 && p.offset === e.offset);
    if (prev) prev.newText += e.newText;
    else out.push({ ...e });
  }
  return out;
}

/** `text` written the way the token it replaces was quoted (JSON string in an exec-form array). */
export function quoteAs(text: string, quote: QuoteStyle, jsonForm: boolean): string {
  if (jsonForm) return JSON.stringify(text);
  if (quote === 'double') return doubleQuoted(text);
  if (quote === 'none' && shellSafe(text)) return text;
  return singleQuoted(text);
}

/** `{"rope_type":"yarn","factor":4.0}`: no spaces, so the value stays one compact word. */
export function compactJson(v: PlainValue): string {
  // Numbers as the config writer writes them (a float kept from the source stays a float).
  return compactJsonText(v, (x) => (isPlainObject(x as PlainValue) ? undefined : jsonScalar(x as Exclude<PlainValue, PlainObject>)));
}

/** A node as a plain value; `4.0` stays a float so a rewrite keeps its decimal point. */
function plainOf(n: ConfigNode): PlainValue {
  if (n.kind === 'object') {
    const out: PlainObject = {};
    for (const c of n.children ?? []) if (c.key !== undefined) out[c.key] = plainOf(c);
    return out;
  }
  if (n.kind === 'number' && typeof n.value === 'number') return Number.isInteger(n.value) && /[.eE]/.test(n.raw ?? '') ? float(n.value) : n.value;
  if (n.kind === 'array') return null;
  return (n.value ?? null) as PlainValue;
}

function unwrap(v: PlainValue): unknown {
  if (v instanceof FloatValue) return v.value;
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
  return v;
}

function setIn(obj: PlainObject, path: readonly string[], value: PlainValue): void {
  let cur = obj;
  for (const k of path.slice(0, -1)) {
    const next = cur[k];
    cur = cur[k] = isPlainObject(next) ? { ...next } : {};
  }
  cur[path[path.length - 1]] = value;
}

function removeIn(obj: PlainObject, path: readonly string[]): void {
  let cur: PlainValue | undefined = obj;
  for (const k of path.slice(0, -1)) cur = isPlainObject(cur) ? cur[k] : undefined;
  if (isPlainObject(cur)) delete cur[path[path.length - 1]];
}
