/**
 * Keeps the shell parse within budget. tree-sitter-bash reads ~450 KB in 170–280 ms on a busy
 * 2-core machine and a 5 MB single line in ~3.7 s, so:
 *  - a line longer than MAX_LINE is read only up to MAX_LINE characters (cut at a blank);
 *  - a file larger than MAX_PARSE keeps only some logical lines (continuations and heredocs kept
 *    whole), by the first rule that fits: lines that mention a launch word, assign a variable or
 *    open/close a block; else launch lines and the assignments of variables they use; else launch
 *    lines alone; else the first launch lines that fit.
 * Dropped lines leave only their line break behind, so line numbers stay right and every offset
 * maps back exactly (ParseSource). Each cut is reported as a problem.
 */
import { mentionsLaunchWord } from '../sniff';
import type { LineMap } from '../text';
import { ParseSource } from './source';
import { enUS } from '../../core/format';

export const SHELL_LIMITS = { maxLine: 32_768, maxParse: 120_000 };

export interface Prepared {
  source: ParseSource;
  problems: { message: string; offset: number; length: number }[];
}

/** A logical line: physical lines joined by trailing backslashes, or a heredoc with its body. */
interface Group {
  start: number;
  /** End of the text kept (a too-long line is cut here). */
  end: number;
  /** End including the final line break. */
  next: number;
  lines: number;
  launch: boolean;
  shape: boolean;
  assigns?: string;
  uses: string[];
}

const ASSIGNS = /^\s*(?:(?:export|local|readonly|typeset|declare)(?:\s+-\w+)*\s+)?([A-Za-z_]\w*)(?:\[[^\]]*\])?\+?=/;
const SHAPES = /^\s*(?:[\w.:-]+\s*\(\)|function\s|[{}()]|if\b|then\b|elif\b|else\b|fi\b|for\b|while\b|until\b|do\b|done\b|case\b|esac\b|;;)/;
const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][\w.-]*)\1/;
const USES = /\$\{?([A-Za-z_]\w*)/g;

const fmt = (n: number) => enUS(n);

export function prepareShell(doc: LineMap, limits = SHELL_LIMITS): Prepared {
  const text = doc.text;
  const problems: Prepared['problems'] = [];
  if (text.length <= limits.maxParse && text.length <= limits.maxLine) return { source: ParseSource.whole(doc), problems };

  // Physical lines, long ones cut at a blank before the limit.
  const lines: { start: number; end: number; next: number }[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (;;) {
    const m = re.exec(text);
    const end = m ? m.index : text.length;
    let keepEnd = end;
    if (end - start > limits.maxLine) {
      const cut = Math.max(text.lastIndexOf(' ', start + limits.maxLine), text.lastIndexOf('\t', start + limits.maxLine));
      keepEnd = cut > start ? cut : start + limits.maxLine;
      problems.push({
        message: `only the first ${fmt(keepEnd - start)} of this line's ${fmt(end - start)} characters were read (a line longer than ${fmt(limits.maxLine)} is cut)`,
        offset: keepEnd,
        length: 0,
      });
    }
    lines.push({ start, end: keepEnd, next: m ? m.index + m[0].length : text.length });
    if (!m) break;
    start = m.index + m[0].length;
  }

  const groups: Group[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = i;
    // A cut line ends where it was cut: its backslash, if any, is not a continuation.
    const wasCut = (k: number) => lines[k].end !== lines[k].next && !/[\r\n]/.test(text[lines[k].end]);
    const first_ = text.slice(lines[i].start, lines[i].end);
    const hd = first_.includes('<<') ? HEREDOC.exec(first_) : null;
    while (i + 1 < lines.length && !wasCut(i) && text.charCodeAt(lines[i].end - 1) === 92 /* \ */) i++;
    if (hd) {
      while (i + 1 < lines.length && text.slice(lines[i + 1].start, lines[i + 1].end).trim() !== hd[2]) i++;
      if (i + 1 < lines.length) i++;
    }
    const s = i === first ? first_ : text.slice(lines[first].start, lines[i].end);
    const launch = mentionsLaunchWord(s);
    const assigns = ASSIGNS.exec(s)?.[1];
    groups.push({
      start: lines[first].start,
      end: lines[i].end,
      next: lines[i].next,
      lines: i - first + 1,
      launch,
      shape: !launch && SHAPES.test(s),
      assigns,
      // Only launch lines and assignments take part in the variable closure below.
      uses: (launch || assigns) && s.includes('$') ? [...s.matchAll(USES)].map((u) => u[1]) : [],
    });
  }

  const size = (gs: Group[]) => gs.reduce((n, g) => n + g.end - g.start, 0);
  let kept: Group[] = groups;
  let rule = '';
  if (text.length > limits.maxParse || size(groups) > limits.maxParse) {
    const broad = groups.filter((g) => g.launch || g.assigns !== undefined || g.shape);
    const launchOnly = groups.filter((g) => g.launch);
    // Variables the launch lines read, and the variables those assignments read in turn.
    const needed = new Set(launchOnly.flatMap((g) => g.uses));
    for (let round = 0; round < 3; round++) for (const g of groups) if (g.assigns && needed.has(g.assigns)) g.uses.forEach((u) => needed.add(u));
    const withVars = groups.filter((g) => g.launch || (g.assigns !== undefined && needed.has(g.assigns)));
    const choices: [Group[], string][] = [
      [broad, 'lines that mention a launch program, assign a variable or open or close a block'],
      [withVars, 'lines that mention a launch program and the assignments of the variables they use'],
      [launchOnly, 'lines that mention a launch program'],
    ];
    const fit = choices.find(([gs]) => size(gs) <= limits.maxParse);
    if (fit) [kept, rule] = fit;
    else {
      let acc = 0;
      kept = launchOnly.filter((g) => (acc += g.end - g.start) <= limits.maxParse);
      rule = `the first ${fmt(kept.length)} lines that mention a launch program`;
    }
    const keptSet = new Set(kept);
    const dropped = groups.filter((g) => !keptSet.has(g) && g.end > g.start && text.slice(g.start, g.end).trim()).reduce((n, g) => n + g.lines, 0);
    if (dropped)
      problems.push({
        message: `${fmt(dropped)} of ${fmt(lines.length)} lines were not parsed (the file is over ${fmt(limits.maxParse)} characters): only ${rule} were read`,
        offset: 0,
        length: 0,
      });
  }

  // Kept groups keep their text and line break; every other line keeps only its line break.
  const spans: { offset: number; length: number }[] = [];
  let k = 0;
  for (let i = 0; i < lines.length; i++) {
    const g = kept[k];
    if (g && lines[i].start === g.start) {
      if (g.end > g.start) spans.push({ offset: g.start, length: g.end - g.start });
      if (g.next > g.end) spans.push(lineBreakOf(text, g.end, g.next));
      i += g.lines - 1;
      k++;
    } else if (lines[i].next > lines[i].end) {
      spans.push(lineBreakOf(text, lines[i].end, lines[i].next));
    }
  }
  return { source: ParseSource.pieces(doc, spans), problems };
}

/** The line break after a (possibly cut) line: the cut remainder is dropped, the break kept. */
function lineBreakOf(text: string, end: number, next: number): { offset: number; length: number } {
  let b = next;
  while (b > end && (text.charCodeAt(b - 1) === 10 || text.charCodeAt(b - 1) === 13)) b--;
  return { offset: b, length: next - b };
}
