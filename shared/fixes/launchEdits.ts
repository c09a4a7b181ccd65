/**
 * Fixes on launch files: text edits of the user's own tokens. A replaced value is written the way
 * the token was (unquoted, single, double, $'…', or a JSON string in an exec-form array); new
 * options go at the invocation's append point with its separator, so a continued multi-line
 * command stays continued and an exec-form array gets `"--flag", "value"` entries. Nothing else
 * in the file changes.
 */
import type { TextEdit } from '../core/findings';
import type { Invocation, Token } from '../launch/types';
import { LineIndex } from '../document/positions';
import { doubleQuoted, shellQuote, singleQuoted } from '../launch/quote';
import type { Range } from '../core/range';

export type ArgForm = 'shell' | 'json-array' | 'yaml-list';

/** A new word for a shell command line, quoted only when it must be (launch/quote.ts). */
export const shellWord = shellQuote;

/** A YAML flow/list scalar: plain when safe, else single-quoted. */
function yamlWord(v: string): string {
  // `--flag` is a plain scalar (a `-` indicator needs a space after it); numbers stay strings only when quoted.
  return v !== '' &&
    v !== '-' &&
    /^[A-Za-z0-9_@%+=:,./-]+$/.test(v) &&
    !/^[?:,[\]{}#&*!|>'"%@`]/.test(v) &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(v) &&
    !/^[+-]?[\d.]/.test(v)
    ? v
    : `'${v.replace(/'/g, "''")}'`;
}

/** `value` written as a replacement for `tok`, in the token's own quoting. */
export function quoteLike(tok: Token, value: string, form: ArgForm = 'shell'): string {
  if (tok.enclosed) return insideQuotes(tok.enclosed, value, form);
  if (form === 'json-array') return JSON.stringify(value);
  if (form === 'yaml-list') {
    if (tok.quote === 'double') return JSON.stringify(value);
    // A plain token stays plain when the new value can be (a number replacing a number included).
    if (
      tok.quote === 'none' &&
      /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) &&
      !/^(true|false|null|yes|no|on|off|~|-)$/i.test(value) &&
      !/^[?:,[\]{}#&*!|>'"%@`]/.test(value)
    )
      return value;
    return `'${value.replace(/'/g, "''")}'`;
  }
  switch (tok.quote) {
    case 'single':
      return singleQuoted(value);
    case 'double':
      return doubleQuoted(value);
    case 'ansi-c':
      return `$'${value.replace(/(['\\])/g, '\\$1')}'`;
    case 'none':
      return shellWord(value);
    default:
      return shellWord(value);
  }
}

/** `value` escaped for the quotes it sits inside (`"--flag=…"`): a JSON or YAML string, or a shell word. */
function insideQuotes(q: 'single' | 'double', value: string, form: ArgForm): string {
  if (form === 'json-array' || (form === 'yaml-list' && q === 'double')) return JSON.stringify(value).slice(1, -1);
  if (form === 'yaml-list') return value.replace(/'/g, "''");
  // The shell's own quoting, without its outer quotes (the token's are kept).
  return (q === 'single' ? singleQuoted(value) : doubleQuoted(value)).slice(1, -1);
}

/** How arguments of this invocation are written. */
export function formOf(inv: Invocation | undefined): ArgForm {
  return inv?.append?.form ?? 'shell';
}

/** Edits that build on one document text (ranges computed from offsets where a token has none to give). */
/** How many times a shell variable is read in the text (`$NAME`, `${NAME…}`), comments included. */
export function variableUses(text: string, name: string): number {
  const re = new RegExp(`\\$\\{?${name.replace(/[^A-Za-z0-9_]/g, '')}(?![A-Za-z0-9_])`, 'g');
  return text.match(re)?.length ?? 0;
}

export class LaunchEditor {
  readonly lines: LineIndex;
  constructor(readonly text: string) {
    this.lines = new LineIndex(text);
  }

  /** Whether the token is a span of this text (env tokens from elsewhere, placeholders, values written in a sourced file are not). */
  editable(tok: Token | undefined): tok is Token {
    return (
      !!tok &&
      !tok.from &&
      tok.offset >= 0 &&
      tok.offset + tok.length <= this.text.length &&
      this.text.slice(tok.offset, tok.offset + tok.length) === tok.raw &&
      tok.known
    );
  }

  /**
   * Replace a token's value, keeping its quote style. A token that is only a variable (`"$LEN"`,
   * `${LEN:-4096}`) is changed where its value was written: the assignment, or the default word.
   */
  replaceValue(tok: Token, value: string, form: ArgForm = 'shell'): TextEdit[] {
    if (!this.editable(tok)) return [];
    const at = this.variableSource(tok);
    if (at) return [{ range: at.range, newText: quoteLike({ ...tok, quote: at.quote }, value, 'shell') }];
    return [{ range: this.lines.rangeOf(tok.offset, tok.length), newText: quoteLike(tok, value, form) }];
  }

  /**
   * Where a variable-only token's value was written in this file (innermost assignment or default
   * first) — only when this is the variable's one use: editing an assignment another command also
   * reads would change that command too, so a shared variable is left alone and the use is edited.
   */
  private variableSource(tok: Token): { range: Range; quote: Token['quote'] } | undefined {
    if (!tok.via?.length || !/^"?\$\{?[A-Za-z_][A-Za-z0-9_]*(:?[-=][^}]*)?\}?"?$/.test(tok.raw)) return undefined;
    if (tok.via.some((v) => variableUses(this.text, v.name) > 1)) return undefined;
    for (let i = tok.via.length - 1; i >= 0; i--) {
      const v = tok.via[i];
      const span = v.assignedAt ?? (v.defaulted ? v.defaultAt : undefined);
      if (!span) continue;
      const s = this.lines.offsetAt(span.start),
        e = this.lines.offsetAt(span.end);
      const raw = this.text.slice(s, e);
      const quote: Token['quote'] = /^'.*'$/s.test(raw)
        ? 'single'
        : /^".*"$/s.test(raw)
          ? 'double'
          : /^\$'/.test(raw)
            ? 'ansi-c'
            : /['"]/.test(raw)
              ? 'mixed'
              : 'none';
      return { range: span, quote };
    }
    return undefined;
  }

  /** Replace the flag part of a token (`--max-model-len` in `--max-model-len=32768` or alone). */
  replaceFlag(tok: Token, flag: string, form: ArgForm = 'shell'): TextEdit[] {
    if (!this.editable(tok)) return [];
    const eq = tok.raw.indexOf('=');
    if (eq > 0 && tok.quote === 'none' && tok.raw.startsWith('-')) return [{ range: this.lines.rangeOf(tok.offset, eq), newText: flag }];
    if (form === 'json-array')
      return [{ range: this.lines.rangeOf(tok.offset, tok.length), newText: JSON.stringify(eq > 0 ? flag + tok.value.slice(tok.value.indexOf('=')) : flag) }];
    return tok.quote === 'none' ? [{ range: this.lines.rangeOf(tok.offset, tok.length), newText: flag }] : [];
  }

  /** Replace a token's whole text with raw text (a split `--flag value` for llama.cpp's `--flag=value`). */
  replaceRaw(tok: Token, raw: string): TextEdit[] {
    if (!this.editable(tok)) return [];
    return [{ range: this.lines.rangeOf(tok.offset, tok.length), newText: raw }];
  }

  /**
   * Remove an option: from the end of the token before it to the end of its last token, so the
   * separator before it goes with it and the layout of what follows is untouched.
   */
  removeOption(inv: Invocation, tokens: Token[]): TextEdit[] {
    if (!tokens.every((t) => this.editable(t))) return [];
    const first = tokens[0],
      last = tokens[tokens.length - 1];
    const idx = inv.argv.indexOf(first);
    const prev = idx > 0 ? inv.argv[idx - 1] : undefined;
    const start = prev && this.editable(prev) ? prev.offset + prev.length : first.offset;
    const end = last.offset + last.length;
    if (!prev) {
      const next = inv.argv[inv.argv.indexOf(last) + 1];
      const stop = next && this.editable(next) ? next.offset : end;
      return [{ range: this.lines.rangeOf(first.offset, stop - first.offset), newText: '' }];
    }
    return [{ range: this.lines.rangeOf(start, end - start), newText: '' }];
  }

  /**
   * Append options (each a flag and its value, or a flag alone) where the invocation says new
   * arguments go: one continued line per option in a continued command, `"--x", "v"` entries in
   * an exec-form array.
   */
  appendOptions(inv: Invocation, options: [string, string?][]): TextEdit[] {
    const a = inv.append;
    if (!a || !options.length) return [];
    const form = a.form;
    let newText: string;
    if (form === 'json-array' || form === 'yaml-list') {
      const words = options.flatMap(([f, v]) => (v === undefined ? [f] : [f, v]));
      const q = form === 'json-array' ? (w: string) => JSON.stringify(w) : yamlWord;
      newText = words.map((w) => a.separator + q(w)).join('');
    } else {
      newText = options.map(([f, v]) => a.separator + (v === undefined ? shellWord(f) : `${shellWord(f)} ${shellWord(v)}`)).join('');
    }
    return [{ range: this.lines.rangeOf(a.offset, 0), newText }];
  }
}

/** Edits in document order, or none when two of them overlap (one fix, one coherent change). */
export function combineEdits(...groups: TextEdit[][]): TextEdit[] {
  if (groups.some((g) => g.length === 0)) return [];
  const all = groups.flat();
  const key = (e: TextEdit) => e.range.start.line * 1e7 + e.range.start.character;
  all.sort((x, y) => key(x) - key(y));
  for (let i = 1; i < all.length; i++) {
    const p = all[i - 1].range.end,
      c = all[i].range.start;
    if (p.line > c.line || (p.line === c.line && p.character > c.character)) return [];
  }
  return all;
}
