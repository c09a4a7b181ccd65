/**
 * Hostile YAML made harmless before the `yaml` package parses it. Its parser nests one generator
 * (and one stack frame) per level of structure: flow collections nested thousands deep
 * (`[[[[…]]]]`), a line of thousands of block indicators (`- - - - x`, `? ? ? x`, `k: k: k: x`) or
 * a node with thousands of anchors and tags overflow its stack, and each later token overflows it
 * again, so time grows with the square of the input (a 32 KB line of `[` took ~1 s, 128 KB ~3 s).
 * Real configs nest a few levels. The guard lexes the text once (the package's own lexer, linear)
 * and blanks each part nested past MAX_YAML_NESTING with spaces, newlines kept, so every offset
 * still points at the user's text; the caller says what was not read.
 */
import { CST, Lexer } from 'yaml';

/** Levels of flow nesting, block indicators on one line, or properties on one node that are read. */
export const MAX_YAML_NESTING = 64;

export interface YamlGuardResult {
  /** The text to parse: the input, or a copy of the same length with the over-deep parts blanked. */
  text: string;
  /** The blanked spans, in order ([start, end) offsets into the input). */
  blanked: { offset: number; length: number }[];
}

/** The lexer's markers that stand for no character of the text (a scalar's or a document's start, a flow's forced end). */
const MARKERS = new Set([CST.SCALAR, CST.DOCUMENT, CST.FLOW_END]);
const BLOCK_INDICATORS = new Set(['seq-item-ind', 'explicit-key-ind', 'map-value-ind']);
const PROPERTIES = new Set(['anchor', 'tag']);

/** Whether the text holds enough structure characters to nest past the cap at all (one cheap pass, no lexing). */
function mayNestDeep(text: string): boolean {
  let brackets = 0;
  let indicators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b /* [ */ || c === 0x7b /* { */) brackets++;
    // - ? : & ! each open a level or a property; only a run of them on one line can go deep.
    else if (c === 0x2d || c === 0x3f || c === 0x3a || c === 0x26 || c === 0x21) indicators++;
    else if (c === 0x0a) indicators = 0;
    if (brackets > MAX_YAML_NESTING || indicators > MAX_YAML_NESTING) return true;
  }
  return false;
}

/** The text with every part nested past MAX_YAML_NESTING blanked (see the module comment). */
export function guardYamlNesting(text: string): YamlGuardResult {
  if (!mayNestDeep(text)) return { text, blanked: [] };
  const spans: [number, number][] = [];
  let pos = 0;
  // Flow nesting: the outermost collection's start, the depth, and whether it went too deep.
  let flowDepth = 0;
  let flowStart = 0;
  let flowTooDeep = false;
  // Block indicators on the current line, and properties in a row, each with where their run started.
  let lineIndicators = 0;
  let lineStart = 0;
  let props = 0;
  let propsStart = 0;
  let cutLineFrom = -1;
  const endFlow = (end: number) => {
    if (flowTooDeep) spans.push([flowStart, end]);
    flowDepth = 0;
    flowTooDeep = false;
  };
  for (const tok of new Lexer().lex(text)) {
    const at = pos;
    if (!(MARKERS.has(tok) && !text.startsWith(tok, pos))) pos = Math.min(text.length, pos + tok.length);
    const type = CST.tokenType(tok);
    if (type === 'flow-error-end' || type === 'doc-mode' || type === 'doc-start' || type === 'doc-end') {
      if (flowDepth) endFlow(at);
      continue;
    }
    if (type !== 'newline' && tok.includes('\n')) {
      // A multi-line scalar (a block scalar's body, a quoted string): the lines it spans hold no indicators.
      if (cutLineFrom >= 0) spans.push([cutLineFrom, at + tok.indexOf('\n')]);
      cutLineFrom = -1;
      lineIndicators = 0;
      lineStart = at + tok.lastIndexOf('\n') + 1;
    }
    if (type === 'newline') {
      if (cutLineFrom >= 0) spans.push([cutLineFrom, at]);
      cutLineFrom = -1;
      lineIndicators = 0;
      lineStart = pos;
      continue;
    }
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      if (flowDepth === 0) flowStart = at;
      if (++flowDepth > MAX_YAML_NESTING) flowTooDeep = true;
    } else if ((type === 'flow-seq-end' || type === 'flow-map-end') && flowDepth > 0) {
      if (--flowDepth === 0) endFlow(pos);
    }
    if (PROPERTIES.has(type ?? '')) {
      if (props++ === 0) propsStart = at;
      if (props > MAX_YAML_NESTING && cutLineFrom < 0) cutLineFrom = propsStart;
    } else if (type !== 'space' && type !== 'comment') props = 0;
    if (flowDepth === 0 && BLOCK_INDICATORS.has(type ?? '') && ++lineIndicators > MAX_YAML_NESTING && cutLineFrom < 0) {
      // From the line's first indicator: its indentation stays, so the lines around keep their structure.
      const indent = /^[ \t]*/.exec(text.slice(lineStart, Math.min(text.length, lineStart + 4096)))?.[0].length ?? 0;
      cutLineFrom = lineStart + indent;
    }
  }
  if (flowDepth) endFlow(text.length);
  if (cutLineFrom >= 0) spans.push([cutLineFrom, text.length]);
  if (!spans.length) return { text, blanked: [] };
  return blank(text, spans);
}

/** Spaces over the spans (merged where they overlap), line breaks kept. */
function blank(text: string, spans: [number, number][]): YamlGuardResult {
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of spans) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  const parts: string[] = [];
  let prev = 0;
  for (const [s, e] of merged) {
    parts.push(text.slice(prev, s), text.slice(s, e).replace(/[^\r\n]/g, ' '));
    prev = e;
  }
  parts.push(text.slice(prev));
  return { text: parts.join(''), blanked: merged.map(([s, e]) => ({ offset: s, length: e - s })) };
}
