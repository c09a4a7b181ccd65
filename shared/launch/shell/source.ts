/**
 * The text the shell parser actually sees, and the way back to the document. Large files and
 * embedded shell (a Dockerfile's shell-form CMD) are parsed as a shorter text made of kept pieces;
 * every offset read from the tree goes through `orig` so tokens carry exact document spans.
 */
import type { Range } from '../../core/range';
import { LineMap, makeToken, type TokenInit } from '../text';
import type { Token } from '../types';

interface Segment {
  parsedStart: number;
  origStart: number;
  /**
   * Text not written in the document as such (a variable's value inside an `eval`ed string): the
   * whole segment stands for the document span [origStart, origStart + width), the reference.
   */
  width?: number;
}

export class ParseSource {
  private constructor(
    /** The text handed to tree-sitter. */
    readonly parsed: string,
    readonly doc: LineMap,
    private readonly segments: Segment[],
    /** Set for a sourced file: the tokens it makes say so (Token.from). */
    readonly from?: string,
  ) {}

  /** The whole document, parsed as is. */
  static whole(doc: LineMap, from?: string): ParseSource {
    return new ParseSource(doc.text, doc, [{ parsedStart: 0, origStart: 0 }], from);
  }

  /** The same parsed text, its tokens marked as written in `from` (a sourced file). */
  withOrigin(from: string): ParseSource {
    return new ParseSource(this.parsed, this.doc, this.segments, from);
  }

  /** Only these document spans, in order, each followed by a newline in the parsed text. */
  static pieces(doc: LineMap, spans: { offset: number; length: number }[]): ParseSource {
    const segments: Segment[] = [];
    const parts: string[] = [];
    let length = 0;
    for (const s of spans) {
      const piece = doc.text.slice(s.offset, s.offset + s.length);
      segments.push({ parsedStart: length, origStart: s.offset });
      parts.push(piece);
      length += piece.length;
      // The separator maps to the span's end, where the piece's own newline (if any) was.
      if (!piece.endsWith('\n')) {
        segments.push({ parsedStart: length, origStart: s.offset + s.length });
        parts.push('\n');
        length++;
      }
    }
    return new ParseSource(parts.join(''), doc, segments.length ? segments : [{ parsedStart: 0, origStart: 0 }]);
  }

  /**
   * Text that is not a slice of the document (a YAML scalar's value), mapped back piece by piece.
   * A piece with `width` is not written as such: everything in it maps to that document span.
   */
  static mapped(doc: LineMap, text: string, pieces: { valueStart: number; docStart: number; width?: number }[]): ParseSource {
    return new ParseSource(
      text,
      doc,
      pieces.map((p) => ({ parsedStart: p.valueStart, origStart: p.docStart, ...(p.width !== undefined ? { width: p.width } : {}) })),
    );
  }

  get isWhole(): boolean {
    return this.parsed === this.doc.text;
  }

  private segmentAt(i: number): Segment {
    const segs = this.segments;
    let lo = 0,
      hi = segs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segs[mid].parsedStart <= i) lo = mid;
      else hi = mid - 1;
    }
    return segs[lo];
  }

  /** Document offset of a parsed-text offset. */
  orig(i: number): number {
    const seg = this.segmentAt(i);
    return seg.width !== undefined ? seg.origStart : seg.origStart + (i - seg.parsedStart);
  }

  /** Document span of a parsed span (the end is mapped from its last character, so it stays in its piece). */
  span(start: number, end: number): { offset: number; length: number } {
    const o = this.orig(start);
    const last = end > start ? this.segmentAt(end - 1) : undefined;
    const e = !last ? o : last.width !== undefined ? last.origStart + last.width : this.orig(end - 1) + 1;
    return { offset: o, length: Math.max(0, e - o) };
  }

  /** Whether a parsed offset is text written in the document as such (not a reference standing for it). */
  isWritten(i: number): boolean {
    return this.segmentAt(i).width === undefined;
  }

  range(start: number, end: number): Range {
    const s = this.span(start, end);
    return this.doc.range(s.offset, s.length);
  }

  /** A token for the parsed span [start, end). */
  token(start: number, end: number, t: Omit<TokenInit, 'offset' | 'length'>): Token {
    const tok = makeToken(this.doc, { ...t, ...this.span(start, end) });
    if (this.from) tok.from = this.from;
    return tok;
  }
}
