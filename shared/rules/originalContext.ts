/**
 * rope/original-context-missing (warning): YaRN, llama3 or longrope without
 * original_max_position_embeddings. transformers then takes max_position_embeddings as the
 * original length, the implicit factor is 1, and the correction bands sit at the wrong length.
 * rope/factor-mismatch (YaRN): factor ≠ max_position_embeddings / original (transformers warns;
 * vLLM derives the served length as original × factor).
 */
import type { Fix, Finding } from '../core/findings';
import type { ModelRope, ScalingDescription } from '../config/modelRope';
import { Rule, RuleContext, finding, fmt, numParam, pathTo, rangeFor, scalingKeyName, scalingRange } from './context';
import { scalingsInDocument } from './scalingTargets';
import { float } from '../fixes/render';

export const ORIGINAL_MISSING = 'rope/original-context-missing';
export const FACTOR_MISMATCH = 'rope/factor-mismatch';

export const originalContextRule: Rule = {
  codes: [ORIGINAL_MISSING, FACTOR_MISMATCH],
  check(ctx) {
    const out: Finding[] = [];
    for (const { scaling: s, rope } of scalingsInDocument(ctx)) {
      if (s.type !== 'yarn' && s.type !== 'llama3' && s.type !== 'longrope') continue;
      const name = scalingKeyName(s);
      const original = numParam(s, 'original_max_position_embeddings') ?? rope?.topLevelOriginalContextLength?.value;
      const factor = numParam(s, 'factor');
      const mpe = rope?.contextLength.value;
      if (original === undefined) {
        out.push(finding(ORIGINAL_MISSING, 'warning',
          `${s.rawType?.value ?? s.type} scaling without original_max_position_embeddings: transformers takes max_position_embeddings${mpe ? ` (${mpe})` : ''} as the original context, so the ${factor ?? '?'}× factor is applied around the wrong length.`,
          scalingRange(ctx.doc, s), missingFixes(ctx, s, rope, factor)));
        continue;
      }
      if (s.type !== 'yarn' || factor === undefined || !mpe || !(original > 0)) continue;
      const implicit = mpe / original;
      if (Math.abs(implicit - factor) <= 1e-6 * factor) continue;
      out.push(finding(FACTOR_MISMATCH, implicit === 1 ? 'information' : 'warning',
        `The explicitly set RoPE scaling factor (${name}['factor'] = ${factor}) does not match the ratio implicitly set by other parameters (max_position_embeddings / original_max_position_embeddings = ${mpe} / ${original} = ${fmt(implicit)}).`
        + (implicit === 1 ? ` Servers derive the context as original × factor = ${fmt(original * factor)}; transformers only warns.` : ''),
        // implicit 1 is the vendors' own recipe (Qwen: add yarn to the shipped config): it runs as
        // meant, so the finding informs and offers no edit.
        rangeFor(ctx.doc, s.params['factor']), implicit === 1 ? [] : mismatchFixes(ctx, rope!, s, factor, original, implicit)));
    }
    return out;
  },
};

function missingFixes(ctx: RuleContext, s: ScalingDescription, rope: ModelRope | undefined, factor: number | undefined): Fix[] {
  if (!s.node || !rope || !factor || !(factor > 1)) return [];
  const mpe = rope.contextLength.value;
  if (!Number.isFinite(mpe)) return [];
  const path = pathTo(s.node);
  const fixes: Fix[] = [];
  if (ctx.fileKind === 'training-config') {
    // The base model's own context is the length it was trained on.
    fixes.push({ title: `Set original_max_position_embeddings to ${mpe} (the base model's context)`, kind: 'other', preferred: true,
      edits: ctx.editor.setObject(path, { original_max_position_embeddings: mpe }, Object.keys(s.params)) });
    return fixes;
  }
  const mpeNode = rope.contextLength.node;
  if (mpeNode) {
    const extended = Math.round(mpe * factor);
    fixes.push({ title: `Trained on ${mpe} tokens: set original_max_position_embeddings ${mpe} and max_position_embeddings ${extended}`, kind: 'other',
      edits: [...ctx.editor.setObject(path, { original_max_position_embeddings: mpe }, Object.keys(s.params)), ...ctx.editor.set(pathTo(mpeNode), extended)] });
  }
  const orig = mpe / factor;
  if (Number.isInteger(orig)) {
    fixes.push({ title: `Already extended: set original_max_position_embeddings to ${orig} (max_position_embeddings / factor)`, kind: 'other',
      edits: ctx.editor.setObject(path, { original_max_position_embeddings: orig }, Object.keys(s.params)) });
  }
  return fixes;
}

function mismatchFixes(ctx: RuleContext, rope: ModelRope, s: ScalingDescription, factor: number, original: number, implicit: number): Fix[] {
  if (ctx.fileKind !== 'model-config') return [];
  const fixes: Fix[] = [];
  const mpeNode = rope.contextLength.node;
  const extended = Math.round(original * factor);
  if (mpeNode) fixes.push({ title: `Set max_position_embeddings to ${extended} (original × factor)`, kind: 'other', edits: ctx.editor.set(pathTo(mpeNode), extended) });
  const fNode = s.params['factor']?.node;
  if (fNode && implicit > 1) fixes.push({ title: `Set factor to ${fmt(implicit)} (max_position_embeddings / original)`, kind: 'other', edits: ctx.editor.set(pathTo(fNode), float(implicit)) });
  return fixes;
}
