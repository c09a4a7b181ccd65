/**
 * Huge JSON arrays of numbers, shortened before the tree readers see them. A config padded to 20 MB
 * is almost always one such array (an embedded table, a per-token list); a node per number costs the
 * tolerant parser ~35 MB of memory and ~0.15 s per MB, for values no rule reads: every size a rule
 * loops over is capped at MAX_LAYERS (10,000) entries or fewer (core/limits.ts).
 *
 * An array of more than LONG_ARRAY_CHARS characters of numbers keeps its first MAX_LAYERS + 1
 * elements (so it still reads as longer than any cap), once a native regex pass has found the rest a
 * well-formed list of numbers. The tree reader reads the text without that rest and maps offsets back;
 * the strict (Python) check reads it blanked by spaces: offsets, lines and Python's verdict on the file
 * are exactly those of the original text.
 */
import { MAX_LAYERS } from '../core/limits';
import { largeLabelMapInteriors } from './labelMaps';

/** Arrays shorter than this (in characters) are left alone: 1 MB holds far more than 10,001 numbers. */
const LONG_ARRAY_CHARS = 1 << 20;
const KEEP_ELEMENTS = MAX_LAYERS + 1;
/** The characters a JSON list of numbers is made of (strings, objects and words end the run). */
const NUMBER_RUN = /[-+.0-9eE \t\r\n,]*/y;

/** The blanked stretch of one long array: [from, to) in the original text (from is the comma after the kept elements). */
export interface ElidedTail {
  from: number;
  to: number;
}

let lastIn: string | undefined;
let lastTails: ElidedTail[] = [];

/** Every stretch to elide, in text order: long number arrays' tails and huge label maps' interiors (labelMaps.ts). */
function elidedTails(text: string): ElidedTail[] {
  if (text.length < LONG_ARRAY_CHARS) return [];
  // The strict check and the tree reader both ask about the same text, one after the other.
  if (text === lastIn) return lastTails;
  const maps = largeLabelMapInteriors(text);
  // A bracketed run of numbers inside an elided map (within a label string) is gone with it.
  const arrays = longNumberArrayTails(text).filter((t) => !maps.some((m) => m.from <= t.from && t.to <= m.to));
  lastIn = text;
  lastTails = [...maps, ...arrays].sort((a, b) => a.from - b.from);
  return lastTails;
}

/** The tails to elide, in text order (none for a text under LONG_ARRAY_CHARS). */
export function longNumberArrayTails(text: string): ElidedTail[] {
  if (text.length < LONG_ARRAY_CHARS) return [];
  const tails: ElidedTail[] = [];
  for (let open = text.indexOf('['); open >= 0; ) {
    NUMBER_RUN.lastIndex = open + 1;
    NUMBER_RUN.exec(text);
    const close = NUMBER_RUN.lastIndex;
    const cut = close - open - 1 >= LONG_ARRAY_CHARS && text[close] === ']' ? cutAt(text, open, close) : -1;
    if (cut >= 0) tails.push({ from: cut, to: close });
    open = text.indexOf('[', close > open + 1 ? close : open + 1);
  }
  return tails;
}

/** `text` with each tail blanked by spaces (same offsets; for scanners that skip spaces natively). */
export function elideLongNumberArrays(text: string): string {
  const tails = elidedTails(text);
  if (!tails.length) return text;
  let out = '';
  let copied = 0;
  for (const t of tails) {
    out += text.slice(copied, t.from) + ' '.repeat(t.to - t.from);
    copied = t.to;
  }
  return out + text.slice(copied);
}

/**
 * `text` with each tail removed, and the map back to the original offsets: for a tree reader that
 * would spend a step per blank (jsonc-parser builds its whitespace tokens character by character).
 */
export function withoutLongNumberArrays(text: string): { short: string; startAt(offset: number): number; endAt(offset: number): number } {
  const tails = elidedTails(text);
  if (!tails.length) return { short: text, startAt: (o) => o, endAt: (o) => o };
  let short = '';
  let copied = 0;
  // Where each removed stretch was, in the short text, and how much was removed there.
  const cuts: { at: number; removed: number }[] = [];
  for (const t of tails) {
    short += text.slice(copied, t.from);
    cuts.push({ at: short.length, removed: t.to - t.from });
    copied = t.to;
  }
  short += text.slice(copied);
  // A value starting at a cut starts after the removed stretch; one ending there ended before it.
  const shift = (o: number, atOrAfter: boolean) => {
    let d = 0;
    for (const c of cuts) if (c.at < o || (atOrAfter && c.at === o)) d += c.removed;
    return o + d;
  };
  return { short, startAt: (o) => shift(o, true), endAt: (o) => shift(o, false) };
}

/**
 * Something a JSON (and Python) list of numbers refuses, in a run of number characters: two commas in
 * a row, two numbers with no comma between them, or a number not written as JSON writes numbers (`01`,
 * `1.`, `.5`, `+1`, `1e`, `-`). One native regex pass (JSON.parse of the same tail costs ~30 ms per MB).
 */
const NOT_A_NUMBER_LIST =
  /,[ \t\r\n]*,|[-+.0-9eE][ \t\r\n]+[-+.0-9eE]|(?:^|[^-+.0-9eE])(?![ \t\r\n,])(?!-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?![-+.0-9eE]))/;

/** Offset of the comma after the kept elements, when the rest is a well-formed list of numbers; else -1. */
function cutAt(text: string, open: number, close: number): number {
  let comma = open;
  for (let k = 0; k < KEEP_ELEMENTS; k++) {
    comma = text.indexOf(',', comma + 1);
    if (comma < 0 || comma >= close) return -1;
  }
  // The blanked rest (from that comma) must be exactly what a list of numbers accepts, ending in a number.
  let last = close - 1;
  while (last > comma && /[ \t\r\n]/.test(text[last])) last--;
  if (!/[0-9]/.test(text[last]) || NOT_A_NUMBER_LIST.test(text.slice(comma, close))) return -1;
  return comma;
}
