/**
 * The stand-in document of a command line: a root object whose children are the options read,
 * each a ConfigNode whose span is the option's value in the launch file (key span: the flag). The
 * rules' rangeFor and pathTo then work unchanged, and DocumentEditor is replaced by
 * CommandLineEditor, which maps a child's key back to its option.
 * A JSON value (`--rope_scaling '{"rope_type":"yarn",…}'`) becomes a nested tree, positioned on the
 * JSON text inside the token when it is written verbatim there (else on the whole value).
 */
import type { ConfigNode, ParsedDocument } from '../../../document/configNode';
import { LineIndex } from '../../../document/positions';
import { parseJsonDocument } from '../../../document/parseJson';
import type { Invocation } from '../../../launch/types';
import { ArgOption, numberText } from './argv';

export class LaunchDocBuilder {
  readonly root: ConfigNode;
  readonly options = new Map<string, ArgOption>();
  constructor(
    private readonly lines: LineIndex,
    inv: Invocation,
  ) {
    this.root = { kind: 'object', offset: inv.offset, length: inv.length, children: [] };
  }

  /** Adds option `o` under `key`; `json`: its value is JSON text (an object when it parses as one). */
  add(key: string, o: ArgOption, json = false): ConfigNode {
    const node = (json ? jsonNode(o) : undefined) ?? scalarNode(o);
    node.key = key;
    node.keyOffset = o.flag.offset;
    node.keyLength = o.form === 'flag=value' || o.form === 'key=value' ? Math.max(0, o.valueOffset - o.flag.offset - 1) || o.flag.length : o.flag.length;
    node.parent = this.root;
    this.root.children = [...(this.root.children ?? []).filter((c) => c.key !== key), node];
    this.options.set(key, o);
    return node;
  }

  doc(): ParsedDocument {
    return { format: 'yaml', text: this.lines.text, lines: this.lines, root: this.root, problems: [] };
  }
}

function scalarNode(o: ArgOption): ConfigNode {
  const base = { offset: o.valueOffset, length: o.valueLength };
  if (o.form === 'flag') return { ...base, kind: 'boolean', value: true, raw: o.flag.raw };
  const n = numberText(o.text);
  if (n !== undefined) return { ...base, kind: 'number', value: n, raw: o.text };
  return { ...base, kind: 'string', value: o.text ?? '', raw: o.text };
}

/** The JSON object in an option's value, positioned inside the token when the JSON is there verbatim. */
function jsonNode(o: ArgOption): ConfigNode | undefined {
  const text = o.text?.trim();
  if (!text?.startsWith('{') || !o.value) return undefined;
  const parsed = parseJsonDocument(text);
  const root = parsed.root;
  if (!root || root.kind !== 'object' || parsed.problems.length) return undefined;
  const tok = o.value;
  const at = tok.quote === 'none' || tok.quote === 'single' ? tok.raw.indexOf(text) : -1;
  if (at >= 0 && tok.raw.indexOf(text, at + 1) < 0) shift(root, tok.offset + at);
  else pin(root, o.valueOffset, o.valueLength);
  return root;
}

function shift(node: ConfigNode, delta: number): void {
  node.offset += delta;
  if (node.keyOffset !== undefined) node.keyOffset += delta;
  for (const c of node.children ?? []) shift(c, delta);
}

/** Every node on the same span: the JSON was escaped in the token, so inner positions are not exact. */
function pin(node: ConfigNode, offset: number, length: number): void {
  node.offset = offset;
  node.length = length;
  if (node.keyOffset !== undefined) {
    node.keyOffset = offset;
    node.keyLength = length;
  }
  for (const c of node.children ?? []) pin(c, offset, length);
}
