/**
 * Invocations for tests, built without the document adapters: one command line split on blanks
 * with exact offsets, single and double quotes honoured (enough for a JSON argument in single
 * quotes), leading NAME=value words taken as the environment. Not a shell parser: no variables,
 * no escapes beyond what the quotes delimit. The command may sit anywhere in a larger text.
 */
import type { Invocation, QuoteStyle, Token, ModelfileLaunch } from '../../../shared/launch/types';
import { LineIndex } from '../../../shared/document/positions';

interface Word {
  value: string;
  raw: string;
  offset: number;
  quote: QuoteStyle;
}

function words(text: string, from: number, to: number): Word[] {
  const out: Word[] = [];
  let i = from;
  while (i < to) {
    while (i < to && /\s/.test(text[i])) i++;
    if (i >= to) break;
    if (text[i] === '\\' && text[i + 1] === '\n') {
      i += 2;
      continue;
    }
    const start = i;
    let value = '';
    const quotes = new Set<QuoteStyle>();
    let plain = false;
    while (i < to && !/\s/.test(text[i])) {
      const c = text[i];
      if (c === "'" || c === '"') {
        const end = text.indexOf(c, i + 1);
        if (end < 0 || end >= to) throw new Error(`unterminated ${c} at ${i}`);
        value += text.slice(i + 1, end);
        quotes.add(c === "'" ? 'single' : 'double');
        i = end + 1;
      } else {
        value += c;
        plain = true;
        i++;
      }
    }
    const quote: QuoteStyle = quotes.size === 0 ? 'none' : quotes.size === 1 && !plain ? [...quotes][0] : 'mixed';
    out.push({ value, raw: text.slice(start, i), offset: start, quote });
  }
  return out;
}

function token(w: Word, lines: LineIndex): Token {
  return { value: w.value, raw: w.raw, offset: w.offset, length: w.raw.length, range: lines.rangeOf(w.offset, w.raw.length), quote: w.quote, known: true };
}

export interface InvocationOptions {
  /** Where the command starts in `text` (default: the first occurrence of `command`, else 0). */
  at?: number;
  entrypoint?: Invocation['entrypoint'];
  image?: string;
  source?: Invocation['source'];
  /** Extra environment (value tokens placed nowhere: offset -1). */
  env?: Record<string, string>;
}

/**
 * The invocation of the command that spans `text` from `at` to the end of its (possibly
 * backslash-continued) line. Environment prefixes `A=1 B=2 prog …` become `env`.
 */
export function invocationOf(text: string, opts: InvocationOptions = {}): Invocation {
  const lines = new LineIndex(text);
  const from = opts.at ?? 0;
  let to = from;
  while (to < text.length && text[to] !== '\n') to++;
  while (to < text.length && text[to - 1] === '\\' && text[to] === '\n') {
    to++;
    while (to < text.length && text[to] !== '\n') to++;
  }
  const ws = words(text, from, to);
  const env: Record<string, Token> = {};
  while (ws.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(ws[0].value) && ws[0].quote === 'none') {
    const w = ws.shift()!;
    const eq = w.raw.indexOf('=');
    env[w.value.slice(0, eq)] = token({ value: w.value.slice(eq + 1), raw: w.raw.slice(eq + 1), offset: w.offset + eq + 1, quote: 'none' }, lines);
  }
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    env[k] = { value: v, raw: v, offset: -1, length: 0, range: lines.rangeOf(0, 0), quote: 'none', known: true };
  }
  const argv = ws.map((w) => token(w, lines));
  const last = argv[argv.length - 1];
  const start = argv[0]?.offset ?? from;
  const end = last ? last.offset + last.length : from;
  // A continued command keeps its layout: new flags go on a new continued line.
  const continued = /\\\n([ \t]*)/.exec(text.slice(from, to));
  const separator = continued ? ` \\\n${continued[1]}` : ' ';
  const inv: Invocation = {
    argv,
    entrypoint: opts.entrypoint ?? 'program',
    env,
    source: opts.source ?? 'shell',
    range: lines.rangeOf(start, end - start),
    offset: start,
    length: end - start,
    append: { offset: end, range: lines.rangeOf(end, 0), separator, form: 'shell' },
    notes: [],
  };
  if (opts.image) {
    const i = text.indexOf(opts.image);
    inv.image =
      i >= 0
        ? token({ value: opts.image, raw: opts.image, offset: i, quote: 'none' }, lines)
        : { value: opts.image, raw: opts.image, offset: -1, length: 0, range: lines.rangeOf(0, 0), quote: 'none', known: true };
  }
  return inv;
}

/**
 * An exec-form JSON array (`CMD ["--model", "x"]`, compose `command: [...]`) as an image
 * invocation: each string element is a token (raw with its quotes), new entries go before `]`.
 */
export function execFormOf(text: string, image: string, opts: { at?: number } = {}): Invocation {
  const lines = new LineIndex(text);
  const open = text.indexOf('[', opts.at ?? 0);
  const close = text.indexOf(']', open);
  const argv: Token[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  re.lastIndex = open;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) && m.index < close) {
    argv.push({
      value: JSON.parse(m[0]),
      raw: m[0],
      offset: m.index,
      length: m[0].length,
      range: lines.rangeOf(m.index, m[0].length),
      quote: 'double',
      known: true,
    });
  }
  const last = argv[argv.length - 1];
  const end = last ? last.offset + last.length : open + 1;
  const i = text.indexOf(image);
  return {
    argv,
    entrypoint: 'image',
    env: {},
    source: 'dockerfile',
    range: lines.rangeOf(open, close + 1 - open),
    offset: open,
    length: close + 1 - open,
    append: { offset: end, range: lines.rangeOf(end, 0), separator: ', ', form: 'json-array' },
    image: { value: image, raw: image, offset: i, length: image.length, range: lines.rangeOf(Math.max(0, i), image.length), quote: 'none', known: true },
    notes: [],
  };
}

/** A Modelfile: FROM and PARAMETER lines, each value a token. */
export function modelfileOf(text: string): ModelfileLaunch {
  const lines = new LineIndex(text);
  const mf: ModelfileLaunch = { source: 'modelfile', parameters: {}, range: lines.rangeOf(0, text.length) };
  let offset = 0;
  let lastEnd = 0;
  for (const line of text.split('\n')) {
    const ws = words(text, offset, offset + line.length).map((w) => token(w, lines));
    const head = ws[0]?.value.toUpperCase();
    if (head === 'FROM' && ws[1]) {
      mf.from = ws[1];
      lastEnd = offset + line.length;
    }
    if (head === 'PARAMETER' && ws[1] && ws[2]) {
      mf.parameters[ws[1].value] = { name: ws[1], value: ws[2] };
      lastEnd = offset + line.length;
    }
    offset += line.length + 1;
  }
  mf.appendAt = { offset: lastEnd, range: lines.rangeOf(lastEnd, 0) };
  return mf;
}

/**
 * A shell script as a LaunchFile: every line that is not blank or a comment starts a command
 * (backslash-continued lines belong to it). Enough for tests; the real adapter is tree-sitter-bash.
 */
export function shellFileOf(text: string): import('../../../shared/launch/types').LaunchFile {
  const invocations: Invocation[] = [];
  let offset = 0;
  let continued = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!continued && trimmed && !trimmed.startsWith('#')) invocations.push(invocationOf(text, { at: offset + line.indexOf(trimmed) }));
    continued = line.endsWith('\\');
    offset += line.length + 1;
  }
  return { format: 'shell', invocations, problems: [] };
}
