/**
 * rope/context-extended (warning) for a context raised past what a shipped scaling covers (advice.md
 * situation 4): the file keeps the scaling the checkpoint ships (same type and factor) but asks for
 * more than the checkpoint ships it for. Llama-3.1-8B's llama3 ×8 covers 131,072; a config raised to
 * 262,144 with ×8 kept extrapolates past 131,072. The part beyond is situation 3: the family's own
 * scaling re-sized (llama3 ×32 over 8,192) is the preferred fix, then the context set back.
 * YaRN's case is rope/factor-mismatch's (original × factor against max_position_embeddings).
 */
import type { Finding, Fix } from '../core/findings';
import type { ModelRope } from '../config/modelRope';
import { RuleContext, finding, fmt, numParam, pathTo, rangeFor, scalingKeyName } from './context';
import { lengthScalingType, modelReach } from '../config/reach';
import { float } from '../fixes/render';
import { roundFactor } from '../fixes/rewrites';
import { modelTarget } from './targets';

/** The warning, or undefined when the scaling in the file covers its context. */
/** The context asks past what a shipped llama3, linear or longrope scaling covers (situation 4's warning). */
export function pastShippedScaling(rope: ModelRope): boolean {
  const type = lengthScalingType(rope);
  if (type !== 'llama3' && type !== 'linear' && type !== 'longrope') return false;
  const reach = modelReach(rope);
  return !!reach.shippedScaling && rope.contextLength.value > reach.value;
}

export function pastShippedScalingFinding(ctx: RuleContext, rope: ModelRope, code: string): Finding | undefined {
  if (!pastShippedScaling(rope)) return undefined;
  const type = lengthScalingType(rope) as 'llama3' | 'linear' | 'longrope';
  const reach = modelReach(rope);
  const C = rope.contextLength.value;
  const s = rope.scaling!;
  const factor = numParam(s, 'factor');
  const key = rope.contextLength.key ?? 'max_position_embeddings';
  const written = key.split('.').pop();
  const name = s.rawType?.value ?? type;
  const kept = factor !== undefined ? `${name} ×${fmt(factor)}` : name;
  const message = `Positions past ${fmt(reach.value)} tokens are extrapolated: the ${kept} scaling covers ${fmt(reach.value)}, not ${fmt(C)}.`;
  const { fixes, resized } = resizeFixes(ctx, rope, type, factor, C, reach.value);
  const detail =
    `${key} ${fmt(C)} asks for more than ${reach.basis}: the scaling was kept as shipped, so positions past ${fmt(reach.value)} were never trained. ` +
    (resized
      ? `Re-size the ${name} factor from ${fmt(factor!)} to ${fmt(resized.factor)} (from ${fmt(resized.from)}, covering ${fmt(resized.factor * resized.from)}), or set ${written} back to ${fmt(reach.value)}.`
      : `A ${name} block cannot be re-sized by an edit (its factors are per dimension): set ${written} back to ${fmt(reach.value)}.`);
  return finding(code, 'warning', message, rangeFor(ctx.doc, rope.contextLength, s.params['factor'] ?? rope.base), fixes, detail);
}

/** The family's own scaling re-sized to cover C (preferred), then the context set back to what the scaling covers. */
function resizeFixes(
  ctx: RuleContext,
  rope: ModelRope,
  type: string,
  factor: number | undefined,
  C: number,
  covered: number,
): { fixes: Fix[]; resized?: { factor: number; from: number } } {
  const out: Fix[] = [];
  let resized: { factor: number; from: number } | undefined;
  const s = rope.scaling!;
  const target = modelTarget(ctx, rope);
  const blockPath = s.node ? pathTo(s.node) : undefined;
  if (blockPath && factor !== undefined && type !== 'longrope') {
    // llama3 stretches from its original context; linear from the context before its factor.
    const from = type === 'llama3' ? numParam(s, 'original_max_position_embeddings') : covered / factor;
    if (from !== undefined && from > 0) {
      const next = roundFactor(C / from);
      if (next > factor) {
        const edits = target.editor.set([...blockPath, 'factor'], float(next));
        const over = type === 'llama3' ? ` over original_max_position_embeddings ${fmt(from)}` : ` from ${fmt(from)}`;
        if (edits.length) resized = { factor: next, from };
        if (edits.length)
          out.push({
            title: `Re-size the ${scalingKeyName(s)} ${type} scaling: factor ${fmt(factor)} → ${fmt(next)}${over}, covers ${fmt(next * from)}`,
            kind: type === 'llama3' ? 'llama3' : 'linear',
            preferred: true,
            edits,
          });
      }
    }
  }
  if (rope.contextLength.node) {
    const edits = target.editor.set(pathTo(rope.contextLength.node), covered);
    if (edits.length)
      out.push({ title: `Set ${rope.contextLength.key ?? 'max_position_embeddings'} back to ${covered}`, kind: 'other', preferred: out.length === 0, edits });
  }
  return { fixes: out, resized };
}
