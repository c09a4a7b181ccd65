/**
 * JSON (and JSONC) text → ConfigNode tree, via jsonc-parser's tolerant parser. Python's json module
 * (hence transformers) also reads the bare constants NaN, Infinity and -Infinity; so do we.
 */
import { parseTree, Node as JsonNode, ParseError, printParseErrorCode } from 'jsonc-parser';
import { ConfigNode, ParsedDocument, ParseProblem } from './configNode';
import { LineIndex } from './positions';
import { withoutLongNumberArrays } from './longArrays';
import { skipStringOrComment } from './jsonScan';

/** Deeper than Python's json goes (it stops near 1,000 levels) and well within our recursion's reach. */
const MAX_JSON_DEPTH = 2000;

/** The offset of the bracket that opens level `max + 1` (outside strings and comments), if any: one pass, no recursion. */
function nestingPast(text: string, max: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x2f) {
      i = skipStringOrComment(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

export function parseJsonDocument(text: string): ParsedDocument {
  // The tree is built by recursion (jsonc-parser's and ours): nesting deeper than any config is not parsed.
  const deep = nestingPast(text, MAX_JSON_DEPTH);
  if (deep !== undefined)
    return {
      format: 'json',
      text,
      lines: new LineIndex(text),
      root: undefined,
      problems: [{ message: `JSON: nested more than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels deep; not analysed`, offset: deep, length: 1 }],
    };
  const errors: ParseError[] = [];
  // Strip a UTF-8 BOM from parsing but keep offsets aligned with the original text.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // A 20 MB table of numbers costs a node per number: its tail is left out, offsets mapped back (longArrays.ts).
  const long = withoutLongNumberArrays(text);
  const { body, constants } = maskPythonConstants(bom ? ' ' + long.short.slice(1) : long.short);
  const tree = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  const problems: ParseProblem[] = errors.map((e) => {
    const offset = long.startAt(e.offset);
    return { message: `JSON: ${printParseErrorCode(e.error)}`, offset, length: long.endAt(e.offset + e.length) - offset };
  });
  const root = tree ? convert(tree, undefined) : undefined;
  if (root && constants.size) restoreConstants(root, constants);
  if (root && long.short !== text) mapOffsets(root, long);
  return { format: 'json', text, lines: new LineIndex(text), root, problems };
}

const PY_CONSTANTS: Record<string, { mask: string; value: number }> = {
  NaN: { mask: '1e0', value: NaN },
  Infinity: { mask: '1e000000', value: Infinity },
};

/**
 * Replaces NaN/Infinity outside strings and comments by numbers of the same length (offsets stay
 * exact) and remembers where they were, so the parser sees valid JSON.
 */
function maskPythonConstants(text: string): { body: string; constants: Map<number, number> } {
  const constants = new Map<number, number>();
  if (!/NaN|Infinity/.test(text)) return { body: text, constants };
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 'N' || c === 'I') {
      const word = c === 'N' ? 'NaN' : 'Infinity';
      const after = text[i + word.length];
      if (text.startsWith(word, i) && !/[A-Za-z0-9_]/.test(text[i - 1] ?? '') && !/[A-Za-z0-9_]/.test(after ?? '')) {
        out += text.slice(last, i) + PY_CONSTANTS[word].mask;
        last = i + word.length;
        constants.set(i, PY_CONSTANTS[word].value);
        i += word.length - 1;
      }
    }
  }
  return { body: out + text.slice(last), constants };
}

function restoreConstants(node: ConfigNode, constants: Map<number, number>): void {
  if (node.kind === 'number') {
    const own = constants.get(node.offset);
    // `-Infinity`: the number token starts at the minus sign.
    const negated = afterMinus(node, constants);
    if (own !== undefined) node.value = own;
    else if (negated !== undefined) node.value = -negated;
  }
  for (const c of node.children ?? []) restoreConstants(c, constants);
}

function afterMinus(node: ConfigNode, constants: Map<number, number>): number | undefined {
  return constants.get(node.offset + 1);
}

/** Offsets in the shortened text back to the original's (keys included). */
function mapOffsets(node: ConfigNode, long: ReturnType<typeof withoutLongNumberArrays>): void {
  const end = long.endAt(node.offset + node.length);
  node.offset = long.startAt(node.offset);
  node.length = end - node.offset;
  if (node.keyOffset !== undefined) {
    const keyEnd = long.endAt(node.keyOffset + (node.keyLength ?? 0));
    node.keyOffset = long.startAt(node.keyOffset);
    node.keyLength = keyEnd - node.keyOffset;
  }
  for (const c of node.children ?? []) mapOffsets(c, long);
}

function convert(n: JsonNode, parent: ConfigNode | undefined): ConfigNode {
  const node: ConfigNode = { kind: 'null', offset: n.offset, length: n.length, parent };
  switch (n.type) {
    case 'object':
      node.kind = 'object';
      node.children = [];
      for (const prop of n.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (!k || typeof k.value !== 'string') continue;
        // A property whose value is missing (`"a": ` while typing) gets a null node at the colon.
        const valueNode = v ? convert(v, node) : { kind: 'null' as const, value: null, offset: k.offset + k.length, length: 0, parent: node };
        valueNode.key = k.value;
        valueNode.keyOffset = k.offset;
        valueNode.keyLength = k.length;
        node.children.push(valueNode);
      }
      break;
    case 'array':
      node.kind = 'array';
      node.children = (n.children ?? []).map((c) => convert(c, node));
      break;
    case 'string':
      node.kind = 'string';
      node.value = n.value;
      break;
    case 'number':
      node.kind = 'number';
      node.value = n.value;
      break;
    case 'boolean':
      node.kind = 'boolean';
      node.value = n.value;
      break;
    default:
      node.kind = 'null';
      node.value = null;
  }
  return node;
}
