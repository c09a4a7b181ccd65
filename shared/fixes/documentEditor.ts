/**
 * Minimal text edits on a parsed JSON or YAML document: set a value at a key path (creating
 * missing parents), remove a key, or make an object hold given keys. Edits touch only the
 * characters that change; comments, key order, indentation (tabs or spaces), line endings and
 * the style of the surrounding map (block, flow, JSON-like flow) are kept.
 */
import { ConfigNode, ParsedDocument, child, nodeAt } from '../document/configNode';
import type { TextEdit } from '../core/findings';
import type { ConfigEditor, KeyPath } from './configEditor';
import { OffsetEdit, minimizeEdit, toTextEdits } from './textEdits';
import {
  Layout,
  PlainObject,
  PlainValue,
  detectEol,
  detectIndentUnit,
  isPlainObject,
  jsonValue,
  yamlBlockEntry,
  yamlFlow,
  yamlKey,
  yamlScalar,
} from './render';

export type { KeyPath };

export class DocumentEditor implements ConfigEditor {
  private readonly text: string;
  private readonly layout: Layout;
  constructor(private readonly doc: ParsedDocument) {
    this.text = doc.text;
    const unit = detectIndentUnit(doc.text);
    // YAML forbids tabs as indentation; a tab-indented YAML file can only be a flow document.
    this.layout = { eol: detectEol(doc.text), unit: doc.format === 'yaml' && unit === '\t' ? '  ' : unit };
  }

  /** Sets `path` to `value`, replacing an existing value or inserting the missing keys. */
  set(path: KeyPath, value: PlainValue): TextEdit[] {
    return this.finish(this.setEdits(path, value));
  }

  /** The node at `path` in the document being edited, if any. */
  nodeAt(path: KeyPath): ConfigNode | undefined {
    return nodeAt(this.doc.root, path);
  }

  /**
   * Merges `entries` into the object at `path`: the keys in `owned` that `entries` does not set are
   * removed (they belong to the scaling being replaced); every other key stays as written.
   */
  mergeObject(path: KeyPath, entries: PlainObject, owned: readonly string[]): TextEdit[] {
    const target = nodeAt(this.doc.root, path);
    const keep = target?.kind === 'object' ? (target.children ?? []).map((c) => c.key!).filter((k) => k !== undefined && !owned.includes(k)) : [];
    return this.setObject(path, entries, keep);
  }

  /** Removes the property at `path` (no edit if absent). */
  remove(path: KeyPath): TextEdit[] {
    const node = nodeAt(this.doc.root, path);
    if (!node?.parent || node.parent.kind !== 'object') return [];
    return this.finish(this.removeChildren(node.parent, [node]));
  }

  /**
   * Makes the object at `path` hold `entries`: changes differing values, inserts missing keys,
   * and removes every other key except those in `keep`. Creates the object when absent.
   */
  setObject(path: KeyPath, entries: PlainObject, keep: readonly string[] = []): TextEdit[] {
    const target = nodeAt(this.doc.root, path);
    if (!target || target.kind !== 'object') return this.set(path, entries);
    const edits: OffsetEdit[] = [];
    const missing: PlainObject = {};
    for (const [k, v] of Object.entries(entries)) {
      const c = child(target, k);
      if (!c) missing[k] = v;
      else if (!sameScalar(c, v)) edits.push(this.replaceValue(c, v));
    }
    const kids = target.children ?? [];
    const removed = kids.filter((c) => c.key !== undefined && !(c.key in entries) && !keep.includes(c.key));
    const kept = kids.filter((c) => !removed.includes(c));
    if (kept.length === 0) {
      // Nothing of the old object survives: rewrite it whole, in its own style.
      return this.finish([this.replaceValue(target, entries)]);
    }
    edits.push(...this.removeChildren(target, removed));
    if (Object.keys(missing).length) edits.push(this.insertEntries(target, missing, kept[kept.length - 1]));
    return this.finish(edits);
  }

  private finish(edits: OffsetEdit[]): TextEdit[] {
    // Multi-line rewrites shrink to what changes; a one-line value replacement stays whole (a
    // client shows `10000` → `180000`, not an inserted `8`), unless it changes nothing at all.
    const minimal = edits
      .filter((e) => this.text.slice(e.offset, e.offset + e.length) !== e.newText)
      .map((e) => (/[\r\n]/.test(this.text.slice(e.offset, e.offset + e.length) + e.newText) ? minimizeEdit(this.text, e) : e))
      .filter((e) => e.length > 0 || e.newText.length > 0);
    return toTextEdits(this.doc.lines, minimal);
  }

  private setEdits(path: KeyPath, value: PlainValue): OffsetEdit[] {
    if (path.length === 0) throw new Error('empty key path');
    let node = this.doc.root;
    if (!node) return [this.insertIntoEmpty(nest(path, value))];
    for (let i = 0; i < path.length; i++) {
      if (node.kind !== 'object') return [this.replaceValue(node, nest(path.slice(i), value))];
      const c: ConfigNode | undefined = child(node, path[i]);
      if (!c) return [this.insertEntries(node, { [path[i]]: nest(path.slice(i + 1), value) }, node.children?.[node.children.length - 1])];
      if (i === path.length - 1) return [this.replaceValue(c, value)];
      node = c;
    }
    return [];
  }

  // ---- replacing a value ----

  private replaceValue(node: ConfigNode, value: PlainValue): OffsetEdit {
    const { text } = this;
    if (this.doc.format === 'json') {
      const pretty = isPlainObject(value) && this.isMultiLine();
      const indent = indentOfLine(text, node.keyOffset ?? node.offset);
      return { offset: node.offset, length: node.length, newText: jsonValue(value, indent, pretty ? this.layout : undefined) };
    }
    const quoted = node.raw?.startsWith('"') || this.inJsonLikeFlow(node);
    if (isPlainObject(value) && node.kind === 'object' && !isFlow(text, node)) {
      // A block map replaced by a block map: first line at the node's column, the rest indented alike.
      const indent = ' '.repeat(node.offset - lineStart(text, node.offset));
      const body = Object.entries(value)
        .map(([k, v]) => yamlBlockEntry(k, v, indent, this.layout))
        .join(this.layout.eol + indent);
      return { offset: node.offset, length: contentEnd(text, node) - node.offset, newText: body };
    }
    const rendered = isPlainObject(value) ? yamlFlow(value, quoted) : yamlScalar(value, quoted);
    // An empty value (`key:`) is a zero-length node right after the colon.
    const lead = node.length === 0 && text[node.offset - 1] === ':' ? ' ' : '';
    return { offset: node.offset, length: node.length, newText: lead + rendered };
  }

  // ---- inserting keys ----

  private insertIntoEmpty(value: PlainValue): OffsetEdit {
    const obj = value as PlainObject;
    if (this.doc.format === 'json') return { offset: 0, length: this.text.length, newText: jsonValue(obj, '', this.layout) + this.layout.eol };
    const body = Object.entries(obj)
      .map(([k, v]) => yamlBlockEntry(k, v, '', this.layout))
      .join(this.layout.eol);
    const sep = this.text.length && !/\n$/.test(this.text) ? this.layout.eol : '';
    return { offset: this.text.length, length: 0, newText: sep + body + this.layout.eol };
  }

  /** Inserts `entries` into object `obj` right after `anchor` (a child that stays), or fills an empty object. */
  private insertEntries(obj: ConfigNode, entries: PlainObject, anchor: ConfigNode | undefined): OffsetEdit {
    const { text, layout } = this;
    if (!anchor) return this.replaceValue(obj, entries);
    const anchorEnd = contentEnd(text, anchor);
    const keyAt = anchor.keyOffset ?? anchor.offset;
    const ownLine = isFirstOnLine(text, keyAt);
    const indent = indentOfLine(text, keyAt);
    if (this.doc.format === 'json' || isFlow(text, obj)) {
      const json = this.doc.format === 'json';
      const quoted = json || text[keyAt] === '"';
      const entry = (k: string, v: PlainValue) =>
        json ? `${JSON.stringify(k)}: ${jsonValue(v, indent, ownLine ? layout : undefined)}` : `${yamlKey(k, quoted)}: ${yamlFlow(v, quoted)}`;
      const items = Object.entries(entries).map(([k, v]) => entry(k, v));
      const sep = ownLine ? layout.eol + indent : ' ';
      const after = skipBlanks(text, anchorEnd);
      if (text[after] === ',' && !json) {
        // Trailing comma after the last entry (allowed in YAML flow maps): keep the style.
        return { offset: after + 1, length: 0, newText: items.map((it) => sep + it + ',').join('') };
      }
      return { offset: anchorEnd, length: 0, newText: items.map((it) => ',' + sep + it).join('') };
    }
    // Block map: new lines after the anchor's last line, at the anchor key's indentation.
    const at = lineEnd(text, anchorEnd);
    const body = Object.entries(entries)
      .map(([k, v]) => layout.eol + indent + yamlBlockEntry(k, v, indent, layout))
      .join('');
    return { offset: at, length: 0, newText: body };
  }

  // ---- removing keys ----

  private removeChildren(obj: ConfigNode, removed: ConfigNode[]): OffsetEdit[] {
    if (removed.length === 0) return [];
    const { text } = this;
    const kids = obj.children ?? [];
    if (this.doc.format === 'yaml' && !isFlow(text, obj)) {
      return removed.map((c) => {
        const keyAt = c.keyOffset ?? c.offset;
        const start = isFirstOnLine(text, keyAt) ? lineStart(text, keyAt) : keyAt;
        const end = afterEol(text, lineEnd(text, contentEnd(text, c)));
        return { offset: start, length: end - start, newText: '' };
      });
    }
    // JSON and flow maps: remove maximal runs of removed entries together with one comma.
    const edits: OffsetEdit[] = [];
    let i = 0;
    while (i < kids.length) {
      if (!removed.includes(kids[i])) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < kids.length && removed.includes(kids[j + 1])) j++;
      const first = kids[i];
      const firstKey = first.keyOffset ?? first.offset;
      if (j + 1 < kids.length) {
        const next = kids[j + 1];
        edits.push({ offset: firstKey, length: (next.keyOffset ?? next.offset) - firstKey, newText: '' });
      } else if (i > 0) {
        const prevEnd = contentEnd(text, kids[i - 1]);
        edits.push({ offset: prevEnd, length: contentEnd(text, kids[j]) - prevEnd, newText: '' });
      } else {
        edits.push({ offset: firstKey, length: contentEnd(text, kids[j]) - firstKey, newText: '' });
      }
      i = j + 1;
    }
    return edits;
  }

  private isMultiLine(): boolean {
    const r = this.doc.root;
    return !!r && /\n/.test(this.text.slice(r.offset, r.offset + r.length));
  }

  private inJsonLikeFlow(node: ConfigNode): boolean {
    const p = node.parent;
    return !!p && isFlow(this.text, p) && p.children?.some((c) => c.keyOffset !== undefined && this.text[c.keyOffset] === '"') === true;
  }
}

function nest(path: KeyPath, value: PlainValue): PlainValue {
  let v = value;
  for (let i = path.length - 1; i >= 0; i--) v = { [path[i]]: v };
  return v;
}

function sameScalar(node: ConfigNode, v: PlainValue): boolean {
  if (isPlainObject(v)) return false;
  // A FloatValue compares by number; writing `4.0` over `4` is then left to minimizeEdit.
  const plain = typeof v === 'object' && v !== null ? v.value : v;
  return node.value === plain && !(typeof v === 'object' && v !== null && Number.isInteger(plain));
}

export function isFlow(text: string, node: ConfigNode): boolean {
  return text[node.offset] === '{' || text[node.offset] === '[';
}

export function lineStart(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

export function lineEnd(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

function afterEol(text: string, offset: number): number {
  if (text[offset] === '\r' && text[offset + 1] === '\n') return offset + 2;
  if (text[offset] === '\n' || text[offset] === '\r') return offset + 1;
  return offset;
}

function isFirstOnLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

function indentOfLine(text: string, offset: number): string {
  const s = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(s, offset))![0];
}

function skipBlanks(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/** End of a node's own text: YAML block collections end after trailing newlines and blank lines. */
export function contentEnd(text: string, node: ConfigNode): number {
  let end = node.offset + node.length;
  while (end > node.offset && /\s/.test(text[end - 1])) end--;
  return end;
}
