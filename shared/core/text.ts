/**
 * Small string helpers that replace regular expressions of the shape `/x+$/` and `/=.*$/`. Those
 * look harmless but restart at every character of a long run that does not end the text (a line
 * of 100,000 blanks before one more character costs 5·10⁹ steps); these loops are linear.
 */

/** `s` without the run of `chars` at its end (`/[chars]+$/` removed). */
export function trimTrailing(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** The run of `chars` at the end of `s` (what `/[chars]*$/` matches). */
export function trailingRun(s: string, chars: string): string {
  return s.slice(trimTrailing(s, chars).length);
}

/** `s` up to the first `ch` (`/ch.*$/` removed, for one-line text). */
export function beforeFirst(s: string, ch: string): string {
  const i = s.indexOf(ch);
  return i < 0 ? s : s.slice(0, i);
}
