/**
 * Commands that hand a shell a string to run: `sh -c SCRIPT`, `eval $CMD`, `pm2 start "vllm serve …"`,
 * `tmux new -d "…"`, `screen -dmS x "…"`. The string is read as shell (shell.ts throughShellC);
 * this module says where it is in argv and how its text maps back to the document, so the
 * launch found inside keeps the user's own spans.
 */
import type { LineMap } from '../text';
import type { Token } from '../types';
import { stringCommandOf } from './peel';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ash']);
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** The string a command runs as shell (one token, or `eval`'s words joined) and the words that say how. */
export interface EmbeddedScript {
  tokens: Token[];
  label: string;
}

export function embeddedScript(argv: Token[], map: LineMap): EmbeddedScript | undefined {
  const prog = baseName(argv[0]?.value ?? '');
  if (SHELLS.has(prog)) {
    // `sh [-e…] -c SCRIPT`
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i].value;
      if (/^-[a-z]+$/.test(a) && a.includes('c')) return i + 1 < argv.length ? { tokens: [argv[i + 1]], label: `${argv[0].value} -c` } : undefined;
      if (!a.startsWith('-')) return undefined;
    }
    return undefined;
  }
  // `eval` joins its arguments with spaces and runs the result.
  if (prog === 'eval' && argv[0].value === 'eval') return argv.length > 1 ? { tokens: argv.slice(1), label: 'eval' } : undefined;
  const s = stringCommandOf(argv, map);
  return s ? { tokens: [s.script], label: s.label } : undefined;
}

/** How the script's text maps to the document: exact pieces, and `width` pieces that stand for a reference (`$CMD`). */
export type ScriptMap = { text: string; pieces: { valueStart: number; docStart: number; width?: number }[] };

/** One token's value mapped through the runs it carries (`"$CMD"` assembled from strings in the file); gaps map to the token. */
function runsMap(t: Token, at: number, pieces: ScriptMap['pieces']): void {
  let pos = 0;
  for (const r of [...(t.runs ?? [])].sort((a, b) => a.at - b.at)) {
    if (r.at > pos) pieces.push({ valueStart: at + pos, docStart: t.offset, width: t.length });
    pieces.push({ valueStart: at + r.at, docStart: r.offset });
    pos = r.at + r.length;
  }
  if (pos < t.value.length) pieces.push({ valueStart: at + pos, docStart: t.offset, width: t.length });
}

/**
 * The words joined with spaces (what `eval` runs): a word written as is maps to itself, one
 * assembled in a variable maps through its runs, any other to its reference in the document.
 */
export function joinedMap(tokens: Token[]): ScriptMap {
  const pieces: ScriptMap['pieces'] = [];
  let text = '';
  for (const t of tokens) {
    if (text) text += ' ';
    const at = text.length;
    if (t.raw === t.value && !t.from) pieces.push({ valueStart: at, docStart: t.offset });
    else if (t.runs?.length && !t.from) runsMap(t, at, pieces);
    else pieces.push({ valueStart: at, docStart: t.offset, width: t.length });
    text += t.value;
  }
  return { text, pieces };
}
