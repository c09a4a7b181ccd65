/** Combining edits from two editor calls into one fix (they must not overlap: removal and insertion elsewhere). */
import type { TextEdit } from '../../core/findings';

export function mergeEdits(a: TextEdit[], b: TextEdit[]): TextEdit[] {
  if (!a.length || !b.length) return [];
  const all = [...a, ...b];
  const key = (e: TextEdit) => e.range.start.line * 1e6 + e.range.start.character;
  all.sort((x, y) => key(x) - key(y));
  for (let i = 1; i < all.length; i++) {
    const p = all[i - 1].range.end, c = all[i].range.start;
    if (p.line > c.line || (p.line === c.line && p.character > c.character)) return [];
  }
  return all;
}
