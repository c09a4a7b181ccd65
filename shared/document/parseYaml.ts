/**
 * YAML text → ConfigNode tree with the `yaml` package. Scalars are resolved with the YAML 1.1
 * schema, as PyYAML (used by axolotl, LLaMA-Factory, torchtune…) reads them: `500_000` is an int.
 * Aliases are followed by reference; a node budget stops alias bombs instead of expanding them.
 */
import { parseDocument, isMap, isSeq, isScalar, isAlias, isPair, Node as YNode, Document, LineCounter } from 'yaml';
import { ConfigNode, ParsedDocument, ParseProblem } from './configNode';
import { LineIndex } from './positions';
import { guardYamlNesting, MAX_YAML_NESTING } from './yamlGuard';

/** Upper bound on converted nodes; far above any real config, far below an alias bomb. */
const NODE_BUDGET = 200_000;

export function parseYamlDocument(text: string): ParsedDocument {
  const lines = new LineIndex(text);
  const problems: ParseProblem[] = [];
  let doc: Document.Parsed;
  // Parts nested past what the yaml package parses in linear time are blanked (offsets kept) and said.
  const guarded = guardYamlNesting(text);
  const deep = guarded.blanked[0];
  if (deep) problems.push({ message: `YAML: nested more than ${MAX_YAML_NESTING} levels deep; that part was not read`, offset: deep.offset, length: 1 });
  try {
    doc = parseDocument(guarded.text, { version: '1.1', uniqueKeys: false, strict: false, prettyErrors: false, lineCounter: new LineCounter() });
  } catch (e) {
    return { format: 'yaml', text, lines, root: undefined, problems: [{ message: `YAML: ${(e as Error).message}`, offset: 0, length: 0 }] };
  }
  for (const e of doc.errors) {
    problems.push({ message: `YAML: ${e.message.split('\n')[0]}`, offset: e.pos[0], length: Math.max(0, e.pos[1] - e.pos[0]) });
  }
  const budget = { left: NODE_BUDGET };
  let root: ConfigNode | undefined;
  if (doc.contents && expandedSize(doc, doc.contents as YNode, new Map(), 0) > NODE_BUDGET) {
    problems.push({ message: 'YAML: aliases expand to more than 200,000 nodes (an alias bomb?); not analysed', offset: 0, length: 0 });
    return { format: 'yaml', text, lines, root: undefined, problems };
  }
  try {
    root = doc.contents ? convert(doc, doc.contents as YNode, undefined, budget, 0) : undefined;
  } catch (e) {
    if (!(e instanceof BudgetExceeded)) throw e;
    problems.push({ message: 'YAML: document expands to too many nodes (alias bomb?); not analysed', offset: 0, length: 0 });
    root = undefined;
  }
  return { format: 'yaml', text, lines, root, problems };
}

class BudgetExceeded extends Error {}

/** Node count after alias expansion, memoised per node so a bomb costs O(source nodes). */
function expandedSize(doc: Document.Parsed, n: YNode | null | undefined, memo: Map<unknown, number>, depth: number): number {
  if (!n || depth > 500) return 1;
  const known = memo.get(n);
  if (known !== undefined) return known;
  memo.set(n, 1); // cycle guard
  let size = 1;
  if (isAlias(n)) size += expandedSize(doc, n.resolve(doc) as YNode | undefined, memo, depth + 1);
  else if (isMap(n)) for (const it of n.items) size += expandedSize(doc, (it as { value?: YNode }).value, memo, depth + 1);
  else if (isSeq(n)) for (const it of n.items) size += expandedSize(doc, it as YNode, memo, depth + 1);
  size = Math.min(size, Number.MAX_SAFE_INTEGER);
  memo.set(n, size);
  return size;
}

function convert(doc: Document.Parsed, n: YNode, parent: ConfigNode | undefined, budget: { left: number }, depth: number): ConfigNode {
  if (--budget.left < 0 || depth > 500) throw new BudgetExceeded();
  if (isAlias(n)) {
    const target = n.resolve(doc);
    const resolved = target ? convert(doc, target as YNode, parent, budget, depth + 1) : nullAt(n, parent);
    // Report the alias' own position: that is where the value is written in this place.
    const [s, e] = n.range ?? [resolved.offset, resolved.offset + resolved.length];
    return { ...resolved, offset: s, length: e - s };
  }
  const [start, valueEnd] = n.range ?? [0, 0, 0];
  const node: ConfigNode = { kind: 'null', offset: start, length: Math.max(0, valueEnd - start), parent };
  if (isMap(n)) {
    node.kind = 'object';
    node.children = [];
    for (const item of n.items) {
      if (!isPair(item)) continue;
      const k = item.key as YNode | null;
      const isMerge = !!k && isScalar(k) && (typeof k.value === 'symbol' || k.value === '<<');
      const keyText = k && isScalar(k) ? String(k.value) : k ? String(k) : '';
      if (isMerge && item.value) {
        // Merge key: splice the merged mapping's properties in before the local ones.
        const merged = convert(doc, item.value as YNode, node, budget, depth + 1);
        for (const c of merged.children ?? []) if (c.key !== undefined) node.children.push({ ...c, parent: node });
        continue;
      }
      const v = item.value as YNode | null;
      const child = v ? convert(doc, v, node, budget, depth + 1) : nullAfterKey(k, node);
      child.key = keyText;
      if (k?.range) {
        child.keyOffset = k.range[0];
        child.keyLength = k.range[1] - k.range[0];
      }
      node.children.push(child);
    }
  } else if (isSeq(n)) {
    node.kind = 'array';
    node.children = n.items.map((it) => (it ? convert(doc, it as YNode, node, budget, depth + 1) : nullAt(undefined, node)));
  } else if (isScalar(n)) {
    const v = n.value;
    node.raw = n.source ?? undefined;
    if (typeof v === 'number') {
      node.kind = 'number';
      node.value = v;
    } else if (typeof v === 'bigint') {
      node.kind = 'number';
      node.value = Number(v);
    } else if (typeof v === 'boolean') {
      node.kind = 'boolean';
      node.value = v;
    } else if (v === null || v === undefined) {
      node.kind = 'null';
      node.value = null;
    } else {
      node.kind = 'string';
      node.value = String(v);
    }
  }
  return node;
}

function nullAt(n: YNode | undefined, parent: ConfigNode | undefined): ConfigNode {
  const [s, e] = n?.range ?? [0, 0];
  return { kind: 'null', value: null, offset: s, length: e - s, parent };
}

function nullAfterKey(k: YNode | null, parent: ConfigNode): ConfigNode {
  const end = k?.range?.[1] ?? parent.offset;
  return { kind: 'null', value: null, offset: end, length: 0, parent };
}
