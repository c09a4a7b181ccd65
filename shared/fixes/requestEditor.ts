/**
 * One editor interface for a serving request, whatever file it came from: the rules edit options
 * of the request (replace a value, rename a flag, remove an option, append options, move one
 * option into another) and never know whether the text is a command line or a `--config` YAML.
 *   InvocationEditor: a command's tokens (shell, exec-form array, YAML list), quoting and layout kept;
 *   ConfigFileEditor: the keys of an engine's config file (vLLM `--config`), through DocumentEditor.
 * Values are given as the engine reads them (a number as text, an override object as JSON text);
 * each editor writes them in its file's own form.
 */
import type { TextEdit } from '../core/findings';
import type { Range } from '../core/range';
import type { Invocation, Token } from '../launch/types';
import type { OptionUse } from '../launch/request';
import type { ParsedDocument } from '../document/configNode';
import { nodeAt } from '../document/configNode';
import { LineIndex } from '../document/positions';
import { parseJsonDocument } from '../document/parseJson';
import { ArgForm, LaunchEditor, combineEdits, formOf } from './launchEdits';
import { singleQuoted } from '../launch/quote';
import { DocumentEditor, KeyPath } from './documentEditor';
import { PlainObject, PlainValue, float, isPlainObject } from './render';
import { FLOAT_KEYS } from '../serving/common';

export interface RequestEditor {
  readonly text: string;
  readonly lines: LineIndex;
  /** How the request's arguments are written: a command's forms, or `config-file` (keys of a YAML). */
  readonly form: ArgForm | 'config-file';
  /** Whether the token is one this editor can change (a span of this text, statically known). */
  editable(tok: Token | undefined): tok is Token;
  /** Replaces an option's value (`value` as the engine reads it). */
  replaceValue(tok: Token, value: string): TextEdit[];
  /** Replaces an option's name (`--max-model-len` for `--context-length`). */
  replaceFlag(tok: Token, flag: string): TextEdit[];
  /** Replaces a token's whole text (command lines only: a split `--flag value`). */
  replaceRaw(tok: Token, raw: string): TextEdit[];
  /** Removes an option (its flag and value tokens). */
  removeOption(tokens: Token[]): TextEdit[];
  /** Adds options (flag and value, or a flag alone) where the request's new options go. */
  appendOptions(options: [string, string?][]): TextEdit[];
  /** Rewrites option `use` as `flag value` in its place (a removed option moved into another). */
  moveOption(use: OptionUse, flag: string, value: string): TextEdit[];
  /** The range of a key inside the JSON object an option's value carries, else `fallback`. */
  keyRange(tok: Token | undefined, path: readonly string[], fallback: Range): Range;
}

/**
 * A command line's editor: LaunchEditor bound to one invocation and its argument form (a Modelfile
 * request has none: its tokens can be replaced, nothing appended or removed).
 */
export class InvocationEditor implements RequestEditor {
  readonly form: ArgForm;
  constructor(
    private readonly launch: LaunchEditor,
    private readonly inv: Invocation | undefined,
  ) {
    this.form = formOf(inv);
  }
  get text(): string {
    return this.launch.text;
  }
  get lines(): LineIndex {
    return this.launch.lines;
  }
  editable(tok: Token | undefined): tok is Token {
    return this.launch.editable(tok);
  }
  replaceValue(tok: Token, value: string): TextEdit[] {
    return this.launch.replaceValue(tok, value, this.form);
  }
  replaceFlag(tok: Token, flag: string): TextEdit[] {
    return this.launch.replaceFlag(tok, flag, this.form);
  }
  replaceRaw(tok: Token, raw: string): TextEdit[] {
    return this.launch.replaceRaw(tok, raw);
  }
  removeOption(tokens: Token[]): TextEdit[] {
    return this.inv ? this.launch.removeOption(this.inv, tokens) : [];
  }
  appendOptions(options: [string, string?][]): TextEdit[] {
    return this.inv ? this.launch.appendOptions(this.inv, options) : [];
  }
  moveOption(use: OptionUse, flag: string, value: string): TextEdit[] {
    if (!this.inv || !use.value) return [];
    if (use.flag.value.includes('=')) {
      return this.launch.replaceRaw(use.flag, `${flag}=${this.form === 'shell' ? singleQuoted(value) : value}`);
    }
    return combineEdits(
      this.launch.replaceFlag(use.flag, flag, this.form),
      this.launch.replaceValue(use.value, value, this.form.startsWith('json') ? this.form : 'shell'),
    );
  }
  /**
   * The key's name without its JSON quotes, when the JSON appears verbatim in the token's source
   * text (single-quoted in a shell, a plain or single-quoted YAML scalar, `--flag='{…}'`), so each
   * of its characters sits at a known offset of the file. Otherwise — escapes (an exec-form array's
   * `\"`), a value that came through a variable, a key not in the object — the whole token's range.
   */
  keyRange(tok: Token | undefined, path: readonly string[], fallback: Range): Range {
    const whole = tok && tok.offset >= 0 ? tok.range : fallback;
    if (!tok || tok.offset < 0 || !tok.known || !path.length) return whole;
    if (this.text.slice(tok.offset, tok.offset + tok.length) !== tok.raw) return whole;
    const brace = tok.value.indexOf('{');
    if (brace < 0) return whole;
    const json = tok.value.slice(brace);
    const at = tok.raw.indexOf(json);
    if (at < 0 || tok.raw.indexOf(json, at + 1) >= 0) return whole;
    const node = nodeAt(parseJsonDocument(json).root, path);
    if (node?.keyOffset === undefined || node.keyLength === undefined) return whole;
    const quoted = json[node.keyOffset] === '"' && node.keyLength >= 2;
    const start = tok.offset + at + node.keyOffset + (quoted ? 1 : 0);
    return this.lines.rangeOf(start, node.keyLength - (quoted ? 2 : 0));
  }
}

/** Integers of float-typed keys written `4.0`, as transformers' and vLLM's docs write them. */
function floatIf(key: string, v: number): PlainValue {
  return FLOAT_KEYS.has(key) && Number.isInteger(v) ? float(v) : v;
}

/** A JSON value as YAML values (float-typed keys keep their `.0`). */
export function yamlValue(obj: Record<string, unknown>): PlainObject {
  const out: PlainObject = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'number') out[k] = floatIf(k, v);
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = yamlValue(v as Record<string, unknown>);
    else out[k] = v as PlainValue;
  }
  return out;
}

/**
 * An engine's config file (vLLM `--config`): each option is a top-level key (`max-model-len`, or
 * `max_model_len`: new keys follow the file's own separator). `paths` maps each token the reader
 * made (a key's name, a value) to the key path it stands for.
 */
export class ConfigFileEditor implements RequestEditor {
  readonly form = 'config-file' as const;
  readonly text: string;
  readonly lines: LineIndex;
  private readonly doc: DocumentEditor;
  constructor(
    private readonly parsed: ParsedDocument,
    private readonly paths: ReadonlyMap<Token, KeyPath>,
    private readonly separator: '-' | '_',
  ) {
    this.text = parsed.text;
    this.lines = parsed.lines;
    this.doc = new DocumentEditor(parsed);
  }
  private keyOf(flag: string): string {
    return flag.replace(/^-+/, '').replace(/[-_]/g, this.separator);
  }
  /** A value as the file writes it: an object stays a mapping, a number a number, else a string. */
  private valueOf(path: KeyPath | undefined, value: string): PlainValue {
    const node = path ? this.doc.nodeAt(path) : undefined;
    if (node?.kind !== 'string' && value.trim().startsWith('{')) {
      try {
        const v = JSON.parse(value);
        if (v && typeof v === 'object' && !Array.isArray(v)) return yamlValue(v as Record<string, unknown>);
      } catch {
        /* not JSON: written as a string */
      }
    }
    if (node?.kind !== 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    return value;
  }
  editable(tok: Token | undefined): tok is Token {
    return !!tok && this.paths.has(tok);
  }
  replaceValue(tok: Token, value: string): TextEdit[] {
    const path = this.paths.get(tok);
    if (!path) return [];
    const v = this.valueOf(path, value);
    return isPlainObject(v) ? this.doc.setObject(path, v) : this.doc.set(path, v);
  }
  replaceFlag(tok: Token, flag: string): TextEdit[] {
    const path = this.paths.get(tok);
    const node = path ? this.doc.nodeAt(path) : undefined;
    const key = this.keyOf(flag);
    // A key already there (or its other spelling) would be written twice: YAML loaders keep the last.
    if (!node || node.keyOffset === undefined || node.keyLength === undefined || this.has(key)) return [];
    return [{ range: this.lines.rangeOf(node.keyOffset, node.keyLength), newText: key }];
  }
  replaceRaw(): TextEdit[] {
    return [];
  }
  removeOption(tokens: Token[]): TextEdit[] {
    const path = tokens.length ? this.paths.get(tokens[0]) : undefined;
    return path ? this.doc.remove(path) : [];
  }
  appendOptions(options: [string, string?][]): TextEdit[] {
    const entries: PlainObject = {};
    for (const [flag, value] of options) {
      const key = this.keyOf(flag);
      if (this.has(key)) return [];
      entries[key] = value === undefined ? true : this.valueOf([key], value);
    }
    if (!Object.keys(entries).length) return [];
    const keep = (this.parsed.root?.children ?? []).map((c) => c.key!).filter((k) => k !== undefined);
    return this.doc.setObject([], entries, keep);
  }
  moveOption(use: OptionUse, flag: string, value: string): TextEdit[] {
    const path = this.paths.get(use.flag);
    const node = path ? this.doc.nodeAt(path) : undefined;
    const key = this.keyOf(flag);
    if (!path || !node || node.keyOffset === undefined || node.keyLength === undefined || this.has(key)) return [];
    // The new key's value in the file's own form (a JSON string written under the old key becomes a mapping).
    const v = this.valueOf(undefined, value);
    // A mapping reads best as a block under the new key at the end; in place (flow) where the two edits meet.
    if (isPlainObject(v)) {
      const moved = combineEdits(this.doc.remove(path), this.doc.set([key], v));
      if (moved.length) return moved;
    }
    const written = isPlainObject(v) && node.kind !== 'object' ? this.doc.set(path, v) : isPlainObject(v) ? this.doc.setObject(path, v) : this.doc.set(path, v);
    return combineEdits([{ range: this.lines.rangeOf(node.keyOffset, node.keyLength), newText: key }], written);
  }
  keyRange(tok: Token | undefined, path: readonly string[], fallback: Range): Range {
    const at = tok ? this.paths.get(tok) : undefined;
    const node = at ? this.doc.nodeAt([...at, ...path]) : undefined;
    if (node?.keyOffset !== undefined && node.keyLength !== undefined) return this.lines.rangeOf(node.keyOffset, node.keyLength);
    return tok && tok.offset >= 0 ? tok.range : fallback;
  }
  private has(key: string): boolean {
    return !!(this.doc.nodeAt([key]) ?? this.doc.nodeAt([key.replace(/[-_]/g, key.includes('-') ? '_' : '-')]));
  }
}
