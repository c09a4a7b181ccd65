/**
 * Offsets → LSP positions for one document, and the Token constructor every adapter uses, so all
 * launch formats report spans the same way (0-based line, UTF-16 character, offset/length).
 */
import type { Position, Range } from '../core/range';
import type { QuoteStyle, Token, VariableTrace } from './types';

export class LineMap {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    // \r\n counts as one break; a lone \r is a break too (as LSP says). indexOf keeps a 5 MB line cheap.
    if (!text.includes('\r')) {
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }
  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0, hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid; else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }
  range(offset: number, length: number): Range {
    return { start: this.position(offset), end: this.position(offset + length) };
  }
  /** Document offset of an LSP position (clamped to its line). */
  offset(p: Position): number {
    if (p.line >= this.starts.length) return this.text.length;
    const start = this.starts[Math.max(0, p.line)];
    const next = p.line + 1 < this.starts.length ? this.starts[p.line + 1] : this.text.length;
    return Math.min(start + Math.max(0, p.character), next);
  }
  get lineCount(): number { return this.starts.length; }
}

export interface TokenInit {
  value: string;
  offset: number;
  length: number;
  quote: QuoteStyle;
  known?: boolean;
  via?: VariableTrace[];
}

export function makeToken(map: LineMap, t: TokenInit): Token {
  const tok: Token = {
    value: t.value,
    raw: map.text.slice(t.offset, t.offset + t.length),
    offset: t.offset,
    length: t.length,
    range: map.range(t.offset, t.length),
    quote: t.quote,
    known: t.known ?? true,
  };
  if (t.via && t.via.length) tok.via = t.via;
  return tok;
}

/** The span covering a list of tokens (first to last), or undefined for none. */
export function spanOf(tokens: Token[]): { offset: number; length: number } | undefined {
  if (!tokens.length) return undefined;
  let start = Infinity, end = -Infinity;
  for (const t of tokens) { start = Math.min(start, t.offset); end = Math.max(end, t.offset + t.length); }
  return { offset: start, length: end - start };
}
