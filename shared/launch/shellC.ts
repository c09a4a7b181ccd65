/**
 * `sh -c "…"` as a container command (compose, Kubernetes, exec-form CMD): the script is shell,
 * so the shell adapter reads it and the command it launches becomes the invocation.
 */
import { readShellValue } from './shell';
import { isLaunchInvocation } from './sniff';
import type { LineMap } from './text';
import type { Invocation, ShellParser, Token } from './types';

export type ValueMapOf = (t: Token) => { valueStart: number; docStart: number }[] | undefined;

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ash']);

/** Index of the script in `sh [-e…] -c SCRIPT`, or -1. */
function scriptIndex(argv: Token[]): number {
  const prog = argv[0]?.value ?? '';
  if (!SHELLS.has(prog.slice(prog.lastIndexOf('/') + 1))) return -1;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i].value;
    if (/^-[a-z]*c[a-z]*$/.test(a)) return i + 1 < argv.length ? i + 1 : -1;
    if (!a.startsWith('-')) return -1;
  }
  return -1;
}

/**
 * The launch inside `sh -c SCRIPT`, or the invocation unchanged. Also for an image's arguments:
 * whoever passes `sh -c …` as CMD means it as the program (an image entrypoint would not run it).
 */
export function throughShellC(inv: Invocation, doc: LineMap, mapOf: ValueMapOf, parser: ShellParser | undefined): Invocation {
  const at = scriptIndex(inv.argv);
  if (at < 0) return inv;
  const script = inv.argv[at];
  const pieces = mapOf(script);
  if (!parser || !pieces) {
    return { ...inv, notes: [...inv.notes, `the ${inv.argv[0].value} -c script was not read${parser ? ' (its text does not map back to the file)' : ' (no shell parser)'}`] };
  }
  const r = readShellValue(doc, script.value, pieces, parser, { keepAll: true, env: inv.env, source: inv.source });
  const inner = r.invocations.find(isLaunchInvocation);
  if (!inner) return inv;
  const out: Invocation = {
    ...inv,
    argv: inner.argv,
    env: { ...inv.env, ...inner.env },
    entrypoint: inner.entrypoint,
    notes: [...inv.notes, `through ${inv.argv[0].value} -c`, ...inner.notes],
  };
  if (inner.image) out.image = inner.image;
  if (inner.append) out.append = inner.append; else delete out.append;
  return out;
}
