/**
 * One rule for judging a RoPE rewrite, and one wording for it, in every front-end (`check`'s fix
 * titles, `serve`, `plan`, the Inspector, hovers; docs/judgement.md, "One rule for scalings"):
 *
 *  - **trained** (pretraining, continued pretraining, fine-tuning past the trained context): the
 *    weights will learn the new frequencies, so the generalised bound judges them: "meets the bound
 *    at 65,536" / "holds to 40,960 of 65,536", and the preferred rewrite meets it.
 *  - **untrained** (serving, a shipped config's declared context): nothing retrains the weights, so
 *    a scaling is judged by its reach (factor × original ≥ C) and by the vendor's validation
 *    ("covers 131,072, validated by Qwen's model card").
 *    The bound on its effective frequencies is information only: it never contradicts "covers"
 *    and never titles a rewrite "holds to N of C".
 */
import type { FixVerdict } from '../core/findings';
import { fmt } from '../core/format';

export type ScalingUse = 'trained' | 'untrained';

/** What a rewrite writes, as far as its reach is concerned. */
export interface ReachInput {
  kind: string;
  /** Scaling factor, or the scale s a base was raised for. */
  factor: number;
  /** The context the scaling stretches from; default `from`. */
  original?: number;
}

/**
 * The longest context a rewrite reaches without training: factor × the context it stretches from.
 * Dynamic NTK recomputes its base for the running length, so it reaches whatever length it runs at.
 */
export function reachOf(r: ReachInput, from: number, length: number): number {
  if (r.kind === 'dynamic') return length;
  return Math.floor((r.original ?? from) * r.factor + 1e-6);
}

/**
 * A bound verdict judged for its use: trained verdicts stay the bound's; untrained ones add the
 * reach (and the vendor that validated the recipe, where one did).
 */
export function judgeRewrite(bound: FixVerdict, use: ScalingUse, r?: ReachInput & { from: number; validatedBy?: string }): FixVerdict {
  const plain: FixVerdict = { lmax: bound.lmax, length: bound.length };
  if (use === 'trained' || !r) return { ...plain, judgedBy: 'bound' };
  return {
    ...plain,
    judgedBy: 'reach',
    reach: reachOf(r, r.from, bound.length),
    ...(r.original !== undefined || r.kind !== 'dynamic' ? { from: r.original ?? r.from } : {}),
    ...(r.validatedBy ? { validatedBy: r.validatedBy } : {}),
  };
}

/** Whether the verdict answers its question: untrained, the reach covers C; trained, the bound is met. */
export function verdictPasses(v: FixVerdict): boolean {
  return v.judgedBy === 'reach' ? (v.reach ?? 0) >= v.length : v.lmax === null;
}

/**
 * The one wording of a verdict (fix titles, `serve`, `plan`, Inspector, hover):
 * trained "meets the bound at 65,536" / "holds to 40,960 of 65,536"; untrained "covers 131,072,
 * validated by Qwen's model card" / "covers 65,536" / "reaches 98,304 of 131,072".
 */
export function verdictText(v: FixVerdict): string {
  if (v.judgedBy !== 'reach') return v.lmax === null ? `meets the bound at ${fmt(v.length)}` : `holds to ${fmt(v.lmax)} of ${fmt(v.length)}`;
  const reach = v.reach ?? 0;
  if (reach < v.length) return `reaches ${fmt(reach)} of ${fmt(v.length)}`;
  return `covers ${fmt(v.length)}${v.validatedBy ? `, validated by ${v.validatedBy}` : ''}`;
}

/**
 * The bound on an untrained rewrite's effective frequencies, as information beside its reach
 * (where a front-end shows it: `serve`'s comment, `plan`'s no-training line, the Inspector);
 * undefined for trained verdicts, whose text already is the bound's.
 */
export function boundInformation(v: FixVerdict): string | undefined {
  if (v.judgedBy !== 'reach') return undefined;
  return v.lmax === null
    ? `its effective frequencies also meet the bound at ${fmt(v.length)}`
    : `the bound on its effective frequencies, ${fmt(v.lmax)} of ${fmt(v.length)}, is information: without training a scaling is judged by its reach`;
}
