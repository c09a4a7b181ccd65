/**
 * One answer to one question: for a model and a target length C, which rewrite RoPE Lens
 * recommends (advice.md, situation 3). `check`'s preferred quick fix (config and launch lines),
 * `serve`'s written command for every engine, the Inspector's recommendation and `plan`'s
 * no-training line all come from `adviseRewrite`, so they agree on the rewrite, the trained
 * context T and the reach the verdicts are judged over.
 *
 * The candidates, with s = C / R (R: where the model's own values stop, normally T):
 *   the vendor's recipe (its shipped scaling the file lost, or the model card's documented one);
 *   NTK-aware base b·s^(d/(d−2)); YaRN {s, R}; linear {s}; llama3 {s, 1, 4, R} (Llama family);
 *   dynamic NTK {s} (inference only); Gradient's law base (training only).
 * Each is judged by the generalised bound Σ cos(m·θᵢ′) ≥ 0 for m below the reach.
 *
 * One rule judges them (scalingVerdict.ts, docs/judgement.md "One rule for scalings"). Running a
 * checkpoint as is (untrained): whether the rewrite reaches C (factor × original), then the vendor's
 * recipe, then the family's own scaling (llama3 for the Llama 3 line, the type a model ships or its
 * vendor documents), then the training-free methods in the order practitioners use them (YaRN,
 * NTK-aware base, llama3, dynamic, linear); the bound on the frequencies is information there.
 * Training at C: the rewrites that meet the bound (a base only with its ±10% neighbourhood proven,
 * as `plan` requires) with the smallest change to the frequencies as shipped, as `plan` ranks them;
 * when none does, the one that holds furthest.
 */
import type { ModelRope } from '../config/modelRope';
import type { FixVerdict } from '../core/findings';
import type { RopeSpec, TransformersVariant } from '../rope/spec';
import { computeFrequencies } from '../rope/invFreq';
import { firstNegative } from '../rope/fb';
import { gradientThetaBase, ntkAwareBase } from '../rope/seedMethods';
import { trainedContextOf } from '../config/trainedContext';
import { everyRopeLayerWindow, lengthScalingType, modelReach, ropeReachAt } from '../config/reach';
import { ropeGroups } from '../config/attentionGroups';
import { VendorRecipe, familyScalingKind, vendorRecipeOf } from './recipes';
import { boundInformation, judgeRewrite, verdictPasses, verdictText } from './scalingVerdict';
import { fmt } from '../core/format';

export { verdictText } from './scalingVerdict';

export type RewriteKind = 'ntk' | 'yarn' | 'linear' | 'dynamic' | 'llama3' | 'raise-base';

export interface RewriteOption {
  kind: RewriteKind;
  /** Scaling factor (scaling kinds) or the scale s the base was raised for (ntk). */
  factor: number;
  /** The context the scaling stretches from (yarn, llama3). */
  original?: number;
  /** The new base (ntk, raise-base). */
  base?: number;
  /** The scaling block to write (scaling kinds), modern spelling; a recipe's keys as the vendor writes them. */
  scaling?: Record<string, unknown>;
  /** Set when this option is the vendor's recipe. */
  recipe?: VendorRecipe;
  /** The frequencies it makes, and the running length for dynamic NTK. */
  spec: RopeSpec;
  seqLen?: number;
  verdict?: FixVerdict;
  /** Trained: mean |ln θ′/θ| from the frequencies as shipped, `plan`'s "change". */
  change?: number;
  /** Trained, a base (ntk, raise-base): whether every base within ±10% of it is proven valid at C. */
  robust?: boolean;
  /** The smallest robust valid base (a raise-base option), as `rope/base-below-bound` and `plan` choose it. */
  smallestRobust?: boolean;
  /** "YaRN ×4 over 32,768 (Qwen/Qwen2.5-7B-Instruct's model card)", for notes and messages. */
  label: string;
}

export interface RewriteAdvice {
  /** The context the checkpoint was trained at (config, catalog, else max_position_embeddings). */
  trained: number;
  /** Where the model's own values stop (T, or a fine-tune's own context): the length a scaling extends from. */
  from: number;
  length: number;
  /** The largest distance a RoPE layer sees at the length: what the verdicts are judged over. */
  reach: number;
  base: number;
  dim: number;
  /** Every candidate, best first. */
  options: RewriteOption[];
  preferred: RewriteOption;
  /** The vendor's recipe, when the model has one (also when it does not reach the length). */
  recipe?: VendorRecipe;
  /** One sentence: why the preferred rewrite is preferred (and why not the recipe, when it is not). */
  why: string;
}

export interface AdviceInput {
  rope: ModelRope;
  /** The target length C. */
  length: number;
  /** T; default: the reader's trained context. */
  trained?: number;
  /** The length to extend from; default: where the model's own values stop. */
  from?: number;
  /** The distance to judge; default: the longest a RoPE layer sees at C (sliding windows honoured). */
  reach?: number;
  /** Base and rotary dimension of the group being extended; default: the full-attention group. */
  base?: number;
  dim?: number;
  variant?: TransformersVariant;
  /** The file trains at C (a fine-tuning config) rather than runs a checkpoint as is. */
  training?: boolean;
  /** Only new scaling blocks (the model runs a scaling a new base would sit under). */
  scalingOnly?: boolean;
  /**
   * Training: the smallest round base whose ±10% neighbourhood is proven valid at C (the bound
   * oracle's answer, as `rope/base-below-bound` and `plan` find it), offered as a candidate.
   */
  robustBase?: number;
  /** Training: whether every base within ±10% of `base` is proven valid at C (undefined: not known). */
  provenBase?: (base: number) => boolean | undefined;
}

/** Verdicts above this length are not computed as you type (the scan is linear in the length). */
export const MAX_VERDICT_LENGTH = 1 << 21;

/** Llama-architecture checkpoints, where llama3 band scaling is a native option. */
export function isLlamaFamily(modelType: string | undefined): boolean {
  return modelType === 'llama' || modelType === 'llama4' || modelType === 'llama4_text' || modelType === 'mllama';
}

/**
 * A factor as written: the ratio itself when it is a multiple of 1/4 (8, 4.5), else rounded up at
 * the fourth decimal, so factor × original still covers the target.
 */
export function factorValue(x: number): number {
  const q = Math.round(x * 4) / 4;
  return Math.abs(q - x) < 1e-9 ? q : Math.ceil(x * 1e4 - 1e-6) / 1e4;
}

const verdictCache = new Map<string, FixVerdict | undefined>();

/** The generalised bound Σ cos(m·θᵢ′) ≥ 0 for m < length over a rewrite's effective frequencies. */
export function verdictOf(spec: RopeSpec, length: number, variant: TransformersVariant, seqLen?: number): FixVerdict | undefined {
  if (!(length >= 2) || length > MAX_VERDICT_LENGTH) return undefined;
  const key = JSON.stringify([spec, length, variant, seqLen]);
  if (verdictCache.has(key)) return verdictCache.get(key);
  let verdict: FixVerdict | undefined;
  try {
    const theta = computeFrequencies(spec, { variant, seqLen: seqLen ?? length }).invFreq;
    const hit = firstNegative(theta, 0, length);
    verdict = { lmax: hit ? hit.m : null, length };
  } catch {
    verdict = undefined; // a spec the core refuses gets no verdict, not a crash
  }
  if (verdictCache.size > 512) verdictCache.clear();
  verdictCache.set(key, verdict);
  return verdict;
}

/** Where a new scaling would extend from and the distance to judge at C, or undefined when nothing needs extending. */
export function extensionNeed(
  rope: ModelRope,
  length: number,
  opts: { trained?: number; windows?: boolean } = {},
): { from: number; reach: number } | undefined {
  if (lengthScalingType(rope) !== 'none') return undefined;
  const trained = opts.trained ?? trainedContextOf(rope).value;
  const from = modelReach(rope, trained).unscaledFrom ?? trained;
  if (!(from > 0) || !(length > from)) return undefined;
  const reach = opts.windows === false ? length : ropeReachAt(rope, length);
  return reach > from ? { from, reach } : undefined;
}

/**
 * Why nothing is recommended at C for a model with no scaling: every RoPE layer slides within a
 * window no longer than what the model was trained on, so no layer sees a new distance.
 */
export function windowsCover(rope: ModelRope, length: number, trained = trainedContextOf(rope).value): string | undefined {
  const w = everyRopeLayerWindow(rope);
  if (w === undefined || lengthScalingType(rope) !== 'none' || !(length > trained) || w > trained) return undefined;
  return `every RoPE layer attends within a ${fmt(w)}-token sliding window, so no layer sees a distance beyond ${fmt(w)} at ${fmt(length)}: there are no full-attention frequencies to judge, and no rewrite is needed`;
}

/** Change cost when the bound does not separate candidates (lower first). */
const COST: Record<'training' | 'inference', Record<RewriteKind, number>> = {
  training: { ntk: 1, 'raise-base': 1.5, linear: 2, yarn: 3, llama3: 5, dynamic: 10 },
  inference: { yarn: 1, ntk: 2, llama3: 2.5, dynamic: 3, linear: 4, 'raise-base': 10 },
};

/** Kinds that do not belong to the question asked: dynamic NTK is not for training, Gradient's law is a base to train with. */
const OFF_QUESTION: Record<'training' | 'inference', readonly RewriteKind[]> = { training: ['dynamic'], inference: ['raise-base'] };

/** Rewrites that only change the base: trained, they count as meeting the bound only with their ±10% proven (validity is not monotone). */
const BASE_KINDS: ReadonlySet<string> = new Set(['ntk', 'raise-base']);

function recipeLabel(r: VendorRecipe): string {
  const s = r.scaling;
  const name = s.rope_type === 'yarn' ? 'YaRN' : s.rope_type;
  const over = s.original_max_position_embeddings !== undefined ? ` over ${fmt(s.original_max_position_embeddings)}` : '';
  return `${name} ×${s.factor}${over} (${r.restores ? `restored from ${r.who}` : r.who})`;
}

/**
 * The recommended rewrite for running (or training) `rope` at `length`, with every candidate
 * judged and ranked; undefined when nothing needs extending (C within the model's own reach, a
 * scaling already set, or sliding windows that keep every distance within T).
 */
export function adviseRewrite(x: AdviceInput): RewriteAdvice | undefined {
  const rope = x.rope;
  const trained = x.trained ?? trainedContextOf(rope).value;
  const need = x.from !== undefined ? { from: x.from, reach: x.reach ?? x.length } : extensionNeed(rope, x.length, { trained });
  if (!need) return undefined;
  const from = need.from;
  const reach = x.reach ?? need.reach;
  // Layers that all attend within what the model was trained on see no new distance.
  if (!(reach > from)) return undefined;
  const C = x.length;
  const s = C / from;
  if (!(s > 1) || !Number.isFinite(s)) return undefined;
  const group = ropeGroups(rope)[0];
  const base = x.base ?? group?.base.value ?? rope.base.value;
  const dim = x.dim ?? group?.rotaryDim.value ?? rope.rotaryDim.value;
  const variant = x.variant ?? 'v5';
  const training = x.training === true;
  const factor = factorValue(s);
  const common = { base, rotaryDim: dim, maxPositionEmbeddings: C };
  const options: RewriteOption[] = [];
  const shipped = training ? computeFrequencies({ ...common, ropeType: 'default' }, { variant, seqLen: C }).invFreq : undefined;
  const add = (o: Omit<RewriteOption, 'verdict'>) => {
    // The generic rewrite the vendor's recipe already is (Qwen's YaRN ×4 over 32,768 at 131,072) is listed once, as the recipe.
    if (
      !o.recipe &&
      options.some((r) => r.recipe && r.kind === o.kind && Math.abs(r.factor - o.factor) < 1e-9 && (r.original ?? from) === (o.original ?? from))
    )
      return;
    const bound = verdictOf(o.spec, reach, variant, o.seqLen);
    const verdict = bound
      ? // A base raised by Gradient's law is a base to train with: its frequencies are judged as trained, whatever the question.
        judgeRewrite(bound, training || o.kind === 'raise-base' ? 'trained' : 'untrained', {
          kind: o.kind,
          factor: o.factor,
          from,
          ...(o.original !== undefined ? { original: o.original } : {}),
          ...(o.recipe ? { validatedBy: o.recipe.validatedBy } : {}),
        })
      : undefined;
    const change = shipped ? changeOf(o.spec, shipped, variant, o.seqLen) : undefined;
    const robust =
      training && BASE_KINDS.has(o.kind) && o.base !== undefined
        ? o.smallestRobust === true || (bound?.lmax === null && x.provenBase?.(o.base) === true)
        : undefined;
    options.push({ ...o, ...(verdict ? { verdict } : {}), ...(change !== undefined ? { change } : {}), ...(robust !== undefined ? { robust } : {}) });
  };

  const recipe = lengthScalingType(rope) === 'none' ? vendorRecipeOf(rope, trained) : undefined;
  const recipeFits = recipe && recipe.reach >= C && (recipe.scaling.original_max_position_embeddings ?? trained) === from;
  if (recipe && recipeFits) {
    const r = recipe.scaling;
    const o = r.original_max_position_embeddings;
    const spec: RopeSpec =
      r.rope_type === 'llama3'
        ? {
            ...common,
            ropeType: 'llama3',
            factor: r.factor,
            lowFreqFactor: num(r['low_freq_factor'], 1),
            highFreqFactor: num(r['high_freq_factor'], 4),
            originalMaxPositionEmbeddings: o ?? from,
          }
        : r.rope_type === 'yarn'
          ? { ...common, ropeType: 'yarn', factor: r.factor, originalMaxPositionEmbeddings: o ?? from, ...yarnExtras(r) }
          : r.rope_type === 'dynamic'
            ? { ...common, ropeType: 'dynamic', factor: r.factor, maxPositionEmbeddings: from }
            : { ...common, ropeType: 'linear', factor: r.factor };
    add({
      kind: r.rope_type,
      factor: r.factor,
      ...(o !== undefined ? { original: o } : {}),
      scaling: { ...r },
      recipe,
      spec,
      ...(r.rope_type === 'dynamic' ? { seqLen: C } : {}),
      label: recipeLabel(recipe),
    });
  }
  if (!x.scalingOnly) {
    const ntk = ntkAwareBase(base, s, dim);
    add({
      kind: 'ntk',
      factor: s,
      base: ntk,
      spec: { ...common, ropeType: 'default', base: ntk },
      label: `NTK-aware base ${fmt(ntk)} (s = ${fmt(s)}, d = ${dim})`,
    });
  }
  // A block of a kind a new scaling must not replace (mrope sections, proportional) leaves the base alone to rewrite.
  if (!keepsOwnBlock(rope)) addScalings();
  function addScalings(): void {
    add({
      kind: 'yarn',
      factor,
      original: from,
      scaling: { rope_type: 'yarn', factor, original_max_position_embeddings: from },
      spec: { ...common, ropeType: 'yarn', factor, originalMaxPositionEmbeddings: from },
      label: `YaRN ×${fmt(factor)} over ${fmt(from)}`,
    });
    add({ kind: 'linear', factor, scaling: { rope_type: 'linear', factor }, spec: { ...common, ropeType: 'linear', factor }, label: `linear ×${fmt(factor)}` });
    if (isLlamaFamily(rope.modelType)) {
      add({
        kind: 'llama3',
        factor,
        original: from,
        scaling: { rope_type: 'llama3', factor, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: from },
        spec: { ...common, ropeType: 'llama3', factor, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: from },
        label: `llama3 ×${fmt(factor)} over ${fmt(from)}`,
      });
    }
    add({
      kind: 'dynamic',
      factor,
      scaling: { rope_type: 'dynamic', factor },
      spec: { ...common, ropeType: 'dynamic', factor, maxPositionEmbeddings: from },
      seqLen: C,
      label: `dynamic NTK ×${fmt(factor)}`,
    });
  }
  if (!x.scalingOnly && from > 2 * Math.PI) {
    const g = gradientThetaBase(base, from, C);
    add({
      kind: 'raise-base',
      factor: s,
      base: g,
      spec: { ...common, ropeType: 'default', base: g },
      label: `base ${fmt(g)} by Gradient's law (for training at ${fmt(C)})`,
    });
  }
  if (!x.scalingOnly && training && x.robustBase !== undefined) {
    const b = x.robustBase;
    add({
      kind: 'raise-base',
      smallestRobust: true,
      factor: s,
      base: b,
      spec: { ...common, ropeType: 'default', base: b },
      label: `smallest robust valid base ${fmt(b)} (every base within ±10% proven valid at ${fmt(C)})`,
    });
  }

  const family = familyScalingKind(rope);
  const ranked = rank(options, training, family);
  const preferred = ranked[0];
  return {
    trained,
    from,
    length: C,
    reach,
    base,
    dim,
    options: ranked,
    preferred,
    ...(recipe ? { recipe } : {}),
    why: whyOf(preferred, ranked, recipe, !!recipeFits, C, family, training),
  };
}

/** The model's scaling object holds what a rewrite cannot carry over (Qwen2-VL mrope sections, Gemma-4 proportional). */
export function keepsOwnBlock(rope: ModelRope): boolean {
  const p = rope.scaling?.params ?? {};
  const t = String(p['rope_type']?.value ?? p['type']?.value ?? '').toLowerCase();
  return 'mrope_section' in p || 'short_factor' in p || 'long_factor' in p || t === 'mrope' || t === 'proportional';
}

function num(v: unknown, d: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : d;
}

function yarnExtras(r: Record<string, unknown>): Partial<RopeSpec> {
  const out: Partial<RopeSpec> = {};
  if (typeof r['beta_fast'] === 'number') out.betaFast = r['beta_fast'];
  if (typeof r['beta_slow'] === 'number') out.betaSlow = r['beta_slow'];
  if (typeof r['truncate'] === 'boolean') out.truncate = r['truncate'];
  return out;
}

/** Mean |ln θ′/θ| from the frequencies as shipped: `plan`'s "change" (planner/options.ts). */
function changeOf(spec: RopeSpec, shipped: Float64Array, variant: TransformersVariant, seqLen?: number): number | undefined {
  try {
    const theta = computeFrequencies(spec, { variant, seqLen: seqLen ?? spec.maxPositionEmbeddings }).invFreq;
    let sum = 0;
    for (let i = 0; i < shipped.length; i++) sum += Math.abs(Math.log(theta[i] / shipped[i]));
    return shipped.length ? sum / shipped.length : undefined;
  } catch {
    return undefined;
  }
}

/** Best first; see the module comment. `family`: the model family's own scaling kind, ranked before generic ones. */
export function rank<O extends Pick<RewriteOption, 'kind' | 'verdict'> & { recipe?: unknown; change?: number; robust?: boolean }>(
  options: O[],
  training: boolean,
  family?: RewriteKind,
): O[] {
  const q = training ? 'training' : 'inference';
  const cost = COST[q];
  const off = (o: O) => (OFF_QUESTION[q].includes(o.kind) ? 1 : 0);
  // Trained: the bound, and a base only with its ±10% proven; untrained: the reach (scalingVerdict.ts).
  const passes = (o: O) => (o.verdict && verdictPasses(o.verdict) && (!training || !BASE_KINDS.has(o.kind) || o.robust !== false) ? 1 : 0);
  const holds = (o: O) => (o.verdict ? (o.verdict.lmax === null ? Infinity : o.verdict.lmax) : -1);
  // Among trained rewrites that pass, the smallest change to the frequencies as shipped (as `plan` ranks); else the furthest hold.
  const trainedOrder = (a: O, b: O) => (passes(a) && passes(b) && a.change !== undefined && b.change !== undefined ? a.change - b.change : holds(b) - holds(a));
  const score = (a: O, b: O) => passes(b) - passes(a) || (training ? trainedOrder(a, b) : 0);
  const recipeFirst = (o: O) => (o.recipe ? 0 : 1);
  // The family's own scaling before generic ones (llama3 for Llama-3.x over linear, which compresses every pair).
  const familyFirst = (o: O) => (family !== undefined && o.kind === family ? 0 : 1);
  // The model's own shipped scaling, lost from this file: its weights were trained with those
  // frequencies (Llama-3.1's long-context stage ran llama3 ×8), so no verdict outranks it.
  const restores = (o: O) => ((o.recipe as { restores?: boolean } | undefined)?.restores ? 0 : 1);
  return [...options].sort(
    (a, b) =>
      restores(a) - restores(b) ||
      off(a) - off(b) ||
      score(a, b) ||
      recipeFirst(a) - recipeFirst(b) ||
      familyFirst(a) - familyFirst(b) ||
      (cost[a.kind] ?? 9) - (cost[b.kind] ?? 9),
  );
}

function whyOf(
  best: RewriteOption,
  ranked: RewriteOption[],
  recipe: VendorRecipe | undefined,
  recipeFits: boolean,
  C: number,
  family: RewriteKind | undefined,
  training: boolean,
): string {
  const v = best.verdict;
  // Untrained, the bound is information after the reach; trained, the verdict is the bound's.
  const info = v ? boundInformation(v) : undefined;
  const verdict = v ? ` (it ${verdictText(v)}${info ? `; ${info}` : ''})` : '';
  if (best.recipe?.restores)
    return `the model's own scaling, which this file lost: ${best.recipe.who.replace(/'s shipped config$/, '')} was trained with it, so it is restored${verdict}`;
  if (best.recipe) return `the vendor's recipe${verdict}`;
  if (recipe && !recipeFits) {
    return `${recipeLabel(recipe)} reaches ${fmt(recipe.reach)}, short of ${fmt(C)}, so ${best.label} is preferred${verdict}`;
  }
  if (!training) {
    const tail = info ? ` (${info})` : '';
    if (best.kind === family) return `${best.label} covers ${fmt(C)} and is the model family's own scaling${tail}`;
    return `${best.label} covers ${fmt(C)} and is the most used of the rewrites that do${tail}`;
  }
  const r = ranked.find((o) => o.recipe);
  const meetsBound = (o: RewriteOption) => o.verdict?.lmax === null && (!BASE_KINDS.has(o.kind) || o.robust !== false);
  if (r && r.verdict && meetsBound(best)) return `${r.label} ${verdictText(r.verdict)}, while ${best.label} meets the bound: ${best.label} is preferred`;
  const meets = ranked.filter(meetsBound).length;
  if (!meetsBound(best)) return `no rewrite meets the bound at ${fmt(C)}; ${best.label} holds furthest${verdict}`;
  if (best.kind === family) return `${best.label} meets the bound at ${fmt(C)} and is the model family's own scaling`;
  return `${best.label} meets the bound at ${fmt(C)}${meets > 1 ? ' with the smallest change to the frequencies as shipped' : ''}`;
}
