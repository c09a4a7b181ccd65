/** JSON (and JSONC) text → ConfigNode tree, via jsonc-parser's tolerant parser. */
import { parseTree, Node as JsonNode, ParseError, printParseErrorCode } from 'jsonc-parser';
import { ConfigNode, ParsedDocument, ParseProblem } from './configNode';
import { LineIndex } from './positions';

export function parseJsonDocument(text: string): ParsedDocument {
  const errors: ParseError[] = [];
  // Strip a UTF-8 BOM from parsing but keep offsets aligned with the original text.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = bom ? ' ' + text.slice(1) : text;
  const tree = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  const problems: ParseProblem[] = errors.map((e) => ({
    message: `JSON: ${printParseErrorCode(e.error)}`,
    offset: e.offset,
    length: e.length,
  }));
  return { format: 'json', text, lines: new LineIndex(text), root: tree ? convert(tree, undefined) : undefined, problems };
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
    case 'string': node.kind = 'string'; node.value = n.value; break;
    case 'number': node.kind = 'number'; node.value = n.value; break;
    case 'boolean': node.kind = 'boolean'; node.value = n.value; break;
    default: node.kind = 'null'; node.value = null;
  }
  return node;
}
