/**
 * rope/context-extended (warning): a model config whose context was raised beyond the context the
 * checkpoint was trained at, with no RoPE scaling and the base it shipped with — the classic silent
 * mistake (advice.md, situation 3). Positions beyond T are extrapolated. Anchored on the context
 * key; the fixes rescale from the trained context (see fixes/extension.ts).
 */
import type { Finding } from '../core/findings';
import { Rule, finding, fmt, pathTo, rangeFor } from './context';
import { situationOf } from './situation';
import { modelTarget } from './targets';
import { extensionFixes } from '../fixes/extension';
import { ropeGroups } from '../config/attentionGroups';
import { isLlamaFamily } from './families';
import { windowsCover } from '../advice/advice';
import { roundFactor } from '../fixes/rewrites';

export const CONTEXT_EXTENDED = 'rope/context-extended';

export const contextExtendedRule: Rule = {
  codes: [CONTEXT_EXTENDED],
  check(ctx) {
    const rope = ctx.model;
    if (ctx.fileKind !== 'model-config' || !rope) return [];
    const sit = situationOf(rope);
    if (!sit.extended) return [];
    const C = sit.length;
    const T = sit.trained;
    // Every RoPE layer slides within a window the model was trained on (Mistral-7B-v0.1, Phi-3-mini-4k): no new distance.
    if (windowsCover(rope, C, T)) return [];
    const group = ropeGroups(rope)[0];
    const dim = group?.rotaryDim.value ?? rope.rotaryDim.value;
    // The widest reach any rotary layer has: the context for full attention, the window when every layer slides.
    const reach = Math.max(0, ...ropeGroups(rope).map((g) => g.reach));
    const key = rope.contextLength.key ?? 'max_position_embeddings';
    const trainedFrom = sit.trainedSource.startsWith('catalog:')
      ? ` (${sit.trainedSource.slice('catalog:'.length)}, per the catalog)`
      : sit.trainedSource.startsWith('config:')
        ? ` (${sit.trainedSource.slice('config:'.length)})`
        : '';
    const lost = rope.identity?.lostScaling;
    // The headline names the key as the file writes it (its last segment); the path is where it points.
    const written = key.split('.').pop();
    // The factor the scaling fixes write (C / T rounded up to a quarter), so message and fixes say one number.
    const factor = roundFactor(C / T);
    const message = lost
      ? `The model runs unscaled past ${fmt(T)} tokens: this file lacks the ${lost} scaling the checkpoint ships with.`
      : `Positions past ${fmt(T)} tokens are extrapolated: ${written} is ${fmt(C)} with no RoPE scaling.`;
    const detail = lost
      ? `${key} ${fmt(C)} is what ${rope.identity!.id} ships with its ${lost} scaling; without it, positions past the ${fmt(T)} tokens it was trained at${trainedFrom} are extrapolated. Restore its ${lost} scaling (or set ${key} back to ${fmt(T)}).`
      : `${key} ${fmt(C)} is beyond the ${fmt(T)} tokens this checkpoint was trained at${trainedFrom}; extrapolated positions degrade the model silently. ` +
        `Scale RoPE by factor ${fmt(factor)}${factor === C / T ? '' : ` (${fmt(C)} / ${fmt(T)} rounded up to a quarter, so the scaling covers ${fmt(C)})`} or set ${key} back to ${fmt(T)}.`;
    const target = modelTarget(ctx, rope);
    const fixes = extensionFixes({
      target,
      rope,
      base: rope.base.value,
      dim,
      trained: T,
      length: C,
      reach: reach > 0 ? reach : C,
      llamaFamily: isLlamaFamily(rope.modelType),
      variant: ctx.variant,
      contextPath: rope.contextLength.node ? pathTo(rope.contextLength.node) : undefined,
      training: false,
    });
    const f: Finding = finding(CONTEXT_EXTENDED, 'warning', message, rangeFor(ctx.doc, rope.contextLength, rope.base), fixes, detail);
    return [f];
  },
};
