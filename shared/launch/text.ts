/**
 * Offsets → LSP positions for one document, and the Token constructor every adapter uses, so all
 * launch formats report spans the same way (0-based line, UTF-16 character, offset/length).
 */
import type { Position, Range } from '../core/range';
import { LineIndex } from '../document/positions';
import type { QuoteStyle, Token, VariableTrace } from './types';

/**
 * The document layer's LineIndex under the names the launch adapters use; `offset` clamps a
 * character to its own line (a Dockerfile AST range can point past a line's end).
 */
export class LineMap extends LineIndex {
  position(offset: number): Position {
    return this.positionAt(offset);
  }
  range(offset: number, length: number): Range {
    return this.rangeOf(offset, length);
  }
  /** Document offset of an LSP position (clamped to its line). */
  offset(p: Position): number {
    if (p.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[Math.max(0, p.line)];
    const next = p.line + 1 < this.lineStarts.length ? this.lineStarts[p.line + 1] : this.text.length;
    return Math.min(start + Math.max(0, p.character), next);
  }
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
  let start = Infinity,
    end = -Infinity;
  for (const t of tokens) {
    start = Math.min(start, t.offset);
    end = Math.max(end, t.offset + t.length);
  }
  return { offset: start, length: end - start };
}
