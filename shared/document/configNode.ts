/**
 * A format-neutral tree of a JSON or YAML document in which every value keeps its source span.
 * Readers of model and training configs work on this tree only, so one reader serves both formats.
 */
import { LineIndex, Range } from './positions';

export type NodeKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export interface ConfigNode {
  kind: NodeKind;
  /** Scalar value (undefined for objects and arrays). */
  value?: string | number | boolean | null;
  /** Source text of a scalar, e.g. `500_000` or `1e6`. */
  raw?: string;
  /** Span of the value in the document text. */
  offset: number;
  length: number;
  /** Set when the node is the value of an object property. */
  key?: string;
  keyOffset?: number;
  keyLength?: number;
  /** Array items, or the property values of an object (each with `key` set), in source order. */
  children?: ConfigNode[];
  parent?: ConfigNode;
}

export interface ParseProblem {
  message: string;
  offset: number;
  length: number;
}

export interface ParsedDocument {
  format: 'json' | 'yaml';
  text: string;
  lines: LineIndex;
  /** Undefined when nothing could be parsed (empty or hopeless text). */
  root: ConfigNode | undefined;
  problems: ParseProblem[];
}

/** The property `key` of an object node (last one wins, as in Python's json and PyYAML). */
export function child(node: ConfigNode | undefined, key: string): ConfigNode | undefined {
  if (!node || node.kind !== 'object' || !node.children) return undefined;
  const kids = node.children;
  if (kids.length <= SCAN_LIMIT) {
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i].key === key) return kids[i];
    return undefined;
  }
  // Wide objects (a config with 10,000 keys) get a key index, so lookups stay O(1). Parsers only
  // append children while building, so an index built at the current length is still valid.
  let index = keyIndexes.get(kids);
  if (!index || index.length !== kids.length) {
    const byKey = new Map<string, ConfigNode>();
    for (const c of kids) if (c.key !== undefined) byKey.set(c.key, c); // later duplicates win
    index = { length: kids.length, byKey };
    keyIndexes.set(kids, index);
  }
  return index.byKey.get(key);
}

const SCAN_LIMIT = 64;
const keyIndexes = new WeakMap<ConfigNode[], { length: number; byKey: Map<string, ConfigNode> }>();

/** Follows a path of keys and indices from `node`. */
export function nodeAt(node: ConfigNode | undefined, path: ReadonlyArray<string | number>): ConfigNode | undefined {
  let cur = node;
  for (const seg of path) {
    if (!cur) return undefined;
    if (typeof seg === 'number') cur = cur.kind === 'array' ? cur.children?.[seg] : undefined;
    else cur = child(cur, seg);
  }
  return cur;
}

/** The key/index path from the root to `node`. */
export function pathOf(node: ConfigNode): (string | number)[] {
  const path: (string | number)[] = [];
  let cur: ConfigNode | undefined = node;
  while (cur?.parent) {
    const p: ConfigNode = cur.parent;
    path.unshift(p.kind === 'array' ? p.children!.indexOf(cur) : cur.key!);
    cur = p;
  }
  return path;
}

/** Range of the value of `node`. */
export function valueRange(doc: ParsedDocument, node: ConfigNode): Range {
  return doc.lines.rangeOf(node.offset, node.length);
}

/** Range of the key of `node` when it is a property, else of its value. */
export function keyRange(doc: ParsedDocument, node: ConfigNode): Range {
  return node.keyOffset !== undefined ? doc.lines.rangeOf(node.keyOffset, node.keyLength ?? 0) : valueRange(doc, node);
}

/** A plain JS value of a node (objects become records); for small subtrees only. */
export function toPlain(node: ConfigNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const c of node.children ?? []) out[c.key!] = toPlain(c);
      return out;
    }
    case 'array':
      return (node.children ?? []).map(toPlain);
    default:
      return node.value;
  }
}
