/**
 * Ollama Modelfiles: `FROM`, `PARAMETER name value` and the instructions whose values are skipped
 * (TEMPLATE, SYSTEM, MESSAGE… with `"…"` and `"""…"""` strings that may span lines).
 *
 * Grammar as Ollama's own reader has it (ollama/ollama parser/parser.go, ParseFile and
 * parseRuneForState): instruction names are letters, matched case-insensitively against
 * from/license/template/system/adapter/draft/renderer/parser/parameter/message/requires; a `#`
 * where an instruction could start comments out the rest of the line; a value runs to the end of
 * its line, and past it only while a `"` or `"""` string is still open; a PARAMETER name is
 * letters, digits and `_`; spaces inside a value belong to it; for a repeated parameter the last
 * one counts (except list parameters such as `stop`, which accumulate).
 */
import { LineMap, makeToken } from './text';
import type { LaunchFile, ModelfileLaunch, Token } from './types';
import { enUS } from '../core/format';

const INSTRUCTIONS = new Set(['from', 'license', 'template', 'system', 'adapter', 'draft', 'renderer', 'parser', 'parameter', 'message', 'requires']);

interface Instruction {
  name: string;
  nameAt: number;
  arg?: { text: string; at: number };
  value: { offset: number; end: number };
}

/** Ollama's unquote: `"""…"""` or `"…"` must be closed; anything else is taken as is. */
function unquote(s: string): { value: string; ok: boolean; quote: Token['quote'] } {
  if (s.startsWith('"""'))
    return s.length >= 6 && s.endsWith('"""') ? { value: s.slice(3, -3), ok: true, quote: 'double' } : { value: '', ok: false, quote: 'double' };
  if (s.startsWith('"'))
    return s.length >= 2 && s.endsWith('"') ? { value: s.slice(1, -1), ok: true, quote: 'double' } : { value: '', ok: false, quote: 'double' };
  return { value: s, ok: true, quote: 'none' };
}

/** Splits the text into instructions, following Ollama's states (name → [parameter/role] → value). */
function instructions(text: string, problems: { message: string; offset: number }[]): Instruction[] {
  const out: Instruction[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  const isSpace = (c: string) => c === ' ' || c === '\t';
  const isNl = (c: string) => c === '\n' || c === '\r';
  while (i < n) {
    const c = text[i];
    if (isSpace(c) || isNl(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && !isNl(text[i])) i++;
      continue;
    }
    const nameAt = i;
    while (i < n && /[A-Za-z]/.test(text[i])) i++;
    const name = text.slice(nameAt, i).toLowerCase();
    if (i >= n || !isSpace(text[i]) || !INSTRUCTIONS.has(name)) {
      problems.push({ message: `Ollama refuses this line: an instruction must be one of ${[...INSTRUCTIONS].join(', ')}`, offset: nameAt });
      while (i < n && !isNl(text[i])) i++;
      continue;
    }
    while (i < n && isSpace(text[i])) i++;
    let arg: Instruction['arg'];
    if (name === 'parameter' || name === 'message') {
      const at = i;
      while (i < n && (name === 'parameter' ? /\w/.test(text[i]) : /[A-Za-z]/.test(text[i]))) i++;
      arg = { text: text.slice(at, i), at };
      while (i < n && isSpace(text[i])) i++;
    }
    // The value ends at a line break where what was read so far is a complete (closed) value.
    const start = i;
    for (;;) {
      while (i < n && !isNl(text[i])) i++;
      const raw = text.slice(start, i).trim();
      if (unquote(raw).ok || i >= n) break;
      i++;
    }
    let end = i;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (!unquote(text.slice(start, end)).ok) problems.push({ message: 'an unterminated string: Ollama stops reading the Modelfile here', offset: start });
    out.push({ name, nameAt, arg, value: { offset: start, end } });
  }
  return out;
}

/** The Modelfile's model and parameters, with spans. */
/** Past this size only the beginning is read (Modelfiles are a few KB; this keeps a huge one cheap). */
export const MODELFILE_LIMITS = { maxParse: 256 * 1024 };

export function readModelfile(text: string, limits = MODELFILE_LIMITS): LaunchFile {
  const doc = new LineMap(text);
  const raw: { message: string; offset: number }[] = [];
  const list = instructions(text.length > limits.maxParse ? text.slice(0, limits.maxParse) : text, raw);
  const problems: LaunchFile['problems'] = raw.map((p) => ({ message: p.message, range: doc.range(p.offset, 0) }));
  if (text.length > limits.maxParse)
    problems.push({
      message: `only the first ${enUS(limits.maxParse)} characters were read`,
      range: doc.range(limits.maxParse, 0),
      partial: true,
    });
  const valueToken = (v: Instruction['value']) => {
    const u = unquote(text.slice(v.offset, v.end));
    return makeToken(doc, { offset: v.offset, length: v.end - v.offset, value: u.value, quote: u.quote, known: u.ok });
  };
  const launch: ModelfileLaunch = { source: 'modelfile', parameters: {}, range: doc.range(0, text.length) };
  let lastParamEnd: number | undefined;
  let fromEnd: number | undefined;
  for (const ins of list) {
    if (ins.name === 'from') {
      launch.from = valueToken(ins.value);
      fromEnd = ins.value.end;
    } else if (ins.name === 'parameter' && ins.arg) {
      const name = makeToken(doc, { offset: ins.arg.at, length: ins.arg.text.length, value: ins.arg.text, quote: 'none' });
      launch.parameters[ins.arg.text] = { name, value: valueToken(ins.value) };
      lastParamEnd = ins.value.end;
    }
  }
  if (list.length) {
    const first = list[0].nameAt;
    const last = list[list.length - 1].value.end;
    launch.range = doc.range(first, last - first);
  }
  const after = lastParamEnd ?? fromEnd;
  if (after !== undefined) {
    // A new PARAMETER line goes at the end of the line after which it belongs.
    launch.appendAt = { offset: after, range: doc.range(after, 0) };
  }
  if (!launch.from) problems.push({ message: 'no FROM line: Ollama refuses a Modelfile without one', range: doc.range(0, 0) });
  return { format: 'modelfile', invocations: [], modelfile: launch, problems };
}
