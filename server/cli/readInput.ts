/**
 * Reads one file `rope-lens check` was given, or says why it is not read: a binary file (a NUL
 * byte near its start, as git decides) is no text config, and a file past MAX_CHECK_BYTES is not
 * parsed (a huge array of numbers costs ~20 ms per MB, longArrays.ts; anything else a tree node per
 * value, ~35 MB of memory per MB, which would exhaust Node's heap past ~100 MB). The reason becomes
 * a "skipped" note in the summary, never silence. Documented in docs/inputs.md.
 */
import { readFileSync, statSync } from 'node:fs';

/** Files larger than this are not read (documented in docs/inputs.md; tested in nothingSilent.test.ts). */
export const MAX_CHECK_BYTES = 64 * 1024 * 1024;

/** How much of a file's start is searched for a NUL byte (git looks at the first 8,000 bytes). */
const BINARY_SNIFF_BYTES = 8000;

export type InputText = { text: string } | { skipped: string };

/** The file's text, or why it is skipped; fs errors (missing, unreadable) are thrown to the caller. */
export function readInput(path: string): InputText {
  const size = statSync(path).size;
  if (size > MAX_CHECK_BYTES) return { skipped: `larger than ${MAX_CHECK_BYTES / (1024 * 1024)} MB (${(size / (1024 * 1024)).toFixed(1)} MB), not read` };
  // One read per file (a folder walk reads thousands): the NUL test looks at the bytes already read.
  const bytes = readFileSync(path);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { skipped: 'a binary file (a NUL byte near its start; configs are UTF-8 text), not read' };
  return { text: bytes.toString('utf8') };
}
