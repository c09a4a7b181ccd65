/**
 * consumer/attention-factor-differs: readers that load this file apply different YaRN attention
 * factors (the cos/sin multiplier, "mscale"). transformers 5.x computes it from the file's
 * `attention_factor`, else `mscale`/`mscale_all_dim` (get_mscale(f, mscale) / get_mscale(f,
 * mscale_all_dim), 1.0 when both are 1); vLLM's YaRN reads none of those keys and applies
 * 0.1·ln(factor) + 1 (≈ 1.387 at ×48). Same frequencies, different logit temperature: every
 * attention score at every length, with no error. Warning when a reader that counts (a current
 * release, or one the workspace pins or launches) differs from the file's meaning (transformers
 * 5's number); a hint when only an older generation nobody pins does. No fix: no key both read,
 * and which number the checkpoint was trained with is its trainer's to say.
 */
import type { Finding } from '../core/findings';
import { attentionFactorDiffers, intendedReading } from '../serving/consumers';
import { Rule, finding, keyRangeOf } from './context';
import { standingOf } from './readersThatCount';

export const ATTENTION_FACTOR_DIFFERS = 'consumer/attention-factor-differs';

const shown = (n: number) => String(Number(n.toFixed(4)));

/** The keys behind transformers 5's number, as the file writes them. */
function whyIntended(scaling: Record<string, unknown>): string {
  if (typeof scaling['attention_factor'] === 'number') return `from attention_factor ${scaling['attention_factor']}`;
  const m = scaling['mscale'],
    a = scaling['mscale_all_dim'];
  if (typeof m === 'number' && typeof a === 'number' && m && a) return `from mscale ${m} and mscale_all_dim ${a}`;
  return '0.1·ln(factor) + 1';
}

export const consumerAttentionFactorRule: Rule = {
  codes: [ATTENTION_FACTOR_DIFFERS],
  check(ctx) {
    const rope = ctx.model;
    if (ctx.fileKind !== 'model-config' || !rope?.scaling || !ctx.consumers?.length) return [];
    const intended = intendedReading(ctx.consumers);
    const wrong = ctx.consumers.filter((r) => attentionFactorDiffers(r, intended));
    if (!intended || !wrong.length) return [];
    const counted = wrong.some((r) => standingOf(r, ctx.pins).counts);
    const plain: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rope.scaling.params)) plain[k] = v.value;
    const numbers = [intended, ...wrong].map((r) => `${r.label} ${shown(r.attentionFactor!)}`).join(', ');
    const how = wrong.map((r) => r.attentionFactorHow).filter((h): h is string => h !== undefined);
    const detail =
      ` transformers 5.x takes it ${whyIntended(plain)}` +
      how.map((h) => `; ${h}`).join('') +
      '. The rotation frequencies agree; the attention temperature does not, at every length and with no error.' +
      " No key is read by both: which number the checkpoint was trained with is its trainer's to say.";
    const message = `Readers apply different YaRN attention factors: ${numbers}.${detail}`;
    const out: Finding[] = [finding(ATTENTION_FACTOR_DIFFERS, counted ? 'warning' : 'hint', message, keyRangeOf(ctx.doc, rope.scaling.node))];
    return out;
  },
};
