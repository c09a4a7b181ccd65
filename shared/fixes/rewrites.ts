/**
 * The RoPE rewrites offered as fixes, each a list of minimal text edits: NTK-aware base, a YaRN
 * block, linear (PI), dynamic, a llama3 block, and raising the base. A RopeTarget says where in
 * this document the base and the scaling object live (or would be written).
 */
import type { Fix } from '../core/findings';
import type { ConfigEditor, KeyPath } from './configEditor';
import { PlainObject, float } from './render';
import { ntkAwareBase } from '../rope/seedMethods';
import { fmt, fmtPlain } from '../core/format';

/**
 * Keys a scaling rewrite owns: they describe the scaling being replaced and would contradict the
 * new one. Everything else in an existing block (mrope_section, mscale, attention_factor, rope_theta,
 * partial_rotary_factor …) is kept as written.
 */
export const OWNED_SCALING_KEYS = [
  'rope_type',
  'type',
  'factor',
  'original_max_position_embeddings',
  'low_freq_factor',
  'high_freq_factor',
  'beta_fast',
  'beta_slow',
  'short_factor',
  'long_factor',
  'truncate',
];

/** Existing scaling types a rewrite does not understand well enough to replace: offer nothing. */
const UNTOUCHABLE_TYPES = ['proportional', 'mrope', 'longrope', 'su'];

export interface RopeTarget {
  editor: ConfigEditor;
  /** Where the base is (or would be) written; absent when this file cannot set it. */
  basePath?: KeyPath;
  /** How the base key is called here (rope_theta, rotary_emb_base, rope_base…), for titles. */
  baseName: string;
  /** Where a scaling object is (or would be) written. */
  scalingPath?: KeyPath;
  /** Keys of an existing scaling object that a rewrite keeps (v5 rope_parameters holds rope_theta). */
  scalingKeep: readonly string[];
  /** LLaMA-Factory: the scaling is chosen by name at this path; factor and lengths are derived. */
  namePath?: KeyPath;
  /**
   * Writes a new base where setting `basePath` alone would not reach the model (axolotl on
   * transformers 5 writes the whole rope_parameters dict); `basePath` still says that it can.
   */
  baseWriter?: (value: number) => Fix['edits'];
  /** Keys every written scaling block also holds (axolotl on transformers 5: the model's rope_theta). */
  scalingWith?: PlainObject;
}

/** The edits that make the model run at base `value`. */
export function writeBase(t: RopeTarget, value: number): Fix['edits'] {
  return t.baseWriter ? t.baseWriter(value) : t.basePath ? t.editor.set(t.basePath, value) : [];
}

/** A scaling block as this file must write it (with the target's extra keys). */
export function scalingBlock(t: RopeTarget, block: PlainObject): PlainObject {
  return t.scalingWith ? { ...block, ...t.scalingWith } : block;
}

/** Factors are written rounded up to a quarter, so factor × original always covers the target. */
export function roundFactor(x: number): number {
  return Math.ceil(x * 4 - 1e-9) / 4;
}

/** Rounded to two decimals, as shown in the title ("10000 → 40889.94"). */
export function roundBase(x: number): number {
  return Math.round(x * 100) / 100;
}

export function ntkFix(t: RopeTarget, base: number, scale: number, dim: number): Fix | undefined {
  if (!t.basePath || !(scale > 1)) return undefined;
  const next = roundBase(ntkAwareBase(base, scale, dim));
  return {
    title: `Apply NTK scaling: ${t.baseName} ${fmtPlain(base)} → ${fmtPlain(next)}`,
    kind: 'ntk',
    edits: writeBase(t, next),
  };
}

/**
 * What a raised base's title may claim: `proven` (every real base within ±10% proven valid, bstar/neighbourhood.ts)
 * or `none` (a formula's base, e.g. Gradient's law: the title claims nothing about the bound).
 */
export type BaseClaim = 'proven' | 'none';

export function raiseBaseFix(t: RopeTarget, base: number, next: number, length: number, claim: BaseClaim = 'proven'): Fix | undefined {
  if (!t.basePath || !(next > base)) return undefined;
  const why = claim === 'proven' ? ` (valid for every base within ±10% at ${fmt(length)} tokens, proven)` : ` (for training at ${fmt(length)} tokens)`;
  return {
    title: `Raise ${t.baseName} to ${fmtPlain(next)}${why}`,
    kind: 'raise-base',
    edits: writeBase(t, next),
  };
}

/** A scaling block merged into the file's (or LLaMA-Factory's name for it), or undefined where the file cannot hold it. */
export function scalingBlockFix(t: RopeTarget, kind: Fix['kind'], name: string, block: PlainObject, title: string): Fix | undefined {
  return scalingFix(t, kind, name, block, title);
}

function scalingFix(t: RopeTarget, kind: Fix['kind'], name: string, block: PlainObject, title: string): Fix | undefined {
  if (t.namePath) return { title: `Use LLaMA-Factory's ${name} scaling (rope_scaling: ${name})`, kind, edits: t.editor.set(t.namePath, name) };
  if (!t.scalingPath || !canRewriteScaling(t)) return undefined;
  return { title, kind, edits: t.editor.mergeObject(t.scalingPath, scalingBlock(t, block), OWNED_SCALING_KEYS) };
}

/** False when the existing scaling block is of a kind a rewrite must not replace (multimodal sections, proportional, longrope lists). */
export function canRewriteScaling(t: RopeTarget): boolean {
  if (!t.scalingPath) return false;
  const existing = t.editor.nodeAt(t.scalingPath);
  if (existing?.kind !== 'object') return true;
  const keys = (existing.children ?? []).map((c) => c.key);
  if (keys.includes('mrope_section') || keys.includes('short_factor') || keys.includes('long_factor')) return false;
  const type = (existing.children ?? []).find((c) => c.key === 'rope_type' || c.key === 'type');
  return !(typeof type?.value === 'string' && UNTOUCHABLE_TYPES.includes(type.value.trim().toLowerCase()));
}

export { factorValue } from '../advice/advice';

export function yarnFix(t: RopeTarget, factor: number, original: number): Fix | undefined {
  const f = roundFactor(factor);
  if (!(f > 1)) return undefined;
  return scalingFix(
    t,
    'yarn',
    'yarn',
    { rope_type: 'yarn', factor: float(f), original_max_position_embeddings: original },
    `Add YaRN scaling (factor ${f}, original_max_position_embeddings ${original})`,
  );
}

export function linearFix(t: RopeTarget, factor: number): Fix | undefined {
  const f = roundFactor(factor);
  if (!(f > 1)) return undefined;
  return scalingFix(t, 'linear', 'linear', { rope_type: 'linear', factor: float(f) }, `Add linear scaling / position interpolation (factor ${f})`);
}

export function dynamicFix(t: RopeTarget, factor: number): Fix | undefined {
  const f = roundFactor(factor);
  if (!(f > 1)) return undefined;
  return scalingFix(t, 'dynamic', 'dynamic', { rope_type: 'dynamic', factor: float(f) }, `Add dynamic NTK scaling (factor ${f}; inference only)`);
}

export function llama3Fix(t: RopeTarget, factor: number, original: number): Fix | undefined {
  const f = roundFactor(factor);
  if (!(f > 1)) return undefined;
  return scalingFix(
    t,
    'llama3',
    'llama3',
    { rope_type: 'llama3', factor: float(f), low_freq_factor: float(1), high_freq_factor: float(4), original_max_position_embeddings: original },
    `Add llama3 scaling (factor ${f}, low_freq_factor 1.0, high_freq_factor 4.0, original_max_position_embeddings ${original})`,
  );
}

/** Plain number for titles (shared/core/format). */
export { fmtPlain };
