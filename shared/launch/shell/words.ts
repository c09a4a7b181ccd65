/**
 * Shell words → the strings a program receives: quotes removed, escapes decoded, variables,
 * defaults and `$(( ))` expanded where the script says what they are. Unknown parts (a command
 * substitution, a variable set outside the file) keep their source text and make the token unknown.
 */
import type { Node } from 'web-tree-sitter';
import type { QuoteStyle, Token, VariableTrace } from '../types';
import { evalArithmeticExpansion, parseBashInt } from './arith';
import type { Binding, Scope } from './scope';
import type { ParseSource } from './source';

/** A partly evaluated word. */
export interface Piece {
  value: string;
  known: boolean;
  via: VariableTrace[];
  quotes: Set<QuoteStyle>;
  /** Parts of the value written as such in the document (see Run). */
  runs?: Run[];
}

/**
 * A stretch of a value written as is in the document (`--max-model-len 65536` inside
 * `CMD+=" --max-model-len 65536"`): value offset `at` ↔ document offset `offset`, `length` chars.
 * A string assembled by `=` and `+=` keeps its runs, so words read out of it later (split, `eval`)
 * land on the user's own characters.
 */
export interface Run {
  at: number;
  offset: number;
  length: number;
}

/** The run (shifted to `at`) holding value[start, end), if one does. */
export function runHolding(runs: readonly Run[] | undefined, start: number, end: number): number | undefined {
  for (const r of runs ?? []) if (r.at <= start && end <= r.at + r.length) return r.offset + (start - r.at);
  return undefined;
}

const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion', 'process_substitution']);

const children = (n: Node): Node[] => n.children.filter((c): c is Node => !!c);
const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => !!c);

function unescapeUnquoted(s: string): string {
  return s.replace(/\\(\r?\n|[\s\S])/g, (_m, c: string) => (c === '\n' || c === '\r\n' ? '' : c));
}
function unescapeDouble(s: string): string {
  return s.replace(/\\(\r?\n|[$`"\\])/g, (_m, c: string) => (c === '\n' || c === '\r\n' ? '' : c));
}
/** `$'…'` escapes (bash's ANSI-C quoting). */
export function decodeAnsiC(body: string): string {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|[\s\S])/g, (m, e: string) => {
    if (e in simple) return simple[e];
    if (/^x/.test(e) || /^u/i.test(e)) {
      const cp = parseInt(e.slice(1), 16);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (e[0] === 'c') return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    return m;
  });
}

export class WordEvaluator {
  constructor(
    readonly src: ParseSource,
    /** The branch path the walk is in now (see Binding.branch). */
    private readonly branchOf: () => readonly number[] = () => [],
  ) {}

  private lit(value: string, quote: QuoteStyle): Piece {
    return { value, known: true, via: [], quotes: new Set([quote]) };
  }
  private unknown(n: Node, quote: QuoteStyle, via: VariableTrace[] = []): Piece {
    return { value: n.text, known: false, via, quotes: new Set([quote]) };
  }
  /** A literal written at parsed offset `start` as `raw`: a run when its value is its text, one document stretch. */
  private litAt(value: string, quote: QuoteStyle, start: number, raw: string): Piece {
    const p = this.lit(value, quote);
    const src = this.src;
    if (value && value === raw && !src.from && src.isWritten(start)) {
      const offset = src.orig(start);
      if (src.orig(start + raw.length - 1) === offset + raw.length - 1) p.runs = [{ at: 0, offset, length: raw.length }];
    }
    return p;
  }
  private join(parts: Piece[]): Piece {
    const out: Piece = { value: '', known: true, via: [], quotes: new Set() };
    for (const p of parts) {
      if (p.runs) (out.runs ??= []).push(...p.runs.map((r) => ({ ...r, at: r.at + out.value.length })));
      out.value += p.value;
      out.known &&= p.known;
      out.via.push(...p.via);
      p.quotes.forEach((q) => out.quotes.add(q));
    }
    return out;
  }

  /** Evaluates one word node (no field splitting): an assignment's value, a flag, a default. */
  word(n: Node, scope: Scope, quoted = false): Piece {
    const q: QuoteStyle = quoted ? 'double' : 'none';
    switch (n.type) {
      case 'word':
      case 'number':
      case 'special_variable_name':
      case 'variable_name':
        return this.litAt(quoted ? unescapeDouble(n.text) : unescapeUnquoted(n.text), q, n.startIndex, n.text);
      case 'raw_string': {
        const body = n.text.replace(/^'/, '').replace(/'$/, '');
        return this.litAt(body, 'single', n.startIndex + 1, body);
      }
      case 'ansi_c_string':
        return this.lit(decodeAnsiC(n.text.replace(/^\$'/, '').replace(/'$/, '')), 'ansi-c');
      case 'string':
      case 'translated_string':
        return this.doubleQuoted(n, scope);
      case 'concatenation':
        return this.withGaps(n, scope, n.startIndex, n.endIndex, false);
      case 'simple_expansion':
      case 'expansion':
        return this.expansion(n, scope, quoted);
      case 'arithmetic_expansion': {
        const v = evalArithmeticExpansion(n, (name) => this.intOf(name, scope));
        const via = this.arithVia(n, scope);
        return v === undefined ? this.unknown(n, q, via) : { value: v.toString(), known: true, via, quotes: new Set([q]) };
      }
      default:
        // command/process substitution, globs, ERROR: not known without running the script.
        return this.unknown(n, q);
    }
  }

  /** Literal text between child nodes counts too (tree-sitter leaves some of it uncovered). */
  private withGaps(n: Node, scope: Scope, start: number, end: number, quoted: boolean): Piece {
    const text = this.src.parsed;
    const parts: Piece[] = [];
    let pos = start;
    for (const c of children(n)) {
      if (c.startIndex < pos || c.endIndex > end) continue;
      if (quoted && !EXPANSIONS.has(c.type)) continue; // string_content and quotes: read as gap text
      if (c.startIndex > pos) {
        const gap = text.slice(pos, c.startIndex);
        parts.push(this.litAt(quoted ? unescapeDouble(gap) : unescapeUnquoted(gap), quoted ? 'double' : 'none', pos, gap));
      }
      parts.push(this.word(c, scope, quoted));
      pos = c.endIndex;
    }
    if (end > pos) {
      const gap = text.slice(pos, end);
      parts.push(this.litAt(quoted ? unescapeDouble(gap) : unescapeUnquoted(gap), quoted ? 'double' : 'none', pos, gap));
    }
    return this.join(parts);
  }

  private doubleQuoted(n: Node, scope: Scope): Piece {
    const text = this.src.parsed;
    const open = n.type === 'translated_string' ? 2 : 1;
    // An unterminated string (ERROR recovery) has no closing quote.
    const closed = n.endIndex - n.startIndex > open && text[n.endIndex - 1] === '"';
    const p = this.withGaps(n, scope, n.startIndex + open, closed ? n.endIndex - 1 : n.endIndex, true);
    p.quotes = new Set(['double']);
    return p;
  }

  /** `$X`, `${X}`, `${X:-d}`, `${#X}`, `${A[0]}`, `$1`, `$#`… */
  expansion(n: Node, scope: Scope, quoted: boolean): Piece {
    const q: QuoteStyle = quoted ? 'double' : 'none';
    const kids = children(n);
    const nameIdx = kids.findIndex((c) => c.type === 'variable_name' || c.type === 'special_variable_name' || c.type === 'subscript');
    if (nameIdx < 0) return this.unknown(n, q);
    const nameNode = kids[nameIdx];
    const lengthOf = n.type === 'expansion' && kids[1]?.type === '#' && nameIdx === 2;
    let opIdx = -1;
    for (let i = nameIdx + 1; i < kids.length; i++)
      if (n.fieldNameForChild(i) === 'operator') {
        opIdx = i;
        break;
      }
    const op = opIdx >= 0 ? kids[opIdx].type : undefined;
    const found = this.lookup(nameNode, scope, q);
    // A variable the file sets from something unknown reads as its own reference (`$POD_INDEX`).
    const cur = found && !found.known ? { ...this.unknown(n, q, found.via), value: found.value || n.text } : found;
    if (lengthOf) return cur && cur.known ? { ...cur, value: String([...cur.value].length) } : this.unknown(n, q, cur?.via);
    if (op === undefined) {
      if (nameIdx + 2 < kids.length) return this.unknown(n, q, cur?.via); // something we do not model
      return cur ?? this.unknown(n, q, [{ name: nameNode.text }]);
    }
    const rest = kids.slice(opIdx + 1).filter((c) => c.type !== '}');
    // The default/alternative word: its nodes evaluated in order, text between them literal.
    const alt = () => {
      const parts: Piece[] = [];
      let pos = rest.length ? rest[0].startIndex : 0;
      for (const c of rest) {
        if (c.startIndex > pos) parts.push(this.lit(this.src.parsed.slice(pos, c.startIndex), q));
        parts.push(this.word(c, scope, quoted));
        pos = c.endIndex;
      }
      return parts.length ? this.join(parts) : this.lit('', q);
    };
    const isSet = cur !== undefined;
    const isNull = !cur || (cur.known && cur.value === '');
    const name = nameNode.text;
    switch (op) {
      case ':-':
      case '-':
      case ':=':
      case '=': {
        const useDefault = op.startsWith(':') ? isNull : !isSet;
        if (cur && !cur.known) return this.unknown(n, q, cur.via);
        if (!useDefault) return cur!;
        const d = alt();
        const trace: VariableTrace = { name, defaulted: true };
        if (rest.length) trace.defaultAt = this.src.range(rest[0].startIndex, rest[rest.length - 1].endIndex);
        if (op.endsWith('=') && nameNode.type === 'variable_name') {
          scope.set(name, { value: d.value, known: d.known, exported: false, via: [trace, ...d.via], assignedAt: trace.defaultAt });
        }
        return { ...d, via: [trace, ...d.via] };
      }
      case ':+':
      case '+': {
        const useAlt = op === ':+' ? !isNull : isSet;
        if (cur && !cur.known) return this.unknown(n, q, cur.via);
        return useAlt ? alt() : this.lit('', q);
      }
      case ':?':
      case '?':
        return cur ?? this.unknown(n, q, [{ name }]);
      default:
        // ${X%…}, ${X/…}, ${X^^}…: string surgery we do not model.
        return this.unknown(n, q, cur?.via ?? [{ name }]);
    }
  }

  /** The value of `$name`, `$1`, `$#`, `${A[i]}`, or undefined when the file does not set it. */
  private lookup(nameNode: Node, scope: Scope, q: QuoteStyle): Piece | undefined {
    const text = nameNode.text;
    if (nameNode.type === 'subscript') {
      const arr = nameNode.childForFieldName('name')?.text ?? '';
      const idx = nameNode.childForFieldName('index');
      const b = scope.get(arr);
      if (!b) return undefined;
      const trace = this.trace(arr, b);
      if (idx && (idx.text === '@' || idx.text === '*')) {
        return { value: b.elements ? b.elements.map((e) => e.value).join(' ') : b.value, known: b.known, via: trace, quotes: new Set([q]) };
      }
      const i = idx ? parseBashInt(idx.text) : undefined;
      if (i === undefined) return { value: nameNode.text, known: false, via: trace, quotes: new Set([q]) };
      const el = b.elements ? b.elements[Number(i)] : i === 0n ? { value: b.value, known: b.known } : undefined;
      return el ? { value: el.value, known: el.known, via: trace, quotes: new Set([q]) } : undefined;
    }
    const args = scope.args();
    if (/^[1-9]\d*$/.test(text)) {
      const a = args?.[Number(text) - 1];
      if (!args) return undefined;
      return a ? { value: a.value, known: a.known, via: a.via ?? [], quotes: new Set([q]) } : { value: '', known: true, via: [], quotes: new Set([q]) };
    }
    if (text === '@' || text === '*') {
      if (!args) return undefined;
      return { value: args.map((a) => a.value).join(' '), known: args.every((a) => a.known), via: [], quotes: new Set([q]) };
    }
    if (text === '#') return args ? this.lit(String(args.length), q) : undefined;
    if (nameNode.type === 'special_variable_name') return undefined;
    const b = scope.get(text);
    if (!b) return undefined;
    const p: Piece = { value: b.value, known: b.known, via: this.trace(text, b), quotes: new Set([q]) };
    if (b.runs) p.runs = b.runs;
    return p;
  }

  private trace(name: string, b: Binding): VariableTrace[] {
    const t: VariableTrace = { name };
    if (b.assignedAt) t.assignedAt = b.assignedAt;
    if (b.from) t.from = b.from;
    // Conditional when assigned in a branch the reading point is not inside (an `if` already left).
    const here = this.branchOf();
    if (b.branch && b.branch.some((id, i) => here[i] !== id)) t.conditional = true;
    return [t, ...(b.via ?? [])];
  }

  private intOf(name: string, scope: Scope): bigint | undefined {
    const b = /^[1-9]\d*$/.test(name) ? scope.args()?.[Number(name) - 1] : scope.get(name);
    if (!b || !b.known) return undefined;
    // bash reads an empty or unset variable as 0 in arithmetic, but only a set one counts as known here.
    return b.value === '' ? 0n : parseBashInt(b.value);
  }

  /** Variables an arithmetic expansion read, for the token's trace. */
  private arithVia(n: Node, scope: Scope): VariableTrace[] {
    const out: VariableTrace[] = [];
    const seen = new Set<string>();
    const visit = (c: Node, depth: number) => {
      if (depth > 100) return;
      if ((c.type === 'variable_name' || c.type === 'simple_expansion') && !seen.has(c.text.replace(/^\$/, ''))) {
        if (c.type === 'simple_expansion') {
          const v = named(c)[0];
          if (v) visit(v, depth + 1);
          return;
        }
        seen.add(c.text);
        const b = scope.get(c.text);
        out.push(...(b ? this.trace(c.text, b) : [{ name: c.text }]));
      }
      for (const k of named(c)) visit(k, depth + 1);
    };
    visit(n, 0);
    return out;
  }

  /**
   * One argument node → the arguments the program receives: usually one token, none for an empty
   * unquoted expansion, several for `"$@"`, `"${ARR[@]}"` or an unquoted `$ARGS` holding several words.
   */
  args(n: Node, scope: Scope): Token[] {
    const src = this.src;
    const sole = this.soleExpansion(n);
    if (sole) {
      const { node: e, quoted } = sole;
      const nameNode = named(e).find((c) => c.type === 'variable_name' || c.type === 'special_variable_name' || c.type === 'subscript');
      const plain = nameNode && named(e).length === 1 && !(e.type === 'expansion' && children(e)[1]?.type === '#');
      const fnArgs = scope.args();
      const slice = fnArgs && nameNode?.text === '@' ? this.positionalSlice(e) : undefined;
      if (slice) return fnArgs!.slice(slice.from, slice.to).map((t) => ({ ...t }));
      if (plain && fnArgs && (nameNode.text === '@' || (nameNode.text === '*' && !quoted))) return fnArgs.map((t) => ({ ...t }));
      if (plain && fnArgs && /^[1-9]\d*$/.test(nameNode.text)) {
        const a = fnArgs[Number(nameNode.text) - 1];
        return a ? [{ ...a }] : quoted ? [src.token(n.startIndex, n.endIndex, { value: '', quote: 'double' })] : [];
      }
      if (plain && nameNode.type === 'subscript') {
        const idx = nameNode.childForFieldName('index')?.text;
        const b = scope.get(nameNode.childForFieldName('name')?.text ?? '');
        if (b?.elements && (idx === '@' || (idx === '*' && !quoted)))
          return b.elements.map((t) => ({ ...t, via: [...this.trace(nameNode.childForFieldName('name')!.text, b), ...(t.via ?? [])] }));
      }
      // `local ctx=$2 … -c "$ctx"`: the value is the call's argument, so is its token.
      const bound = plain && nameNode.type === 'variable_name' ? scope.get(nameNode.text) : undefined;
      if (bound?.argToken && bound.argToken.value === bound.value && (quoted || !/\s/.test(bound.value))) return [{ ...bound.argToken }];
      if (!quoted) {
        const p = this.word(e, scope, false);
        if (!p.known) return [src.token(n.startIndex, n.endIndex, { value: p.value, quote: 'none', known: false, via: p.via })];
        return this.split(n, p, plain && nameNode.type === 'variable_name' ? scope.get(nameNode.text) : undefined);
      }
    }
    const p = this.word(n, scope, false);
    const t = src.token(n.startIndex, n.endIndex, { value: p.value, quote: quoteOf(p.quotes), known: p.known, via: p.via });
    // `"$CMD"`: where the variable's words are written, for a shell that reads the value again (`eval`, `bash -c`).
    if (sole && p.runs?.length) t.runs = p.runs;
    return [t];
  }

  /** `${@:2}` and `${@:2:3}` (arguments from the second on): indices into the function's arguments. */
  private positionalSlice(e: Node): { from: number; to?: number } | undefined {
    if (e.type !== 'expansion') return undefined;
    const kids = children(e).filter((c) => c.type !== '${' && c.type !== '}');
    if (kids[0]?.type !== 'special_variable_name' || kids[1]?.type !== ':') return undefined;
    const start = kids[2] ? parseBashInt(kids[2].text) : undefined;
    if (start === undefined || start < 1n) return undefined;
    if (kids.length === 3) return { from: Number(start) - 1 };
    const len = kids[3]?.type === ':' && kids[4] && kids.length === 5 ? parseBashInt(kids[4].text) : undefined;
    return len === undefined || len < 0n ? undefined : { from: Number(start) - 1, to: Number(start) - 1 + Number(len) };
  }

  /** `"$X"` or `$X` (one expansion, nothing else) → that expansion. */
  private soleExpansion(n: Node): { node: Node; quoted: boolean } | undefined {
    if (n.type === 'simple_expansion' || n.type === 'expansion') return { node: n, quoted: false };
    if (n.type === 'string') {
      const kids = named(n);
      const text = this.src.parsed;
      if (
        kids.length === 1 &&
        (kids[0].type === 'simple_expansion' || kids[0].type === 'expansion') &&
        kids[0].startIndex === n.startIndex + 1 &&
        kids[0].endIndex === n.endIndex - 1 &&
        text[n.endIndex - 1] === '"'
      ) {
        return { node: kids[0], quoted: true };
      }
    }
    return undefined;
  }

  /**
   * Field splitting of an unquoted expansion. When the variable was assigned one plain quoted
   * string (`ARGS="--max-model-len 8192"`), each word gets its span inside that assignment, so a
   * fix edits the assignment; otherwise every word spans the `$ARGS` reference.
   */
  private split(n: Node, p: Piece, b: Binding | undefined): Token[] {
    const words = [...p.value.matchAll(/[^ \t\n]+/g)];
    if (words.length === 1 && words[0][0] === p.value) return [this.src.token(n.startIndex, n.endIndex, { value: p.value, quote: 'none', via: p.via })];
    const t = b?.token;
    const inner = t && (t.quote === 'double' || t.quote === 'single') && t.raw.length >= 2 && t.raw.slice(1, -1) === t.value && t.value === p.value;
    const runs = b?.runs ?? p.runs;
    return words.map((m) => {
      const at = inner ? undefined : runHolding(runs, m.index!, m.index! + m[0].length);
      if (at !== undefined) {
        const doc = this.src.doc;
        return {
          value: m[0],
          raw: m[0],
          offset: at,
          length: m[0].length,
          range: doc.range(at, m[0].length),
          quote: 'none' as QuoteStyle,
          known: true,
          via: p.via,
        };
      }
      if (inner) {
        const offset = t!.offset + 1 + m.index!;
        const doc = this.src.doc;
        return {
          value: m[0],
          raw: m[0],
          offset,
          length: m[0].length,
          range: doc.range(offset, m[0].length),
          quote: 'none' as QuoteStyle,
          known: true,
          via: p.via,
        };
      }
      return this.src.token(n.startIndex, n.endIndex, { value: m[0], quote: 'none', via: p.via });
    });
  }
}

export function quoteOf(qs: Set<QuoteStyle>): QuoteStyle {
  if (qs.size === 0) return 'none';
  if (qs.size === 1) return [...qs][0];
  return 'mixed';
}
