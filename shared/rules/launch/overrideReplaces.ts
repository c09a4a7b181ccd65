/**
 * launch/override-replaces-scaling (warning): the command sets a scaling (an override object,
 * llama.cpp or TGI flags) on a model that ships its own, and the two differ. vLLM and SGLang apply
 * an override object whole (`config.update`: no merge), llama.cpp's flags replace the GGUF's
 * rope.scaling.*, TGI's replace config.json's: the model then runs with the command's scaling, not
 * the one it was trained with. Said with both, so the user can tell whether that was meant.
 */
import type { Fix } from '../../core/findings';
import { finding, fmt } from '../context';
import { LaunchRule, LaunchRuleContext, engineOf, overrideKeyRange, overrideScalingKey, useRange } from './context';
import { scalingWords } from '../../serving/launchModel';
import { type ScalingFacts, jsonText } from '../../serving/common';

export const OVERRIDE_REPLACES_SCALING = 'launch/override-replaces-scaling';

function same(a: number | undefined, b: number | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)));
}

/** The command's scaling is the model's own in type, factor and original context (other keys aside). */
export function sameScaling(cmd: ScalingFacts, own: ScalingFacts): boolean {
  return cmd.type === own.type && same(cmd.factor, own.factor) && same(cmd.original, own.original);
}

/**
 * The model's own scaling re-sized for a context raised past what it covers (advice.md situation 4:
 * Llama-3.1's llama3 ×8 over 8,192 written as ×32 for 262,144): the same type over the same original,
 * a larger factor that covers the context the override asks for. That extension is the point, not a replacement.
 */
function resizedToCover(cmd: ScalingFacts, own: ScalingFacts, context: number): boolean {
  if (cmd.type !== own.type || (cmd.type !== 'llama3' && cmd.type !== 'yarn') || !same(cmd.original, own.original)) return false;
  if (cmd.factor === undefined || own.factor === undefined || cmd.original === undefined || !(cmd.factor > own.factor)) return false;
  return cmd.factor * cmd.original >= context * 0.999;
}

/** The command replaces the model's own scaling, a re-sized one for a raised context aside. */
export function replacesOwnScaling(ctx: LaunchRuleContext): boolean {
  const e = ctx.effect;
  if (!e?.replacesModelScaling) return false;
  return !(ctx.modelFacts && resizedToCover(e.facts, ctx.modelFacts, e.rope.contextLength.value));
}

export const overrideReplacesRule: LaunchRule = {
  codes: [OVERRIDE_REPLACES_SCALING],
  check(ctx) {
    const e = ctx.effect,
      own = ctx.modelFacts;
    // A scaling that lacks an indexed key never loads (launch/override-drops-keys says so): nothing runs with it.
    if (!e || !own || !replacesOwnScaling(ctx) || e.droppedScalingKeys) return [];
    if (sameScaling(e.facts, own)) return [];
    const cmd = e.facts;
    const key = overrideScalingKey(ctx);
    const where = ctx.request.overrides?.option ?? ctx.request.rope['rope-scaling'] ?? ctx.request.rope['rope-scale'] ?? ctx.request.rope['rope-factor'];
    const range = key ? overrideKeyRange(ctx, [key]) : useRange(where, ctx.commandRange);
    const how = engineOf(ctx).replacesScaling ?? "the command's scaling replaces the model's";
    const trained = ctx.trained !== undefined ? ` (trained context ${fmt(ctx.trained)})` : '';
    return [
      finding(
        OVERRIDE_REPLACES_SCALING,
        'warning',
        `The model runs with the command's ${scalingWords(cmd)}, not the ${scalingWords(own)} it was trained with.`,
        range,
        keepOwnFix(ctx, scalingWords(own)),
        `The command replaces ${ctx.modelName}'s own ${scalingWords(own)}, the scaling it was trained with${trained}: ${how}.`,
      ),
    ];
  },
};

/**
 * The fix an engineer reaches for: drop the replacing scaling and let the model run with its own
 * (the rest of the override stays). Only for JSON overrides, where the key is plain to remove.
 */
function keepOwnFix(ctx: LaunchRuleContext, own: string): Fix[] {
  const ov = ctx.request.overrides;
  if (!ov?.value || !ov.option.value || ov.option.flag.value.includes('.')) return [];
  const rest: Record<string, unknown> = { ...ov.value };
  const key = 'rope_scaling' in rest ? 'rope_scaling' : 'rope_parameters' in rest ? 'rope_parameters' : undefined;
  if (!key) return [];
  delete rest[key];
  const edits = Object.keys(rest).length
    ? ctx.editor.replaceValue(ov.option.value, jsonText(rest))
    : ctx.editor.removeOption([ov.option.flag, ...(ov.option.value !== ov.option.flag ? [ov.option.value] : [])]);
  return edits.length ? [{ title: `Remove the override's ${key} (run with the model's own ${own})`, kind: 'other', preferred: true, edits }] : [];
}
