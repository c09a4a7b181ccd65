/**
 * launch/override-drops-keys (error): the command's scaling object lacks keys the model's attention
 * indexes without a default (vLLM's gpt-oss reads rope_scaling["beta_fast"] / ["beta_slow"]): the
 * override replaces the model's object, so loading fails with a KeyError. The engine module says
 * which keys its model code reads (LaunchEffect.droppedScalingKeys). Fix: remove the override's
 * scaling, so the model runs with its own.
 */
import type { Fix } from '../../core/findings';
import { finding } from '../context';
import { LaunchRule, LaunchRuleContext, overrideKeyRange, overrideScalingKey, useRange } from './context';
import { scalingWords } from '../../serving/launchModel';
import { jsonText } from '../../serving/common';

export const OVERRIDE_DROPS_KEYS = 'launch/override-drops-keys';

export const overrideDropsKeysRule: LaunchRule = {
  codes: [OVERRIDE_DROPS_KEYS],
  check(ctx) {
    const d = ctx.effect?.droppedScalingKeys;
    if (!d) return [];
    const key = overrideScalingKey(ctx);
    const range = key ? overrideKeyRange(ctx, [key]) : useRange(ctx.request.overrides?.option, ctx.commandRange);
    const own = ctx.modelFacts && ctx.modelFacts.type !== 'none' ? ` ${ctx.modelName}'s own ${scalingWords(ctx.modelFacts)} has them.` : '';
    return [
      finding(
        OVERRIDE_DROPS_KEYS,
        'error',
        `The override's scaling object replaces the model's whole and has no ${d.keys.map((k) => JSON.stringify(k)).join(', ')}, which ${d.reader} indexes: loading the model fails with a KeyError.${own}`,
        range,
        removeScalingFix(ctx, key),
      ),
    ];
  },
};

function removeScalingFix(ctx: LaunchRuleContext, key: string | undefined): Fix[] {
  const ov = ctx.request.overrides;
  if (!key || !ov?.value || !ov.option.value || ov.option.flag.value.includes('.')) return [];
  const rest: Record<string, unknown> = { ...ov.value };
  delete rest[key];
  const edits = Object.keys(rest).length
    ? ctx.editor.replaceValue(ov.option.value, jsonText(rest))
    : ctx.editor.removeOption([ov.option.flag, ...(ov.option.value !== ov.option.flag ? [ov.option.value] : [])]);
  const own = ctx.modelFacts && ctx.modelFacts.type !== 'none' ? ` (the model keeps its own ${scalingWords(ctx.modelFacts)})` : '';
  return edits.length ? [{ title: `Remove the override's ${key}${own}`, kind: 'other', preferred: true, edits }] : [];
}
