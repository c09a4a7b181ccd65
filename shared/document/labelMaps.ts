/**
 * Huge `id2label` / `label2id` maps, left out of the tree readers. A classifier config with a million
 * labels is 30 MB of one flat object that no rule reads (RoPE settings never live there); a node per
 * entry costs the tolerant parser seconds of garbage collection, the strict check a million-key Map.
 *
 * A map is elided only when it is a real key of the root object, at least LARGE_MAP_CHARS long, flat
 * (every value a scalar) and native JSON.parse accepts it with no key twice: then Python's json accepts
 * it too and it holds no duplicate key, so blanking its interior changes no verdict. The interior
 * [after `{`, before `}`) is handled like a long number array's tail (longArrays.ts): the tree reader
 * sees `{}` with offsets mapped back, the strict check sees spaces.
 */
import type { ElidedTail } from './longArrays';
import { skipStringOrComment } from './jsonScan';

/** Maps shorter than this (in characters) are parsed as usual: small files keep every node. */
const LARGE_MAP_CHARS = 1 << 20;
const NEVER_READ_KEYS = ['"id2label"', '"label2id"'];

/** The interiors of the huge, valid label maps in `text`, in text order. */
export function largeLabelMapInteriors(text: string): ElidedTail[] {
  if (text.length < LARGE_MAP_CHARS) return [];
  const candidates: { at: number; length: number }[] = [];
  for (const key of NEVER_READ_KEYS)
    for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + key.length)) candidates.push({ at, length: key.length });
  // One forward scan serves every candidate: a file full of look-alikes stays linear.
  const depthAt = rootObjectDepths(text);
  const tails: ElidedTail[] = [];
  for (const { at, length } of candidates.sort((x, y) => x.at - y.at)) {
    const tail = depthAt(at) === 1 ? interiorAfterKey(text, at + length) : undefined;
    if (tail) tails.push(tail);
  }
  return tails;
}

/** The map after a root key ending at `afterKey`, if it is huge and flat and Python's json accepts it as it is. */
function interiorAfterKey(text: string, afterKey: number): ElidedTail | undefined {
  let i = skipBlanks(text, afterKey);
  if (text[i] !== ':') return undefined;
  i = skipBlanks(text, i + 1);
  if (text[i] !== '{') return undefined;
  if (text.length - i < LARGE_MAP_CHARS) return undefined;
  const close = flatObjectEnd(text, i);
  if (close === undefined || close - i < LARGE_MAP_CHARS) return undefined;
  return { from: i + 1, to: close };
}

function skipBlanks(text: string, i: number): number {
  while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  return i;
}

/**
 * A reader of nesting depths at increasing offsets (brackets counted outside strings and comments):
 * -1 for an offset inside a string or comment (a key look-alike within a value) or when the root is
 * not an object. Asked in text order, it reads the text once in all.
 */
function rootObjectDepths(text: string): (offset: number) => number {
  let i = 0;
  let depth = 0;
  let opened = false;
  let rootIsArray = false;
  return (offset) => {
    for (; i < offset; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22 || c === 0x2f) {
        i = skipStringOrComment(text, i);
      } else if (c === 0x7b || c === 0x5b) {
        if (!opened) rootIsArray = c === 0x5b;
        opened = true;
        depth++;
      } else if (c === 0x7d || c === 0x5d) depth--;
    }
    // Past the offset: a string or comment began before it and ran over it.
    return i > offset || rootIsArray ? -1 : depth;
  };
}

const STRING = String.raw`"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;
const SCALAR = String.raw`${STRING}|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null`;
/**
 * One `"key": scalar` entry as Python's json reads it (no NaN/Infinity: such a map is simply kept), and
 * the `,` or `}` after it. Sticky, so it is tried at one position per entry: linear (test/unit/redos.test.ts).
 */
export const LABEL_MAP_ENTRY = new RegExp(String.raw`[ \t\r\n]*(${STRING})[ \t\r\n]*:[ \t\r\n]*(?:${SCALAR})[ \t\r\n]*([,}])`, 'y');

/**
 * The `}` closing the object opened at `open`, when every entry is a `"key": scalar` Python's json
 * accepts and no key is written twice; else undefined. One native regex step per entry, no tree.
 */
function flatObjectEnd(text: string, open: number): number | undefined {
  LABEL_MAP_ENTRY.lastIndex = open + 1;
  // transformers writes id2label keys as "0", "1", …: while that holds, no key can repeat.
  let inSequence = true;
  let seen: Set<string> | undefined;
  for (let n = 0; ; n++) {
    const m = LABEL_MAP_ENTRY.exec(text);
    if (!m) return undefined;
    const key = m[1];
    if (inSequence && key !== `"${n}"`) {
      inSequence = false;
      seen = new Set();
      for (let k = 0; k < n; k++) seen.add(String(k));
    }
    if (seen) {
      const name = key.includes('\\') ? (JSON.parse(key) as string) : key.slice(1, -1);
      if (seen.has(name)) return undefined;
      seen.add(name);
    }
    if (m[2] === '}') return LABEL_MAP_ENTRY.lastIndex - 1;
  }
}
