/**
 * launch/override-drops-keys: the command's scaling object replaces the model's whole and lacks keys
 * the model's attention reads. The engine module says which keys its model code reads and how
 * (LaunchEffect.droppedScalingKeys / defaultedScalingKeys, serving/scalingReads.ts):
 * - error: a key indexed without a default (vLLM's gpt-oss reads rope_scaling["beta_fast"], DeepSeek's
 *   get_rope ["original_max_position_embeddings"]): loading fails with a KeyError. Fix: remove the
 *   override's scaling, so the model runs with its own.
 * - warning: a key read with a default that differs from the model's value (DeepSeek-V3's
 *   mscale_all_dim 1.0, read as `.get("mscale_all_dim", False)`): the server starts and silently runs
 *   another attention scale than the model was trained with. Only when the override otherwise repeats
 *   the model's scaling (type, factor, original): a different scaling is launch/override-replaces-scaling's
 *   finding, which already says the model runs with the command's. Fix: write the model's values into
 *   the override (preferred: it keeps what the user wrote), or remove the override's scaling.
 */
import type { Fix } from '../../core/findings';
import { finding } from '../context';
import { LaunchRule, LaunchRuleContext, overrideKeyRange, overrideScalingKey, useRange } from './context';
import { scalingWords } from '../../serving/launchModel';
import { jsonText } from '../../serving/common';
import { sameScaling } from './overrideReplaces';

export const OVERRIDE_DROPS_KEYS = 'launch/override-drops-keys';

export const overrideDropsKeysRule: LaunchRule = {
  codes: [OVERRIDE_DROPS_KEYS],
  check(ctx) {
    const d = ctx.effect?.droppedScalingKeys;
    const key = overrideScalingKey(ctx);
    const range = key ? overrideKeyRange(ctx, [key]) : useRange(ctx.request.overrides?.option, ctx.commandRange);
    if (d) {
      const own =
        ctx.modelFacts && ctx.modelFacts.type !== 'none'
          ? ` ${ctx.modelName}'s own ${scalingWords(ctx.modelFacts)} has ${d.keys.length > 1 ? 'them' : 'it'}.`
          : '';
      return [
        finding(
          OVERRIDE_DROPS_KEYS,
          'error',
          `Loading the model fails with a KeyError: the override's scaling has no ${d.keys.map((k) => JSON.stringify(k)).join(', ')}.`,
          range,
          removeScalingFix(ctx, key),
          `The override's scaling object replaces the model's whole, and ${d.reader} indexes ${d.keys.length > 1 ? 'these keys' : 'this key'}.${own}`,
        ),
      ];
    }
    const def = ctx.effect?.defaultedScalingKeys;
    if (!def || !ctx.effect || !ctx.modelFacts || !sameScaling(ctx.effect.facts, ctx.modelFacts)) return [];
    const list = def.keys.map((k) => `${JSON.stringify(k.key)} (${ctx.modelName} ships ${shown(k.own)}; the default is ${shown(k.engineDefault)})`).join(', ');
    return [
      finding(
        OVERRIDE_DROPS_KEYS,
        'warning',
        `The server runs with default ${def.keys.map((k) => k.key).join(', ')}, not the values the model was trained with.`,
        range,
        [...completeScalingFix(ctx, key, def.keys), ...removeScalingFix(ctx, key, false)],
        `The override's scaling object replaces the model's whole and has no ${list}, which ${def.reader} reads with a default${def.keys.some((k) => k.key === 'mscale_all_dim' || k.key === 'mscale') ? ' (the attention scale and the rotary magnitudes change)' : ''}.`,
      ),
    ];
  },
};

/** A value as the config writes these float keys (`1.0`, not `1`). */
const shown = (v: unknown): string => (typeof v === 'number' && Number.isInteger(v) ? v.toFixed(1) : String(v));

/** The override's own value and edits to write it back (JSON overrides written as one object only). */
function overrideEdit(ctx: LaunchRuleContext, key: string | undefined, next: (rest: Record<string, unknown>) => void) {
  const ov = ctx.request.overrides;
  if (!key || !ov?.value || !ov.option.value || ov.option.flag.value.includes('.')) return [];
  const rest: Record<string, unknown> = { ...ov.value };
  next(rest);
  return Object.keys(rest).length
    ? ctx.editor.replaceValue(ov.option.value, jsonText(rest))
    : ctx.editor.removeOption([ov.option.flag, ...(ov.option.value !== ov.option.flag ? [ov.option.value] : [])]);
}

function removeScalingFix(ctx: LaunchRuleContext, key: string | undefined, preferred = true): Fix[] {
  const edits = overrideEdit(ctx, key, (rest) => {
    delete rest[key!];
  });
  const own = ctx.modelFacts && ctx.modelFacts.type !== 'none' ? ` (the model keeps its own ${scalingWords(ctx.modelFacts)})` : '';
  return edits.length ? [{ title: `Remove the override's ${key}${own}`, kind: 'other', preferred, edits }] : [];
}

/** Adds the model's own values of the defaulted keys to the override's scaling object. */
function completeScalingFix(ctx: LaunchRuleContext, key: string | undefined, keys: { key: string; own: unknown }[]): Fix[] {
  const edits = overrideEdit(ctx, key, (rest) => {
    const sc = rest[key!] as Record<string, unknown>;
    rest[key!] = { ...sc, ...Object.fromEntries(keys.map((k) => [k.key, k.own])) };
  });
  const what = keys.map((k) => `${k.key} ${shown(k.own)}`).join(', ');
  return edits.length ? [{ title: `Add the model's ${what} to the override's ${key}`, kind: 'other', preferred: true, edits }] : [];
}
