/**
 * Offset-based edits (what the edit builders produce) and their conversion to LSP-style
 * TextEdits. Applying edits is needed by the fix verifier and by tests; it follows LSP rules:
 * every edit refers to the original text and edits must not overlap.
 */
import type { TextEdit } from '../core/findings';
import type { LineIndex } from '../document/positions';

export interface OffsetEdit {
  offset: number;
  length: number;
  newText: string;
}

export function toTextEdits(lines: LineIndex, edits: OffsetEdit[]): TextEdit[] {
  return sortEdits(edits).map((e) => ({ range: lines.rangeOf(e.offset, e.length), newText: e.newText }));
}

function sortEdits(edits: OffsetEdit[]): OffsetEdit[] {
  // Stable by offset; a pure insertion sorts before a replacement starting at the same offset.
  return edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.offset - b.e.offset || a.e.length - b.e.length || a.i - b.i)
    .map((x) => x.e);
}

/** Applies offset edits to `text`; throws on overlapping edits (a bug in a fix builder). */
export function applyOffsetEdits(text: string, edits: OffsetEdit[]): string {
  const sorted = sortEdits(edits);
  let out = '';
  let pos = 0;
  for (const e of sorted) {
    if (e.offset < pos) throw new Error(`overlapping edits at offset ${e.offset}`);
    out += text.slice(pos, e.offset) + e.newText;
    pos = e.offset + e.length;
  }
  return out + text.slice(pos);
}

/** Applies LSP TextEdits (ranges in the original text) to `text`. */
export function applyTextEdits(text: string, lines: LineIndex, edits: TextEdit[]): string {
  return applyOffsetEdits(
    text,
    edits.map((e) => {
      const start = lines.offsetAt(e.range.start);
      return { offset: start, length: lines.offsetAt(e.range.end) - start, newText: e.newText };
    }),
  );
}

/** Shrinks an edit to the part that really changes (drops a common prefix and suffix). */
export function minimizeEdit(text: string, e: OffsetEdit): OffsetEdit {
  const old = text.slice(e.offset, e.offset + e.length);
  let p = 0;
  while (p < old.length && p < e.newText.length && old[p] === e.newText[p]) p++;
  let s = 0;
  while (s < old.length - p && s < e.newText.length - p && old[old.length - 1 - s] === e.newText[e.newText.length - 1 - s]) s++;
  return { offset: e.offset + p, length: old.length - p - s, newText: e.newText.slice(p, e.newText.length - s) };
}
