/**
 * A line continuation that bash does not continue: `--tensor-parallel-size 2 \ # two GPUs`. The
 * backslash escapes the space after it instead of the newline, so the command ends on that line
 * (with ` #`, `two`, `GPUs` passed to the program as arguments when the comment follows a single
 * space) and bash runs the next line, `--max-model-len 32768`, as a command of its own. Trailing
 * spaces after the `\` do the same. Only the lines of a launch command the adapters read are
 * looked at, and only where the next line goes on with more of it.
 */
import type { Invocation } from './types';

export interface BrokenContinuation {
  /** Offset of the `\`. */
  offset: number;
  /** Where what follows the `\` on its line starts and ends (the space and the comment). */
  tailStart: number;
  tailEnd: number;
  /** The comment after the `\`, when there is one (`# two GPUs`). */
  comment?: string;
  /** The next line, trimmed: what bash runs as its own command. */
  nextLine: string;
  /** Offset of the first line of the command, where a comment moved out of it can go. */
  commandLineStart: number;
}

export function brokenContinuations(text: string, invocations: readonly Invocation[]): BrokenContinuation[] {
  const out: BrokenContinuation[] = [];
  const seen = new Set<number>();
  for (const inv of invocations) {
    if (inv.source !== 'shell' || inv.offset < 0) continue;
    // The command ends where bash ended it: the line holding its last token.
    const end = inv.offset + inv.length;
    const lineStart = text.lastIndexOf('\n', end - 1) + 1;
    let lineEnd = text.indexOf('\n', end);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const m = escapedBlankAtEnd(line);
    // An even run of backslashes is escaped backslashes, not an escape of the space.
    if (!m || m.slashes % 2 === 0) continue;
    const slash = lineStart + m.index + m.slashes - 1;
    if (seen.has(slash) || slash < inv.offset) continue;
    const next = nextCodeLine(text, lineEnd);
    if (next === undefined) continue;
    seen.add(slash);
    const commandLineStart = text.lastIndexOf('\n', inv.offset - 1) + 1;
    out.push({
      offset: slash,
      tailStart: slash + 1,
      tailEnd: lineStart + line.length,
      ...(m.comment ? { comment: m.comment.trim() } : {}),
      nextLine: next,
      commandLineStart,
    });
  }
  return out;
}

/** The next line after `from` (a newline offset) when it holds more of a command (not blank, not a comment, not a new block). */
function nextCodeLine(text: string, from: number): string | undefined {
  if (from >= text.length) return undefined;
  let e = text.indexOf('\n', from + 1);
  if (e < 0) e = text.length;
  const line = text
    .slice(from + 1, e)
    .replace(/\r$/, '')
    .trim();
  if (!line || line.startsWith('#') || /^(fi|done|esac|then|else|elif|do|\}|\))\b/.test(line)) return undefined;
  return line;
}

/**
 * The first run of backslashes followed by blanks and then the line's end or a `#` comment (what
 * `/(\\+)([ \t]+)(#.*)?$/` finds), by one walk over the line: that pattern retries from every
 * backslash of a long run.
 */
function escapedBlankAtEnd(line: string): { index: number; slashes: number; comment?: string } | undefined {
  for (let i = line.indexOf('\\'); i >= 0; i = line.indexOf('\\', i)) {
    let j = i;
    while (line[j] === '\\') j++;
    let k = j;
    while (line[k] === ' ' || line[k] === '\t') k++;
    if (k > j && (k === line.length || line[k] === '#')) return { index: i, slashes: j - i, ...(k < line.length ? { comment: line.slice(k) } : {}) };
    i = j;
  }
  return undefined;
}
