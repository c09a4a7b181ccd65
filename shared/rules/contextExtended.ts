/**
 * rope/context-extended (warning): a model config whose context was raised beyond the context the
 * checkpoint was trained at, with no RoPE scaling and the base it shipped with — the classic silent
 * mistake (advice.md, situation 3). Positions beyond T are extrapolated. Anchored on the context
 * key; the fixes rescale from the trained context (see fixes/extension.ts). A stock config whose
 * vendor declares a context above T and documents a scaling for it gets this code at information
 * (declaredContext.ts).
 */
import type { Finding, Fix } from '../core/findings';
import type { RopeTarget } from '../fixes/rewrites';
import { fmtPlain } from '../core/format';
import { Rule, finding, fmt, pathTo, rangeFor } from './context';
import { situationOf } from './situation';
import { declaredContextFindings } from './declaredContext';
import { modelTarget } from './targets';
import { extensionFixes } from '../fixes/extension';
import { ropeGroups } from '../config/attentionGroups';
import { isLlamaFamily } from './families';
import { windowsCover } from '../advice/advice';
import { roundFactor, writeBase } from '../fixes/rewrites';
import { editedBase } from '../config/editOrDerivative';
import { pastShippedScalingFinding } from './pastScaling';
import { familyAssumptionOf, findListedEntry } from '../config/catalog';

export const CONTEXT_EXTENDED = 'rope/context-extended';

export const contextExtendedRule: Rule = {
  codes: [CONTEXT_EXTENDED],
  check(ctx) {
    const rope = ctx.model;
    if (ctx.fileKind !== 'model-config' || !rope) return [];
    const sit = situationOf(rope);
    // A shipped scaling kept as shipped while the context asks for more than it covers (situation 4).
    const past = sit.scaled ? pastShippedScalingFinding(ctx, rope, CONTEXT_EXTENDED) : undefined;
    if (past) return [past];
    // A stock config's declared context above T is the vendor's claim: information, with its recipe.
    if (!sit.extended) return declaredContextFindings(ctx);
    const C = sit.length;
    const T = sit.trained;
    // Every RoPE layer slides within a window the model was trained on (Mistral-7B-v0.1, Phi-3-mini-4k): no new distance.
    if (windowsCover(rope, C, T)) return [];
    const group = ropeGroups(rope)[0];
    const dim = group?.rotaryDim.value ?? rope.rotaryDim.value;
    // The widest reach any rotary layer has: the context for full attention, the window when every layer slides.
    const reach = Math.max(0, ...ropeGroups(rope).map((g) => g.reach));
    const key = rope.contextLength.key ?? 'max_position_embeddings';
    const family = familyAssumptionOf(sit.trainedSource);
    const kin = rope.identity?.family && !family ? rope.identity : undefined;
    const trainedFrom = kin
      ? ` (as every ${kin.family} model of this architecture: ${distinctModels(kin.candidates ?? [kin.id]).join(', ')}; per the catalog)`
      : sit.trainedSource.startsWith('catalog:')
        ? ` (${sit.trainedSource.slice('catalog:'.length)}, ${family ? `assumed from the ${family.generation} family` : 'per the catalog'})`
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
    const edit = editedBase(rope);
    // An edit of a shipped model (advice.md "Derivatives"): the assumption is said where the user reads on.
    const assumption = rope.identity?.edit
      ? ` Assumed an edit of ${rope.identity.id}: its ${rope.identity.edit.join(', ')} ${edit ? `fails the bound at ${fmt(C)}` : 'differs'} and nothing shows it was trained so.`
      : '';
    const detail =
      (lost
        ? `${key} ${fmt(C)} is what ${rope.identity!.id} ships with its ${lost} scaling; without it, positions past the ${fmt(T)} tokens it was trained at${trainedFrom} are extrapolated. Restore its ${lost} scaling (or set ${key} back to ${fmt(T)}).`
        : `${key} ${fmt(C)} is beyond the ${fmt(T)} tokens this checkpoint was trained at${trainedFrom}; extrapolated positions degrade the model silently. ` +
          `Scale RoPE by factor ${fmt(factor)}${factor === C / T ? '' : ` (${fmt(C)} / ${fmt(T)} rounded up to a quarter, so the scaling covers ${fmt(C)})`} or set ${key} back to ${fmt(T)}.`) +
      assumption;
    const target = modelTarget(ctx, rope);
    const built = extensionFixes({
      target,
      rope,
      // An edit's fixes are measured from what the model shipped, and put its base back.
      base: edit?.shipped ?? rope.base.value,
      dim,
      trained: T,
      length: C,
      reach: reach > 0 ? reach : C,
      llamaFamily: isLlamaFamily(rope.modelType),
      variant: ctx.variant,
      contextPath: rope.contextLength.node ? pathTo(rope.contextLength.node) : undefined,
      training: false,
    });
    const fixes = edit ? restoringBase(built, target, edit) : built;
    const f: Finding = finding(CONTEXT_EXTENDED, 'warning', message, rangeFor(ctx.doc, rope.contextLength, rope.base), fixes, detail);
    return [f];
  },
};

/**
 * Scaling fixes for an edit also put the shipped base back (their verdicts assume it); base fixes
 * already write a base computed from it. A fix that cannot write the base is dropped, not offered half done.
 */
function restoringBase(fixes: Fix[], target: RopeTarget, edit: { shipped: number; edited: number }): Fix[] {
  const out: Fix[] = [];
  for (const fix of fixes) {
    if (fix.kind === 'ntk' || fix.kind === 'raise-base') {
      out.push({ ...fix, title: fix.title.replace(`${fmtPlain(edit.shipped)} →`, `${fmtPlain(edit.edited)} →`) });
      continue;
    }
    if (!target.basePath) continue;
    const restore = `, ${target.baseName} back to ${fmtPlain(edit.shipped)}`;
    const title = fix.title.includes(' — ') ? fix.title.replace(' — ', `${restore} — `) : fix.title + restore;
    out.push({ ...fix, title, edits: [...fix.edits, ...writeBase(target, edit.shipped)] });
  }
  if (out.length && !out.some((f) => f.preferred)) out[0].preferred = true;
  return out;
}

/** Up to three models named by their ids, aliases of one entry once (`meta-llama/Meta-Llama-3-8B, meta-llama/Llama-3.1-8B, …`). */
function distinctModels(ids: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ids) {
    const e = findListedEntry(id);
    const key = e ? e.id : id;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(key);
  }
  return out.length > 3 ? [...out.slice(0, 3), '…'] : out;
}
