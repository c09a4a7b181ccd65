/**
 * JSON as Python's `json` module reads it (transformers loads config.json with `json.load` on a
 * UTF-8 text stream): no comments, no trailing commas, no single quotes, no raw control characters
 * in strings, no leading zeros or `+`, no BOM; NaN, Infinity and -Infinity are accepted.
 * The tolerant tree reader (parseJson.ts) reads past all of these; this checker says where Python
 * stops, with Python's own wording. Duplicate keys load (the last one wins) but make an earlier
 * value dead: they are reported apart, for fix verification.
 */
import { elideLongNumberArrays } from './longArrays';

export interface StrictJsonProblem {
  kind: 'syntax' | 'duplicate-key';
  message: string;
  offset: number;
  length: number;
  /** The one edit that repairs a missing or trailing comma (offset, length replaced, new text). */
  repair?: { offset: number; length: number; newText: string; title: string };
}

export interface StrictJsonResult {
  /** Where Python's json stops (it reports only the first error), if it does. */
  syntax?: StrictJsonProblem;
  duplicates: StrictJsonProblem[];
}

class Stop extends Error {
  constructor(readonly problem: StrictJsonProblem) {
    super(problem.message);
  }
}

const WS = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const MAX_DEPTH = 900; // CPython's recursion limit is 1,000 frames

export function checkStrictJson(text: string): StrictJsonResult {
  // A huge table of numbers, once the native parser has vouched for its tail, is scanned as blanks (longArrays.ts).
  return checkText(elideLongNumberArrays(text));
}

function checkText(text: string): StrictJsonResult {
  const duplicates: StrictJsonProblem[] = [];
  let i = 0;
  const stop = (message: string, offset: number, length = 1, repair?: StrictJsonProblem['repair']): never => {
    throw new Stop({ kind: 'syntax', message, offset, length: Math.max(0, Math.min(length, text.length - offset)), ...(repair ? { repair } : {}) });
  };
  const ws = () => {
    WS.lastIndex = i;
    WS.exec(text);
    i = WS.lastIndex;
  };
  /** End of the value just read, for a missing comma's repair. */
  let lastEnd = 0;

  const str = (): string => {
    const start = i;
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) stop('Unterminated string starting at', start, 1);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        lastEnd = i;
        return out;
      }
      if (c < 0x20) stop('Invalid control character at', i, 1);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) stop('Invalid \\uXXXX escape', i, 2);
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          out += e;
          i += 2;
        } else {
          stop('Invalid \\escape', i, 2);
        }
        continue;
      }
      out += text[i++];
    }
  };

  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) stop('maximum recursion depth exceeded (nesting too deep)', i, 1);
    const c = text[i];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') {
      str();
      return;
    }
    for (const word of ['true', 'false', 'null', 'NaN', 'Infinity', '-Infinity']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        lastEnd = i;
        return;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i = NUMBER.lastIndex;
      lastEnd = i;
      return;
    }
    stop('Expecting value', i, 1);
  };

  const object = (depth: number): void => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      lastEnd = i;
      return;
    }
    const seen = new Map<string, number>();
    for (;;) {
      if (text[i] !== '"') stop('Expecting property name enclosed in double quotes', i, 1);
      const keyAt = i;
      const key = str();
      const first = seen.get(key);
      if (first !== undefined) {
        duplicates.push({
          kind: 'duplicate-key',
          message: `Duplicate key "${key}": Python's json keeps the last value, the one at offset ${first} is dead`,
          offset: keyAt,
          length: i - keyAt,
        });
      } else {
        seen.set(key, keyAt);
      }
      ws();
      if (text[i] !== ':') stop("Expecting ':' delimiter", i, 1);
      i++;
      ws();
      value(depth + 1);
      const end = lastEnd;
      ws();
      if (text[i] === '}') {
        i++;
        lastEnd = i;
        return;
      }
      if (text[i] !== ',') {
        stop("Expecting ',' delimiter", i, 1, text[i] === '"' ? { offset: end, length: 0, newText: ',', title: 'Insert the missing comma' } : undefined);
      }
      const comma = i;
      i++;
      ws();
      if (text[i] === '}')
        stop('Illegal trailing comma before end of object', comma, 1, { offset: comma, length: 1, newText: '', title: 'Remove the trailing comma' });
    }
  };

  const array = (depth: number): void => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      lastEnd = i;
      return;
    }
    for (;;) {
      value(depth + 1);
      const end = lastEnd;
      ws();
      if (text[i] === ']') {
        i++;
        lastEnd = i;
        return;
      }
      if (text[i] !== ',') {
        const startsValue = i < text.length && /["{[\dtfnNI-]/.test(text[i]);
        stop("Expecting ',' delimiter", i, 1, startsValue ? { offset: end, length: 0, newText: ',', title: 'Insert the missing comma' } : undefined);
      }
      const comma = i;
      i++;
      ws();
      if (text[i] === ']')
        stop('Illegal trailing comma before end of array', comma, 1, { offset: comma, length: 1, newText: '', title: 'Remove the trailing comma' });
    }
  };

  try {
    if (text.charCodeAt(0) === 0xfeff) stop('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0, 1);
    ws();
    value(0);
    ws();
    if (i < text.length) stop('Extra data', i, 1);
    return { duplicates };
  } catch (e) {
    if (e instanceof Stop) return { syntax: e.problem, duplicates };
    throw e;
  }
}

/** 1-based line and column of an offset, as Python's JSONDecodeError counts them. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const nl = before.lastIndexOf('\n');
  return { line: (before.match(/\n/g)?.length ?? 0) + 1, column: offset - nl };
}

const NONFINITE_MARK = '\u0000rope-lens-nonfinite:';

/**
 * `json.loads(text)` as Python runs it: the value (NaN, Infinity and -Infinity as numbers), or the
 * JSONDecodeError Python raises, in its words ("Expecting value: line 1 column 1 (char 0)").
 */
export function loadsPython(text: string): { value: unknown } | { error: string } {
  const r = checkStrictJson(text);
  if (r.syntax) {
    const at = lineColumn(text, r.syntax.offset);
    return { error: `${r.syntax.message}: line ${at.line} column ${at.column} (char ${r.syntax.offset})` };
  }
  // The text is valid for Python: only its non-finite words stop JavaScript's parser, so they travel as marked strings.
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (t) => (t.startsWith('"') ? t : JSON.stringify(NONFINITE_MARK + t)));
  return {
    value: JSON.parse(marked, (_k, v) => (typeof v === 'string' && v.startsWith(NONFINITE_MARK) ? Number(v.slice(NONFINITE_MARK.length)) : v)),
  };
}
