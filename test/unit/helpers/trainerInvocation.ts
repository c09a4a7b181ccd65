/**
 * A stand-in for the shell adapter (h-launchdoc) in trainer tests: splits commands into argv
 * tokens with exact offsets and ranges. One command per logical line; `\`-newline continues it.
 * Handles bare words, '…' and "…" (with \" \\ \$ \` escapes), and leading NAME=value assignments
 * (the environment). No variables, no pipes: enough for the launch lines the tests model.
 */
import { LineIndex } from '../../../shared/document/positions';
import type { Invocation, LaunchFile, QuoteStyle, Token } from '../../../shared/launch/types';

export function launchFileOf(text: string): LaunchFile {
  const lines = new LineIndex(text);
  const invocations: Invocation[] = [];
  let words: Token[] = [];
  let i = 0;
  const flush = () => {
    if (words.length) invocations.push(invocationOf(words, text, lines));
    words = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\r' ? 3 : 2;
      continue;
    }
    if (c === '\n' || c === ';') {
      flush();
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#' && words.length === 0) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const start = i;
    let value = '';
    const quotes = new Set<QuoteStyle>();
    let bare = false;
    while (i < text.length && !/[\s;]/.test(text[i])) {
      const ch = text[i];
      if (ch === "'") {
        const end = text.indexOf("'", i + 1);
        value += text.slice(i + 1, end);
        quotes.add('single');
        i = end + 1;
      } else if (ch === '"') {
        i++;
        while (text[i] !== '"') {
          if (text[i] === '\\' && /["\\$`]/.test(text[i + 1])) i++;
          value += text[i++];
        }
        quotes.add('double');
        i++;
      } else {
        value += ch;
        bare = true;
        i++;
      }
    }
    const raw = text.slice(start, i);
    const quote: QuoteStyle = quotes.size === 0 ? 'none' : quotes.size === 1 && !bare ? [...quotes][0] : 'mixed';
    words.push({ value, raw, offset: start, length: i - start, range: lines.rangeOf(start, i - start), quote, known: true });
  }
  flush();
  return { format: 'shell', invocations, problems: [] };
}

function invocationOf(words: Token[], text: string, lines: LineIndex): Invocation {
  const env: Record<string, Token> = {};
  let k = 0;
  while (k < words.length - 1 && /^[A-Za-z_]\w*=/.test(words[k].value)) {
    const name = words[k].value.slice(0, words[k].value.indexOf('='));
    env[name] = { ...words[k], value: words[k].value.slice(name.length + 1) };
    k++;
  }
  const argv = words.slice(k);
  const first = words[0],
    last = words[words.length - 1];
  const end = last.offset + last.length;
  const multiLine = lines.positionAt(first.offset).line !== lines.positionAt(end).line;
  const lastLineStart = text.lastIndexOf('\n', last.offset) + 1;
  const indent = text.slice(lastLineStart).match(/^[ \t]*/)![0];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return {
    argv,
    entrypoint: 'program',
    env,
    source: 'shell',
    range: lines.rangeOf(first.offset, end - first.offset),
    offset: first.offset,
    length: end - first.offset,
    append: { offset: end, range: lines.rangeOf(end, 0), separator: multiLine ? ` \\${eol}${indent}` : ' ', form: 'shell' },
    notes: [],
  };
}
