/**
 * What every rule receives, and small helpers for ranges and numbers. Rules are pure functions
 * of this context; they return findings with their fixes already computed.
 */
import type { ConfigNode, ParsedDocument } from '../document/configNode';
import { keyRange, pathOf, valueRange } from '../document/configNode';
import type { Range } from '../document/positions';
import type { Located, ModelRope, ScalingDescription } from '../config/modelRope';
import type { TrainingConfig } from '../config/training';
import type { ResolvedBaseModel } from '../config/resolve';
import type { BoundOracle, Finding, PendingBound, Severity } from '../core/findings';
import type { TransformersVariant } from '../rope/spec';
import type { ConfigEditor } from '../fixes/configEditor';
import type { ConsumerReading } from '../serving/consumer';
import type { ConsumerPin } from '../serving/pins';

export interface RuleContext {
  doc: ParsedDocument;
  fileKind: 'model-config' | 'training-config';
  /** A model whose values are located in this document (a config.json, or a YAML's own model). */
  model?: ModelRope;
  training?: TrainingConfig;
  resolved?: ResolvedBaseModel;
  /** Training: the base model with the YAML's overrides applied (positions only from this YAML). */
  effective?: ModelRope;
  oracle: BoundOracle;
  variant: TransformersVariant;
  pending: PendingBound[];
  /** The document's editor: YAML/JSON, or a command line's options (fixes/commandLineEditor). */
  editor: ConfigEditor;
  /** Model configs: how each consumer reads the file (shared/serving/consumers.ts). */
  consumers?: ConsumerReading[];
  /** What the workspace says is used: pinned packages, image tags, the ropeLens.consumers setting. */
  pins?: ConsumerPin[];
}

export interface Rule {
  /** The codes this rule may emit (documentation and severity settings). */
  codes: readonly string[];
  check(ctx: RuleContext): Finding[];
}

/** `message` is the headline (first sentence ≤ 120 characters); `detail` the explanation behind it. */
export function finding(code: string, severity: Severity, message: string, range: Range, fixes: Finding['fixes'] = [], detail?: string): Finding {
  return detail ? { code, severity, message, detail, range, fixes } : { code, severity, message, range, fixes };
}

/** A note the headline does not need (how a value was read, a caveat), added to the detail. */
export function appendDetail(detail: string | undefined, note: string): string {
  return detail ? `${detail} ${note}` : note;
}

/**
 * A message worded elsewhere (an engine's parser, a reader) as headline and detail: its first
 * sentence, and the rest. A sentence ends at . ! or ? followed by a space or the end.
 */
export function splitSentence(text: string): { message: string; detail?: string } {
  const m = /^(.*?[.!?])\s+(\S[\s\S]*)$/.exec(text);
  return m ? { message: m[1], detail: m[2] } : { message: text };
}

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Where to point for a value: its own node, else the first of `fallbacks` that has one, else line 1. */
export function rangeFor(doc: ParsedDocument, ...candidates: (Located<unknown> | ConfigNode | undefined)[]): Range {
  for (const c of candidates) {
    if (!c) continue;
    const node = 'kind' in c ? (c as ConfigNode) : (c as Located<unknown>).node;
    if (node) return node.length > 0 ? valueRange(doc, node) : keyRange(doc, node);
  }
  return START;
}

/** The key of a property (for findings about the key itself, e.g. a misspelled or extra key). */
export function keyRangeOf(doc: ParsedDocument, node: ConfigNode | undefined): Range {
  return node ? keyRange(doc, node) : START;
}

/** Where the scaling object starts: its key when it is a property, else the object. */
export function scalingRange(doc: ParsedDocument, s: ScalingDescription): Range {
  return s.node ? keyRange(doc, s.node) : START;
}

/** Numbers for messages (one formatter for the whole tool: shared/core/format). */
export { fmt } from '../core/format';
import { fmt } from '../core/format';

/**
 * A value the user wrote, for a message: quoted and cut to 60 characters. Words that would read as
 * a computation gone wrong in a message (NaN, undefined) are described instead of echoed.
 */
export function shown(v: unknown): string {
  const s = String(v);
  if (/NaN|undefined|\[object Object\]/.test(s)) return 'the value written there';
  return `'${s.length > 60 ? `${s.slice(0, 57)}...` : s}'`;
}

/** Any written value for a "got …" message: numbers and short strings as written, containers by kind. */
export function shownAny(v: unknown): string {
  if (typeof v === 'number') return fmt(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return typeof v === 'string' ? shown(v) : String(v);
}

export function numParam(s: ScalingDescription | undefined, key: string): number | undefined {
  const v = s?.params[key]?.value;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Human name of the scaling object's key, as transformers' messages spell it. */
export function scalingKeyName(s: ScalingDescription): string {
  const k = s.key ?? 'rope_scaling';
  return k.includes('rope_parameters') ? 'rope_parameters' : 'rope_scaling';
}

/** Key path of a node for the editor (array indices as strings never occur for RoPE keys). */
export function pathTo(node: ConfigNode): string[] {
  return pathOf(node).map(String);
}
