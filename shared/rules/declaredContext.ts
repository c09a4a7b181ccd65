/**
 * rope/context-extended at information: a stock checkpoint whose vendor declares a context above
 * the one it was trained at, with no scaling, and documents the scaling that makes that context good
 * (Qwen2.5-7B declares 131,072, trained at 32,768; its model card adds YaRN ×4 over 32,768). Every
 * engine serves the declared length unscaled, so positions past T are extrapolated unless the user
 * adds the vendor's block (advice.md, "trained context T"). Worded as the vendor's claim; the one fix
 * is the vendor's recipe. Only where the recipe reaches exactly the declared context: a declared
 * length the recipe was not written for (Qwen3's 40,960 beside its 131,072 recipe) is no such claim.
 */
import type { Finding } from '../core/findings';
import { RuleContext, finding, fmt, pathTo, rangeFor } from './context';
import { situationOf } from './situation';
import { modelTarget } from './targets';
import { extensionFixes } from '../fixes/extension';
import { vendorRecipeOf } from '../advice/recipes';
import { ropeGroups } from '../config/attentionGroups';
import { lengthScalingType, ropeReachAt } from '../config/reach';

/** The vendor-claim finding of a stock model config, or nothing (called by rope/context-extended). */
export function declaredContextFindings(ctx: RuleContext): Finding[] {
  const rope = ctx.model;
  if (ctx.fileKind !== 'model-config' || !rope?.identity || rope.identity.edit || !rope.shipped) return [];
  if (lengthScalingType(rope) !== 'none') return [];
  const sit = situationOf(rope);
  const C = sit.length;
  const T = sit.trained;
  // The vendor's own values: the shipped context, base and (no) scaling, declared above T.
  if (!sit.stock || sit.baseChanged || rope.shipped.contextLength !== C || !(C > T)) return [];
  const recipe = vendorRecipeOf(rope, T);
  if (!recipe || recipe.restores || recipe.reach !== C) return [];
  const reach = ropeReachAt(rope, C);
  if (!(reach > T)) return [];
  const fixes = extensionFixes({
    target: modelTarget(ctx, rope),
    rope,
    base: rope.base.value,
    dim: ropeGroups(rope)[0]?.rotaryDim.value ?? rope.rotaryDim.value,
    trained: T,
    length: C,
    reach,
    variant: ctx.variant,
    contextPath: rope.contextLength.node ? pathTo(rope.contextLength.node) : undefined,
    training: false,
  })
    .filter((f) => f.rewrite?.recipe)
    .map((f) => ({ ...f, preferred: true }));
  const key = rope.contextLength.key ?? 'max_position_embeddings';
  const name = recipe.scaling.rope_type === 'yarn' ? 'YaRN' : recipe.scaling.rope_type;
  const message =
    `Engines serve this ${fmt(C)}-token context unscaled, past the ${fmt(T)} tokens ${rope.identity.id} was trained at. ` +
    `${key} ${fmt(C)} is the vendor's claim with ${name} ×${fmt(recipe.scaling.factor)} over ${fmt(recipe.scaling.original_max_position_embeddings ?? T)}, as ${recipe.who} documents it, and the file sets no scaling: add that block to serve beyond ${fmt(T)}.`;
  const f: Finding = finding('rope/context-extended', 'information', message, rangeFor(ctx.doc, rope.contextLength), fixes);
  return [f];
}
