/**
 * "Write this stage into <file>": a stage's trainer snippet merged into the open training YAML as
 * minimal text edits. Only the keys the snippet owns change: axolotl's `sequence_len` and the RoPE
 * keys of `overrides_of_model_config` (its other overrides stay; a deprecated top-level
 * `rope_scaling` goes, since the overrides replace it), LLaMA-Factory's `cutoff_len` and
 * `rope_scaling`, torchtune's `model.*` builder arguments and `tokenizer.max_seq_len`. Comments,
 * key order and every other key are kept; values are replaced in place.
 */
import { RopeError } from '../core/errors';
import type { TextEdit } from '../core/findings';
import type { ConfigNode, ParsedDocument } from '../document/configNode';
import { child } from '../document/configNode';
import { parseDocumentText } from '../document/parse';
import { readTrainingConfig } from '../config/training';
import { DocumentEditor } from '../fixes/documentEditor';
import { float, isPlainObject, type PlainObject, type PlainValue } from '../fixes/render';
import { applyTextEdits, minimizeEdit, toTextEdits, type OffsetEdit } from '../fixes/textEdits';
import type { Trainer } from './types';

/** The RoPE keys of axolotl's overrides a stage decides (the rest of the block is the user's). */
export const AXOLOTL_OWNED_OVERRIDES = ['max_position_embeddings', 'rope_theta', 'rope_scaling'] as const;

export interface StageWrite {
  edits: TextEdit[];
  /** The document text after the edits. */
  text: string;
}

/** A snippet node as a value for the editor; numbers written with a point or exponent stay floats. */
function plainOf(n: ConfigNode): PlainValue {
  switch (n.kind) {
    case 'object': {
      const o: PlainObject = {};
      for (const c of n.children ?? []) if (c.key !== undefined) o[c.key] = plainOf(c);
      return o;
    }
    case 'number': {
      const v = n.value as number;
      return /[.eE]/.test(n.raw ?? '') ? float(v) : v;
    }
    case 'array':
      throw new RopeError('invalid-parameter', 'a stage snippet never holds a list');
    default:
      return (n.value ?? null) as PlainValue;
  }
}

function snippetObject(snippet: string): PlainObject {
  const d = parseDocumentText(snippet, 'yaml');
  if (!d.root || d.root.kind !== 'object') throw new RopeError('parse-error', 'the stage snippet is not a YAML mapping');
  return plainOf(d.root) as PlainObject;
}

type Step = (editor: DocumentEditor, doc: ParsedDocument) => TextEdit[];

function stepsFor(doc: ParsedDocument, trainer: Trainer, snippet: PlainObject): Step[] {
  const t = readTrainingConfig(doc);
  if (!t) throw new RopeError('invalid-parameter', 'not a training config RoPE Lens reads');
  if (t.tool !== trainer) throw new RopeError('invalid-parameter', `this is a ${t.tool} config, not ${trainer}`);
  const steps: Step[] = [];
  if (trainer === 'axolotl') {
    const over = t.overridePath ?? ['overrides_of_model_config'];
    const entries = snippet['overrides_of_model_config'];
    for (const [k, v] of Object.entries(snippet)) {
      if (k !== 'overrides_of_model_config') steps.push((e) => e.set([k], v));
    }
    if (entries !== undefined && isPlainObject(entries)) steps.push((e) => e.mergeObject(over, entries, AXOLOTL_OWNED_OVERRIDES));
    else steps.push((e) => (e.nodeAt(over)?.kind === 'object' ? e.mergeObject(over, {}, AXOLOTL_OWNED_OVERRIDES) : []));
    // axolotl rejects a top-level rope_scaling (deprecated); the overrides now say it.
    steps.push((e, d) => (child(d.root, 'rope_scaling') ? e.remove(['rope_scaling']) : []));
  } else {
    if (trainer === 'torchtune') keepLora(doc, snippet);
    for (const [k, v] of Object.entries(snippet)) {
      // torchtune: the builder arguments are set one by one; the block's other keys stay.
      if (isPlainObject(v)) steps.push((e) => e.mergeObject([k], v, []));
      else steps.push((e) => e.set([k], v));
    }
  }
  return steps;
}

/**
 * torchtune: a LoRA run (`lora_…` / `qlora_…` model builder) keeps LoRA: the generic component
 * builder becomes its LoRA twin (`torchtune.models.llama3.lora_llama3`, …), which takes the same
 * architecture arguments plus the LoRA ones already in the block; QLoRA adds `quantize_base`.
 */
function keepLora(doc: ParsedDocument, snippet: PlainObject): void {
  const model = snippet['model'];
  const current = child(child(doc.root, 'model'), '_component_')?.value;
  if (!isPlainObject(model) || typeof current !== 'string' || typeof model['_component_'] !== 'string') return;
  const kind = /^(q?lora)_/.exec(current.split('.').pop() ?? '')?.[1];
  if (!kind) return;
  const parts = model['_component_'].split('.');
  parts[parts.length - 1] = `lora_${parts[parts.length - 1]}`;
  model['_component_'] = parts.join('.');
  if (kind === 'qlora') model['quantize_base'] = true;
}

/** The edits that write `snippet` (a stage's YAML for `trainer`) into the training YAML `doc`. */
export function stageWriteEdits(doc: ParsedDocument, trainer: Trainer, snippet: string): StageWrite {
  if (doc.format !== 'yaml' || !doc.root || doc.root.kind !== 'object') throw new RopeError('parse-error', 'the file is not a YAML mapping');
  const steps = stepsFor(doc, trainer, snippetObject(snippet));
  let current = doc;
  for (const step of steps) {
    const edits = step(new DocumentEditor(current), current);
    if (!edits.length) continue;
    current = parseDocumentText(applyTextEdits(current.text, current.lines, edits), 'yaml');
  }
  return { edits: lineDiffEdits(doc, current.text), text: current.text };
}

/** Lines with their line endings, so joining them gives the text back. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * Edits from `doc.text` to `after`, one per changed run of lines (longest common subsequence of
 * lines), each shrunk to the characters that change: untouched lines between two changes are not
 * rewritten, so comments and other keys never sit inside an edit.
 */
export function lineDiffEdits(doc: ParsedDocument, after: string): TextEdit[] {
  const a = splitLines(doc.text),
    b = splitLines(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const A = a.slice(pre, a.length - suf),
    B = b.slice(pre, b.length - suf);
  // LCS table over the changed middle (small: a stage touches a few keys).
  const n = A.length,
    m = B.length;
  const L: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = A[i] === B[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  let offset = a.slice(0, pre).reduce((s, l) => s + l.length, 0);
  const edits: OffsetEdit[] = [];
  let i = 0,
    j = 0;
  let hunk: { offset: number; length: number; newText: string } | undefined;
  const flush = () => {
    if (hunk) {
      edits.push(minimizeEdit(doc.text, hunk));
      hunk = undefined;
    }
  };
  while (i < n || j < m) {
    if (i < n && j < m && A[i] === B[j]) {
      flush();
      offset += A[i].length;
      i++;
      j++;
      continue;
    }
    hunk ??= { offset, length: 0, newText: '' };
    if (j < m && (i >= n || L[i][j + 1] >= L[i + 1][j])) {
      hunk.newText += B[j];
      j++;
    } else {
      hunk.length += A[i].length;
      offset += A[i].length;
      i++;
    }
  }
  flush();
  return toTextEdits(
    doc.lines,
    edits.filter((e) => e.length > 0 || e.newText.length > 0),
  );
}
