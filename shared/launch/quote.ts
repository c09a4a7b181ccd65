/**
 * POSIX shell quoting, in one place: what `rope-lens serve` writes, what fixes write into a
 * command line, and what the launch readers expect back. A word is written plain when every
 * character is safe, else single-quoted (a `'` inside as `'\''`); double quotes escape `"`, `\`,
 * `$` and backquote.
 */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Whether a word needs no quotes in a shell. */
export function shellSafe(v: string): boolean {
  return v !== '' && SAFE.test(v);
}

export function singleQuoted(v: string): string {
  return `'${v.replace(/'/g, `'\\''`)}'`;
}

export function doubleQuoted(v: string): string {
  return `"${v.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** A word for a shell command line, quoted only when it must be. */
export function shellQuote(v: string): string {
  return shellSafe(v) ? v : singleQuoted(v);
}
