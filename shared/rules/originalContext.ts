/**
 * rope/original-context-missing (warning): YaRN, llama3 or longrope without
 * original_max_position_embeddings while max_position_embeddings differs from the trained context T.
 * transformers then takes max_position_embeddings as the original length, so the correction bands
 * sit at the wrong length. When max_position_embeddings is T (or T is only assumed from it) the
 * omission is harmless: it is how vendors document the recipe (Qwen2.5: YaRN ×4 over 32,768). So is a
 * T known only from an architecture fingerprint above the file's own max_position_embeddings.
 * rope/factor-mismatch (YaRN): factor ≠ max_position_embeddings / original (transformers warns;
 * vLLM derives the served length as original × factor).
 */
import type { Fix, Finding } from '../core/findings';
import type { ModelRope, ScalingDescription } from '../config/modelRope';
import { Rule, RuleContext, finding, fmt, numParam, pathTo, rangeFor, scalingKeyName, scalingRange } from './context';
import { scalingsInDocument } from './scalingTargets';
import { float } from '../fixes/render';
import { trainedContextOf } from '../config/trainedContext';
import { catalogCitation } from '../config/catalog';

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
        // transformers then takes max_position_embeddings as the original context. That is right when
        // it is the trained context (Qwen's documented recipe: YaRN ×4 added to the 32,768 config).
        if (!rope || !mpe || !Number.isFinite(mpe)) continue;
        const trained = trainedContextOf(rope);
        if (trained.source.startsWith('assumed:') || trained.value === mpe) continue;
        // T from an architecture fingerprint only, above the context the file itself declares: the file's own length
        // is the better witness (a 2,048-token Llama-1 shape is not Llama-2-7b at 4,096), and transformers stretches
        // from it as written (4.57.6 and 5.18.0 load these YaRN configs and mean what they say).
        if (rope.identity?.via === 'fingerprint' && mpe < trained.value) continue;
        const from = trainedSourceText(trained.source);
        out.push(
          finding(
            ORIGINAL_MISSING,
            'warning',
            `The ${s.rawType?.value ?? s.type} scaling stretches from the wrong length: original_max_position_embeddings is missing.`,
            scalingRange(ctx.doc, s),
            missingFixes(ctx, s, rope, factor, trained.value),
            `transformers takes max_position_embeddings ${fmt(mpe)} as the original context, ` +
              `but this checkpoint was trained at ${fmt(trained.value)} (${from}), so the ${factor ?? '?'}× factor is applied around the wrong length.`,
          ),
        );
        continue;
      }
      if (s.type !== 'yarn' || factor === undefined || !mpe || !(original > 0)) continue;
      const implicit = mpe / original;
      if (Math.abs(implicit - factor) <= 1e-6 * factor) continue;
      // YaRN ×1 computes the trained frequencies and an attention factor of 1 whatever the lengths say (ms-swift
      // writes it for a max_model_len within the model's context), unless an attention_factor of its own is given:
      // transformers' warning is all that happens.
      const asTrained = factor === 1 && (numParam(s, 'attention_factor') ?? 1) === 1;
      out.push(
        finding(
          FACTOR_MISMATCH,
          implicit === 1 || asTrained ? 'information' : 'warning',
          `YaRN factor ${fmt(factor)} over ${fmt(original)} covers ${fmt(original * factor)} tokens, but max_position_embeddings is ${fmt(mpe)}.`,
          // implicit 1 is the vendors' own recipe (Qwen: add yarn to the shipped config): it runs as
          // meant, so the finding informs and offers no edit.
          rangeFor(ctx.doc, s.params['factor']),
          implicit === 1 || asTrained ? [] : mismatchFixes(ctx, rope!, s, factor, original, implicit),
          `transformers warns: "The explicitly set RoPE scaling factor (${name}['factor'] = ${factor}) does not match the ratio implicitly set by other parameters (max_position_embeddings / original_max_position_embeddings = ${mpe} / ${original} = ${fmt(implicit)})".` +
            (implicit === 1 ? ` Servers derive the context as original × factor = ${fmt(original * factor)}; transformers only warns.` : '') +
            (asTrained && implicit !== 1 ? ' A factor of 1 leaves every frequency as trained: transformers only warns.' : ''),
        ),
      );
    }
    return out;
  },
};

/** Writes the trained context as the original; where original × factor would not give max_position_embeddings, the factor too. */
function missingFixes(ctx: RuleContext, s: ScalingDescription, rope: ModelRope, factor: number | undefined, trained: number): Fix[] {
  if (!s.node) return [];
  const mpe = rope.contextLength.value;
  const path = pathTo(s.node);
  const coherent = factor !== undefined && Math.abs(trained * factor - mpe) <= 1e-9 * mpe;
  const ratio = mpe / trained;
  const set: Record<string, number | ReturnType<typeof float>> = { original_max_position_embeddings: trained };
  if (!coherent && ratio > 1) set.factor = float(ratio);
  const title =
    coherent || !(ratio > 1)
      ? `Set original_max_position_embeddings to ${trained} (the trained context)`
      : `Set original_max_position_embeddings to ${trained} (the trained context) and factor to ${fmt(ratio)} (max_position_embeddings / ${trained})`;
  return [{ title, kind: 'other', preferred: true, edits: ctx.editor.setObject(path, set, Object.keys(s.params)) }];
}

function trainedSourceText(source: string): string {
  if (source.startsWith('catalog:')) return catalogCitation(source);
  if (source.startsWith('config:')) return `its ${source.slice('config:'.length)}`;
  return source;
}

function mismatchFixes(ctx: RuleContext, rope: ModelRope, s: ScalingDescription, factor: number, original: number, implicit: number): Fix[] {
  if (ctx.fileKind !== 'model-config') return [];
  const fixes: Fix[] = [];
  const mpeNode = rope.contextLength.node;
  const extended = Math.round(original * factor);
  if (mpeNode)
    fixes.push({ title: `Set max_position_embeddings to ${extended} (original × factor)`, kind: 'other', edits: ctx.editor.set(pathTo(mpeNode), extended) });
  const fNode = s.params['factor']?.node;
  if (fNode && implicit > 1)
    fixes.push({
      title: `Set factor to ${fmt(implicit)} (max_position_embeddings / original)`,
      kind: 'other',
      edits: ctx.editor.set(pathTo(fNode), float(implicit)),
    });
  return fixes;
}
