/** LSP-style positions (defined in shared/core/range, below every layer that reports findings). */
import type { Position, Range } from '../core/range';
export type { Position, Range };

/** Maps offsets to positions for one text; built once per document version. */
export class LineIndex {
  protected readonly lineStarts: number[];
  constructor(readonly text: string) {
    const starts = [0];
    // \r\n is one break and a lone \r is a break (as LSP says); without any \r, indexOf keeps a 5 MB line cheap.
    if (!text.includes('\r')) {
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 13 /* \r */) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        } else if (c === 10 /* \n */) {
          starts.push(i + 1);
        }
      }
    }
    this.lineStarts = starts;
  }
  get lineCount(): number {
    return this.lineStarts.length;
  }
  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0,
      hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.lineStarts[lo] };
  }
  offsetAt(p: Position): number {
    if (p.line < 0) return 0;
    if (p.line >= this.lineStarts.length) return this.text.length;
    return Math.min(this.lineStarts[p.line] + Math.max(0, p.character), this.text.length);
  }
  rangeOf(offset: number, length: number): Range {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }
}
