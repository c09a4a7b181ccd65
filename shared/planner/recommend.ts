/**
 * The recommendation for one stage: among the options a trainer can write and train with, the one
 * that meets the bound at the stage length and moves the frequencies the checkpoint runs as shipped
 * least (mean |ln θ′/θ| over pairs, its own scaling included), keeping that scaling where an option
 * does; ties go to the option more trainers can write. Keeping the shipped config counts only
 * where the config already declares the stage length. When nothing qualifies, the reason says why.
 */
import type { PlanMethod, PlanOption } from './types';
import { PLAN_PROOF_MAX_LENGTH } from './options';
import { enUS } from '../core/format';

export interface Recommendation {
  method: PlanMethod | null;
  reason: string;
}

const fmt = (n: number) => enUS(n);

function eligible(o: PlanOption, L: number, shippedContext: number): boolean {
  if (!o.meetsBound || !o.expressible || !o.trainable) return false;
  if (o.neighbourhood !== undefined && o.neighbourhood !== 'proven') return false;
  return o.method !== 'as-shipped' || L <= shippedContext;
}

/**
 * Whether an option drops the scaling the model ships (issue 33): every base option does (its
 * frequencies are the plain ones, written with `rope_scaling: null`), and so does a scaling of
 * another type; the same type with a new factor (llama3 for Llama-3.1) keeps the family's own.
 */
export function replacesShippedScaling(o: Pick<PlanOption, 'method'>, shippedScaling: string | undefined): boolean {
  return !!shippedScaling && o.method !== 'as-shipped' && o.method !== shippedScaling;
}

/**
 * Eligible options: those that keep the model's own scaling first, then the smallest change to the
 * frequencies it runs as shipped (so as shipped wins where it meets the bound), then the option
 * more trainers can write.
 */
export function rankOptions(options: readonly PlanOption[], L: number, shippedContext: number, shippedScaling?: string): PlanOption[] {
  const replaces = (o: PlanOption) => (replacesShippedScaling(o, shippedScaling) ? 1 : 0);
  return options
    .filter((o) => eligible(o, L, shippedContext))
    .sort((a, b) => replaces(a) - replaces(b) || a.change - b.change || b.trainers.length - a.trainers.length);
}

export function recommend(
  options: readonly PlanOption[],
  L: number,
  shippedContext: number,
  shippedScaling?: string,
  proofMaxLength = PLAN_PROOF_MAX_LENGTH,
): Recommendation {
  const ranked = rankOptions(options, L, shippedContext, shippedScaling);
  const best = ranked[0];
  if (best) {
    const next = ranked[1];
    const what =
      best.method === 'as-shipped'
        ? `the config as shipped already declares ${fmt(shippedContext)} tokens and its frequencies meet the bound at ${fmt(L)}`
        : `${best.label} meets the bound at ${fmt(L)} with the smallest change to the frequencies as shipped (mean |ln θ′/θ| = ${best.change.toFixed(3)})`;
    const replaced = replacesShippedScaling(best, shippedScaling) ? `; it replaces the model's own ${shippedScaling} scaling` : '';
    const runnerUp = next ? `; next: ${next.label} (${next.change.toFixed(3)})` : '';
    const writers = best.trainers.length ? `; written by ${best.trainers.join(', ')}` : '';
    return { method: best.method, reason: `${what}${writers}${replaced}${runnerUp}.` };
  }
  const usable = options.filter((o) => o.expressible && o.trainable && o.method !== 'as-shipped');
  const closest = usable.slice().sort((a, b) => b.lmax - a.lmax)[0];
  const perDim = options.filter((o) => !o.expressible && o.meetsBound).map((o) => o.label);
  const parts = [`No option a trainer can write meets the bound at ${fmt(L)}`];
  if (closest) parts.push(`the closest, ${closest.label}, holds to ${fmt(closest.lmax)} of ${fmt(L)}`);
  if (!options.some((o) => o.method === 'robust-base')) {
    parts.push(
      L > proofMaxLength
        ? `a robust base (every base within ±10% valid) is proven only up to ${fmt(proofMaxLength)} tokens in the editor's plan (\`rope-lens plan\` proves every length)`
        : 'no round base up to the search limit is valid with a ±10% margin at this length',
    );
  }
  if (perDim.length) parts.push(`${perDim.join(' and ')} would, but no config key expresses per-dimension factors`);
  parts.push('use shorter stages or a larger rotary dimension');
  return { method: null, reason: parts.join('; ') + '.' };
}
