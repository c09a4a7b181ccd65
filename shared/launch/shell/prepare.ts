/**
 * Keeps the shell parse within budget. tree-sitter-bash reads ~450 KB in 170–280 ms on a busy
 * 2-core machine and a 5 MB single line in ~3.7 s, so: a line longer than MAX_LINE is never
 * parsed, and a file larger than MAX_PARSE keeps only the logical lines (continuations joined)
 * that mention a launch word, assign a variable or shape a block; dropped lines leave only
 * their line break behind, so line numbers stay right and offsets map back exactly.
 */
import { LAUNCH_WORD_RE } from '../sniff';
import type { LineMap } from '../text';
import { ParseSource } from './source';

export const SHELL_LIMITS = { maxLine: 32_768, maxParse: 120_000 };

export interface Prepared {
  source: ParseSource;
  problems: { message: string; offset: number; length: number }[];
}

interface Line { start: number; end: number; /** end including the line break */ next: number }

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({ start, end: m.index, next: m.index + m[0].length });
    start = m.index + m[0].length;
  }
  out.push({ start, end: text.length, next: text.length });
  return out;
}

const ASSIGNS = /^\s*(?:(?:export|local|readonly|typeset|declare)(?:\s+-\w+)*\s+)?[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=/;
const SHAPES = /^\s*(?:[\w.:-]+\s*\(\)|function\s|[{}()]|if\b|then\b|elif\b|else\b|fi\b|for\b|while\b|until\b|do\b|done\b|case\b|esac\b|;;|[\w*|"'-]+\))/;
const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][\w.-]*)\1/;

const fmt = (n: number) => n.toLocaleString('en-US');

export function prepareShell(doc: LineMap, limits = SHELL_LIMITS): Prepared {
  const text = doc.text;
  const problems: Prepared['problems'] = [];
  const tooLong = (l: Line) => l.end - l.start > limits.maxLine;
  if (text.length <= limits.maxParse && text.length <= limits.maxLine) return { source: ParseSource.whole(doc), problems };

  const lines = linesOf(text);
  // Logical lines: a trailing backslash continues onto the next line; a heredoc runs to its terminator.
  const groups: { first: number; last: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = i;
    const body = () => text.slice(lines[i].start, lines[i].end);
    const hd = tooLong(lines[i]) ? null : HEREDOC.exec(body());
    while (i + 1 < lines.length && /\\$/.test(body()) && !tooLong(lines[i])) i++;
    if (hd) {
      const term = hd[2];
      while (i + 1 < lines.length && text.slice(lines[i + 1].start, lines[i + 1].end).trim() !== term) i++;
      if (i + 1 < lines.length) i++;
    }
    groups.push({ first, last: i });
  }

  const keepLevels = [
    (s: string) => LAUNCH_WORD_RE.test(s) || ASSIGNS.test(s) || SHAPES.test(s),
    (s: string) => LAUNCH_WORD_RE.test(s),
  ];
  const whole = text.length <= limits.maxParse;
  let kept: { first: number; last: number }[] = [];
  let longDropped = 0;
  for (const [level, keep] of keepLevels.entries()) {
    kept = [];
    longDropped = 0;
    let size = 0;
    for (const g of groups) {
      const span = lines.slice(g.first, g.last + 1);
      if (span.some(tooLong)) { longDropped++; continue; }
      const s = text.slice(lines[g.first].start, lines[g.last].end);
      if (whole || keep(s)) { kept.push(g); size += s.length; }
    }
    if (whole || size <= limits.maxParse || level === keepLevels.length - 1) {
      // Still too large at the strictest level: keep the first launch lines that fit.
      if (size > limits.maxParse) {
        let acc = 0;
        kept = kept.filter((g) => (acc += lines[g.last].end - lines[g.first].start) <= limits.maxParse);
        problems.push({ message: `only the first ${fmt(limits.maxParse)} characters of launch lines were read: the file is too large to parse whole`, offset: lines[kept.length ? kept[kept.length - 1].last : 0].end, length: 0 });
      }
      break;
    }
  }

  for (const l of lines) {
    if (tooLong(l)) problems.push({ message: `a line of ${fmt(l.end - l.start)} characters was not read (longer than ${fmt(limits.maxLine)})`, offset: l.start, length: Math.min(l.end - l.start, 200) });
  }
  const keptLines = kept.reduce((n, g) => n + g.last - g.first + 1, 0);
  const dropped = lines.length - keptLines;
  if (!whole && dropped > longDropped) {
    problems.push({
      message: `${fmt(dropped)} of ${fmt(lines.length)} lines were not parsed (the file is over ${fmt(limits.maxParse)} characters): only lines that mention a launch program, assign a variable or open or close a block were read`,
      offset: 0, length: 0,
    });
  }
  // Each kept group keeps its own line break; dropped lines become bare line breaks.
  const spans: { offset: number; length: number }[] = [];
  let k = 0;
  for (let i = 0; i < lines.length; i++) {
    const g = kept[k];
    if (g && i === g.first) {
      spans.push({ offset: lines[g.first].start, length: lines[g.last].next - lines[g.first].start });
      i = g.last;
      k++;
    } else {
      spans.push({ offset: lines[i].end, length: lines[i].next - lines[i].end });
    }
  }
  return { source: ParseSource.pieces(doc, spans.filter((s) => s.length > 0)), problems };
}
