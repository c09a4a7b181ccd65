/**
 * Findings on a file its reader cannot take as written, before any RoPE question:
 *   parse/invalid-json (error): Python's json (transformers' loader) refuses the config — a missing
 *     or trailing comma, a comment, a single quote. The tree reader reads past these, so the RoPE
 *     findings still come; this one says the file does not load at all, at the offending position.
 *   launch/broken-continuation (error): a `\` followed by a space (and a comment) in a shell
 *     command: bash ends the command there and runs the next line as a command of its own.
 */
import type { Finding, Fix } from './types';
import { checkStrictJson } from '../document/strictJson';
import { LineIndex } from '../document/positions';
import { brokenContinuations } from '../launch/shellContinuation';
import type { Invocation } from '../launch/types';

export const INVALID_JSON = 'parse/invalid-json';
export const BROKEN_CONTINUATION = 'launch/broken-continuation';

/**
 * Python's json on a JSON config: one error where it stops. When what stops it is a missing or
 * trailing comma, the fix repairs every such comma in one go (Python reports one at a time).
 */
export function invalidJsonFindings(text: string, lines: LineIndex = new LineIndex(text)): Finding[] {
  const p = checkStrictJson(text).syntax;
  if (!p) return [];
  const at = lines.positionAt(p.offset);
  const repairs = commaRepairs(text);
  const fixes: Fix[] = repairs.length
    ? [
        {
          title: repairs.length === 1 ? repairs[0].title : `Repair the ${repairs.length} commas Python's json refuses`,
          kind: 'other',
          preferred: true,
          edits: repairs.map((r) => ({ range: lines.rangeOf(r.offset, r.length), newText: r.newText })),
        },
      ]
    : [];
  return [
    {
      code: INVALID_JSON,
      severity: 'error',
      // Python's own words for it (JSONDecodeError): "Expecting value: line 1 column 1 (char 0)".
      message: `transformers cannot load this file: ${p.message}: line ${at.line + 1} column ${at.character + 1} (char ${p.offset}).`,
      detail: "Python's json module, which transformers reads config.json with, refuses it.",
      range: lines.rangeOf(p.offset, p.length),
      fixes,
    },
  ];
}

type Repair = NonNullable<ReturnType<typeof checkStrictJson>['syntax']>['repair'] & object;

/** The comma repairs, in the original text's offsets, applied one after another while that is all that stops Python. */
function commaRepairs(text: string): Repair[] {
  const done: Repair[] = [];
  let current = text;
  for (let n = 0; n < 100; n++) {
    const r = checkStrictJson(current).syntax?.repair;
    if (!r) break;
    // Map the current offset back to the original text through the repairs made so far.
    let orig = r.offset;
    for (const d of done) if (d.offset < orig || (d.offset === orig && d.length > 0)) orig -= d.newText.length - d.length;
    done.push({ ...r, offset: orig });
    current = current.slice(0, r.offset) + r.newText + current.slice(r.offset + r.length);
  }
  return done.sort((a, b) => a.offset - b.offset);
}

/** The file name transformers loads a model config from (`PretrainedConfig`'s CONFIG_NAME). */
const CONFIG_JSON = /(^|[\/\\])config\.json$/i;

/**
 * A `config.json` that Python's json refuses whatever its content: empty, truncated before any key,
 * garbage. Such a file shows no sign of being a model config, yet transformers would load it by its
 * name and fail; it is parse/invalid-json rather than silently "other".
 */
export function refusedConfigJson(text: string, fileName: string): Finding[] {
  return CONFIG_JSON.test(fileName) ? invalidJsonFindings(text) : [];
}

/** Each `\` that does not continue its launch command, with the fix that makes it continue. */
export function brokenContinuationFindings(text: string, invocations: readonly Invocation[], lines: LineIndex = new LineIndex(text)): Finding[] {
  return brokenContinuations(text, invocations).map((b) => {
    const after = b.comment
      ? `escapes the space after it instead of the line break: bash passes ${single(b.comment)} to the command as arguments (or drops it as a comment after two spaces)`
      : 'escapes the space after it instead of the line break';
    const edits = [{ range: lines.rangeOf(b.tailStart, b.tailEnd - b.tailStart), newText: '' }];
    // A comment cannot sit inside a continued command: it moves to its own line above the command.
    if (b.comment) {
      const indent = /^[ \t]*/.exec(text.slice(b.commandLineStart))![0];
      edits.unshift({ range: lines.rangeOf(b.commandLineStart, 0), newText: `${indent}${b.comment}${text.includes('\r\n') ? '\r\n' : '\n'}` });
    }
    return {
      code: BROKEN_CONTINUATION,
      severity: 'error' as const,
      message: `The command ends on this line: bash runs the next line (${single(short(b.nextLine, 40))}) as a command of its own.`,
      detail: `This \`\\\` ${after}.`,
      range: lines.rangeOf(b.offset, 1),
      fixes: [
        {
          title: b.comment ? 'Continue the line (the comment moves above the command)' : 'Continue the line (remove the spaces after \\)',
          kind: 'other' as const,
          preferred: true,
          edits,
        },
      ],
    };
  });
}

function single(s: string): string {
  return `\`${s.replace(/`/g, "'")}\``;
}

function short(s: string, max = 60): string {
  return s.length > max ? `${s.slice(0, max - 3)}…` : s;
}
