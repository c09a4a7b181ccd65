/**
 * Compose's split of a string `command:`/`entrypoint:`. compose-go's ShellCommand unmarshals a
 * scalar with mattn/go-shellwords' Parse (compose-spec/compose-go types/command.go), whose
 * default parser (no env, no backticks) splits on space/tab/CR/LF; `\` escapes the next character
 * except inside single quotes; single and double quotes group; an unquoted `;`, `&`, `|`, `<` or
 * `>` ends the command (the rest is dropped); an unclosed quote is an error.
 */
import type { QuoteStyle } from './types';

export interface SplitWord {
  value: string;
  /** [start, end) of the word's source in the split string. */
  start: number;
  end: number;
  quote: QuoteStyle;
}

export interface SplitResult {
  words: SplitWord[];
  /** Where an unquoted `;&|<>` stopped the split (the rest is ignored by compose). */
  stoppedAt?: number;
  error?: string;
}

export function splitLikeCompose(line: string): SplitResult {
  const words: SplitWord[] = [];
  let buf = '';
  let start = -1;
  let got = false;
  let escaped = false,
    dq = false,
    sq = false;
  const quotes = new Set<QuoteStyle>();
  let stoppedAt: number | undefined;
  const flush = (end: number) => {
    if (got) words.push({ value: buf, start, end, quote: quotes.size === 0 ? 'none' : quotes.size === 1 ? [...quotes][0] : 'mixed' });
    buf = '';
    got = false;
    start = -1;
    quotes.clear();
  };
  let i = 0;
  for (; i < line.length; i++) {
    const c = line[i];
    if (start < 0 && !/[ \t\r\n]/.test(c)) start = i;
    if (escaped) {
      buf += c;
      escaped = false;
      got = true;
      continue;
    }
    if (c === '\\') {
      if (sq) buf += c;
      else escaped = true;
      continue;
    }
    if (/[ \t\r\n]/.test(c)) {
      if (sq || dq) buf += c;
      else if (got) flush(i);
      else start = -1;
      continue;
    }
    if (c === '"' && !sq) {
      dq = !dq;
      quotes.add('double');
      continue;
    }
    if (c === "'" && !dq) {
      sq = !sq;
      quotes.add('single');
      continue;
    }
    if (';&|<>'.includes(c) && !sq && !dq) {
      stoppedAt = i;
      break;
    }
    if (!sq && !dq) quotes.add('none');
    got = true;
    buf += c;
  }
  flush(i);
  if (escaped || sq || dq)
    return { words, stoppedAt, error: 'an unclosed quote or trailing backslash: compose refuses this command ("invalid command line string")' };
  return { words, stoppedAt };
}
