/**
 * YAML scalars as tokens with exact spans, and the way from a scalar's value back to its source
 * (for a `sh -c` script or a compose command string read out of a scalar): plain and simply
 * quoted scalars map as one piece, literal and folded blocks line by line.
 */
import { Scalar, isAlias, isMap, isScalar, isSeq, parseAllDocuments, visit, type Document, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import { mentionsLaunchWord } from './sniff';
import { LineMap, makeToken } from './text';
import type { Invocation, QuoteStyle, Token } from './types';
import { enUS } from '../core/format';
import { trimTrailing } from '../core/text';
import { duplicateKeyErrors } from '../document/yamlDuplicateKeys';
import { guardYamlNesting, MAX_YAML_NESTING } from '../document/yamlGuard';

export function quoteOfScalar(s: Scalar): QuoteStyle {
  return s.type === Scalar.QUOTE_DOUBLE ? 'double' : s.type === Scalar.QUOTE_SINGLE ? 'single' : 'none';
}

/** The scalar's text as a string (numbers and booleans as written). */
export function scalarText(doc: LineMap, s: Scalar): string {
  if (typeof s.value === 'string') return s.value;
  if (s.value === null || s.value === undefined) return '';
  const r = s.range;
  return r && s.type === Scalar.PLAIN ? doc.text.slice(r[0], r[1]) : String(s.value);
}

export function scalarToken(doc: LineMap, s: Scalar, value = scalarText(doc, s), known = true): Token | undefined {
  const r = s.range;
  if (!r) return undefined;
  return makeToken(doc, { offset: r[0], length: r[1] - r[0], value, quote: quoteOfScalar(s), known });
}

/** Pieces mapping indices of the scalar's value to document offsets: [valueIndex, docOffset]. */
export type ValueMap = { valueStart: number; docStart: number }[];

/** How the scalar's value lines up with its source, or undefined when escapes or folding make it ambiguous. */
export function valueMap(doc: LineMap, s: Scalar): ValueMap | undefined {
  const r = s.range;
  const value = typeof s.value === 'string' ? s.value : undefined;
  if (!r || value === undefined) return undefined;
  const src = doc.text.slice(r[0], r[1]);
  switch (s.type) {
    case Scalar.PLAIN:
      if (/[\r\n]/.test(src)) return foldedFlowMap(src, r[0], value);
      return src === value ? [{ valueStart: 0, docStart: r[0] }] : undefined;
    case Scalar.QUOTE_DOUBLE:
    case Scalar.QUOTE_SINGLE:
      if (/[\r\n]/.test(src)) return foldedFlowMap(src.slice(1, -1), r[0] + 1, value);
      return src.slice(1, -1) === value ? [{ valueStart: 0, docStart: r[0] + 1 }] : undefined;
    case Scalar.BLOCK_LITERAL:
    case Scalar.BLOCK_FOLDED: {
      // Header line (`|`, `>-`…), then content lines at one indentation.
      const lines: { start: number; text: string }[] = [];
      const re = /[^\r\n]*(?:\r\n|\n|\r|$)/g;
      let m: RegExpExecArray | null;
      let first = true;
      while ((m = re.exec(src)) && m[0].length) {
        if (!first) lines.push({ start: r[0] + m.index, text: m[0].replace(/\r?\n$|\r$/, '') });
        first = false;
      }
      const indent = Math.min(...lines.filter((l) => l.text.trim()).map((l) => /^ */.exec(l.text)![0].length));
      if (!Number.isFinite(indent)) return undefined;
      const joiner = s.type === Scalar.BLOCK_LITERAL ? '\n' : ' ';
      const map: ValueMap = [];
      let rebuilt = '';
      for (const l of lines) {
        if (!l.text.trim()) {
          if (s.type === Scalar.BLOCK_FOLDED) return undefined;
        }
        if (rebuilt) rebuilt += joiner;
        map.push({ valueStart: rebuilt.length, docStart: l.start + Math.min(indent, l.text.length) });
        rebuilt += l.text.slice(indent);
      }
      const trimmedValue = trimTrailing(value, '\n');
      return trimTrailing(rebuilt, '\n') === trimmedValue || rebuilt.trimEnd() === trimmedValue ? map : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A flow scalar (plain or quoted) written over several lines: YAML folds each line break, with the
 * blanks around it, into one space, so each line's text maps as one piece. An empty line (a kept
 * newline), an escape or a doubled quote makes the value differ from the rebuilt text: undefined.
 */
function foldedFlowMap(body: string, start: number, value: string): ValueMap | undefined {
  const map: ValueMap = [];
  let rebuilt = '';
  const re = /[^\r\n]*(?:\r\n|\n|\r|$)/g;
  const lines: { at: number; text: string }[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) && m[0].length) lines.push({ at: m.index, text: m[0].replace(/\r?\n$|\r$/, '') });
  for (let i = 0; i < lines.length; i++) {
    const { at, text } = lines[i];
    const lead = i === 0 ? 0 : /^[ \t]*/.exec(text)![0].length;
    const content = i === lines.length - 1 ? text.slice(lead) : trimTrailing(text.slice(lead), ' \t');
    if (!content && i > 0 && i < lines.length - 1) return undefined;
    if (i > 0) rebuilt += ' ';
    map.push({ valueStart: rebuilt.length, docStart: start + at + lead });
    rebuilt += content;
  }
  return rebuilt === value ? map : undefined;
}

/** Document offset of a value index through a ValueMap. */
export function docOffset(map: ValueMap, i: number): number {
  let k = 0;
  while (k + 1 < map.length && map[k + 1].valueStart <= i) k++;
  return map[k].docStart + (i - map[k].valueStart);
}

/** The map of a substring [from, from + length) of the value, re-based at 0. */
export function subMap(map: ValueMap, from: number, length: number): ValueMap {
  const out: ValueMap = [{ valueStart: 0, docStart: docOffset(map, from) }];
  for (const p of map) if (p.valueStart > from && p.valueStart < from + length) out.push({ valueStart: p.valueStart - from, docStart: p.docStart });
  return out;
}

/** How deep `<<: *a` chains are followed (an anchor that merges another that merges …). */
const MAX_MERGE_DEPTH = 8;

/**
 * A map's pairs with YAML merge keys applied (`<<: *common`, `<<: [*a, *b]`), as compose and
 * Kubernetes tools read them: the map's own keys win, then the merged maps in order. The merged
 * pairs keep their nodes, so their values point at the anchor where they are written.
 */
export function mergedPairs(map: YAMLMap, doc: Document | undefined, depth = 0): Pair[] {
  const own: Pair[] = [];
  const merged: Pair[] = [];
  for (const p of map.items) {
    if (isScalar(p.key) && p.key.value === '<<') {
      if (!doc || depth >= MAX_MERGE_DEPTH) continue;
      const sources = isSeq(p.value) ? p.value.items : [p.value];
      for (const s of sources) {
        const m = isAlias(s) ? s.resolve(doc) : s;
        if (isMap(m)) merged.push(...mergedPairs(m, doc, depth + 1));
      }
    } else own.push(p);
  }
  if (!merged.length) return own;
  const keyOf = (p: Pair) => (isScalar(p.key) ? String(p.key.value) : undefined);
  const seen = new Set(own.map(keyOf));
  const out = [...own];
  for (const p of merged) {
    const k = keyOf(p);
    if (k !== undefined && seen.has(k)) continue;
    seen.add(k);
    out.push(p);
  }
  return out;
}

/** `map[key]` with merge keys applied and an alias value (`image: *img`) resolved to its anchor. */
export function mergedGet(map: unknown, key: string, doc: Document | undefined): YamlNode | undefined {
  if (!isMap(map)) return undefined;
  const v = mergedPairs(map, doc).find((p) => isScalar(p.key) && p.key.value === key)?.value as YamlNode | undefined;
  return isAlias(v) && doc ? (v.resolve(doc) as YamlNode | undefined) : (v ?? undefined);
}

/** Whether a key comes to the map through a merge key rather than being written in it. */
export function isMerged(map: YAMLMap, key: string): boolean {
  return !map.items.some((p) => isScalar(p.key) && p.key.value === key);
}

export const asScalar = (n: unknown): Scalar | undefined => (isScalar(n) ? n : undefined);
export const seqItems = (n: unknown): YamlNode[] => (isSeq(n) ? (n.items as YamlNode[]) : []);

/** Where a new item goes in a YAML list, keeping its style (block `- x` lines or a flow `[a, b]`). */
export function listAppend(node: YamlNode, doc: LineMap, tokens: Token[]): Invocation['append'] {
  const last = tokens[tokens.length - 1];
  if (!last || !isSeq(node)) return undefined;
  const offset = last.offset + last.length;
  if (node.flow) return { offset, range: doc.range(offset, 0), separator: ', ', form: 'yaml-list' };
  // Block list: a new `- ` line at the last item's indentation.
  const lineStart = doc.text.lastIndexOf('\n', last.offset - 1) + 1;
  const prefix = /^[ \t]*-[ \t]*/.exec(doc.text.slice(lineStart, last.offset))?.[0];
  if (prefix === undefined) return undefined;
  const eol = doc.text.includes('\r\n') ? '\r\n' : '\n';
  return { offset, range: doc.range(offset, 0), separator: eol + prefix, form: 'yaml-list' };
}

/** The yaml package needs ~0.8 µs a character (and far more on runs of blank lines): past these sizes it reads less. */
export const YAML_LIMITS = { maxParse: 128 * 1024 };

export interface YamlDocs {
  docs: Document.Parsed[];
  problems: { message: string; offset: number; length: number; partial?: boolean }[];
}

/**
 * The file's YAML documents with every node range in file offsets. A file over maxParse is cut at
 * its `---` lines and only the documents that mention a launch word (and fit) are parsed, each
 * shifted back to where it sits in the file.
 */
export function parseYamlDocs(input: string, limits = YAML_LIMITS): YamlDocs {
  const problems: YamlDocs['problems'] = [];
  // Parts nested past what the yaml package parses in linear time are blanked (same offsets) and said.
  const guarded = guardYamlNesting(input);
  const text = guarded.text;
  const deep = guarded.blanked[0];
  if (deep) {
    const eol = input.indexOf('\n', deep.offset);
    problems.push({
      message: `YAML nested more than ${MAX_YAML_NESTING} levels deep (${guarded.blanked.length === 1 ? 'one place' : `${enUS(guarded.blanked.length)} places`}): that part was not read`,
      offset: deep.offset,
      length: Math.min(deep.length, eol < 0 ? input.length - deep.offset : eol - deep.offset),
      partial: true,
    });
  }
  // Duplicate keys are found in one pass (duplicateKeyErrors): the package's own check compares each key with every other.
  const parse = (t: string) => parseAllDocuments(t, { uniqueKeys: false, prettyErrors: false }) as Document.Parsed[];
  const collect = (docs: Document.Parsed[]) => {
    for (const d of docs) {
      const errors = d.errors.map((e) => ({ message: e.message, offset: e.pos[0], length: e.pos[1] - e.pos[0] }));
      for (const e of [...errors, ...duplicateKeyErrors(d)].slice(0, 3)) problems.push({ ...e, message: `YAML: ${e.message.split('\n')[0]}` });
    }
    return docs;
  };
  if (text.length <= limits.maxParse) return { docs: collect(parse(text)), problems };
  const starts = [0, ...[...text.matchAll(/^---[ \t]*(?:#.*)?$/gm)].map((m) => m.index!)].filter((v, i, a) => i === 0 || v > a[i - 1]);
  const docs: Document.Parsed[] = [];
  let skipped = 0;
  for (let i = 0; i < starts.length; i++) {
    const base = starts[i];
    const chunk = text.slice(base, starts[i + 1] ?? text.length);
    if (!mentionsLaunchWord(chunk)) continue;
    if (chunk.length > limits.maxParse) {
      skipped++;
      continue;
    }
    for (const d of parse(chunk)) {
      visit(d, (_key, node) => {
        const n = node as { range?: [number, number, number] };
        if (n && n.range) n.range = [n.range[0] + base, n.range[1] + base, n.range[2] + base];
      });
      for (const e of d.errors) e.pos = [e.pos[0] + base, e.pos[1] + base];
      docs.push(d);
    }
  }
  collect(docs);
  problems.push({
    message: `the file is over ${enUS(limits.maxParse)} characters: only its documents that mention a launch program were read${skipped ? ` (${skipped} too large to read at all)` : ''}`,
    offset: 0,
    length: 0,
    partial: true,
  });
  return { docs, problems };
}
