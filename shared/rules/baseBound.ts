/**
 * rope/base-below-bound: each attention group's base against the length it must cover — the
 * context (or the original context under YaRN/llama3/longrope, the context ÷ factor under
 * linear, the training length in a training config), capped by the group's reach (a sliding
 * window's layers only see the window). lmax(base) < length → the finding says up to which length
 * the base holds and b*; a valid base (lmax = null) never gets this finding.
 *
 * By situation (advice.md):
 *  - a model config: a fact about how the checkpoint was trained — a hint for a stock checkpoint
 *    (as shipped, or C ≤ T), information otherwise, worded as such, and no rewrite fix (changing θ or adding scaling without training degrades the model). A
 *    context raised beyond the trained context is rope/context-extended's finding instead;
 *  - a training config that defines its model (pretraining) or sets its own base: the base is
 *    chosen before training, so below the bound is a warning, and the fix is the smallest base
 *    whose ±10% neighbourhood is valid (never b* itself, which sits on a narrow island).
 */
import type { Finding } from '../core/findings';
import { yamlBaseLands } from '../config/effectiveModel';
import type { AttentionGroup, Located, ModelRope } from '../config/modelRope';
import { Rule, RuleContext, finding, fmt, rangeFor } from './context';
import { boundable, bstarOf, judgedLength, lmaxOf, robustBaseOf, robustChoiceOf } from './bound';
import { modelTarget } from './targets';
import { rungNote } from '../fixes/robustChoice';
import { tableRobustBase } from '../bstar/table/provenTable';
import { raiseBaseFix } from '../fixes/rewrites';
import { MAX_LENGTH } from '../bstar/validate';
import { baseUnreadable } from './invalidValues';
import { groupScaling, ropeGroups } from '../config/attentionGroups';
import { situationOf } from './situation';
import { pastShippedScaling } from './pastScaling';
import { declaredContextFindings } from './declaredContext';
import { baseLabel, shortBaseLabel } from './wording';
import { derivativeNote } from '../config/reach';
import { validBaseFigure } from '../core/baseFigure';

export const BASE_BELOW_BOUND = 'rope/base-below-bound';
/** information: the length to judge is beyond MAX_LENGTH and the base holds up to MAX_LENGTH. */
export const CONTEXT_UNCHECKED = 'rope/context-unchecked';

export const baseBoundRule: Rule = {
  codes: [BASE_BELOW_BOUND, CONTEXT_UNCHECKED],
  check(ctx) {
    if (ctx.model && ctx.fileKind === 'model-config' && ctx.model.draftHead) {
      // A speculative-decoding draft head is trained from scratch: its base is chosen (situation 5).
      return checkGroups(ctx, ctx.model, 'warning');
    }
    if (ctx.model && ctx.fileKind === 'model-config') {
      // An extended context is judged by rope/context-extended, with fixes from the trained context.
      const sit = situationOf(ctx.model);
      if (sit.extended) return [];
      // Past what its shipped scaling covers, the context is extended (rope/context-extended says so): not a stock fact.
      if (pastShippedScaling(ctx.model)) return [];
      // A vendor's declared context above T gets its recipe (rope/context-extended, information): a bound
      // fact at that context would tell the user not to add the very scaling the recipe adds.
      if (declaredContextFindings(ctx).length) return [];
      // A stock checkpoint (as shipped, or C ≤ T) below the bound is a fact the user cannot change: a hint,
      // never a squiggle or a Problems entry (advice.md situation 2). Values of the file's own are information.
      return checkGroups(ctx, ctx.model, sit.stock ? 'hint' : 'information');
    }
    // Continued pretraining (GPT-NeoX finetune/load, OLMo load_path, …): the base came with the
    // checkpoint, chosen by its trainer (advice.md situation 6): a fact, not a base to choose.
    const continued = ctx.training?.continuesFrom;
    const severity = continued ? 'information' : 'warning';
    if (ctx.model) {
      // A model defined in a training YAML (pretraining) is judged at the length it trains at.
      return checkGroups(ctx, ctx.model, severity, ctx.training?.sequenceLength?.value, continued);
    }
    if (ctx.effective && ctx.training && yamlBaseLands(ctx.training, ctx.effective, ctx.resolved?.rope)) {
      // A training config that sets its own base: judged at the length it trains at.
      return checkGroups(ctx, ctx.effective, severity, ctx.training.sequenceLength?.value, continued);
    }
    return [];
  },
};

type RopeGroup = AttentionGroup & { base: Located<number>; rotaryDim: Located<number> };

type BoundSeverity = 'hint' | 'information' | 'warning';

function checkGroups(ctx: RuleContext, rope: ModelRope, severity: BoundSeverity, trainingLength?: number, continued?: Located<string>): Finding[] {
  const groups: RopeGroup[] = ropeGroups(rope).length
    ? ropeGroups(rope)
    : [{ layerType: 'full_attention', layers: null, base: rope.base, rotaryDim: rope.rotaryDim, reach: rope.contextLength.value }];
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const g of groups) {
    const f = checkGroup(ctx, rope, g, groups.length > 1, severity, trainingLength, continued);
    if (!f) continue;
    const key = `${f.range.start.line}:${f.range.start.character}:${f.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(f);
    }
  }
  return out;
}

function checkGroup(
  ctx: RuleContext,
  rope: ModelRope,
  g: RopeGroup,
  several: boolean,
  severity: BoundSeverity,
  trainingLength?: number,
  continued?: Located<string>,
): Finding | undefined {
  const scaling = groupScaling(rope, g);
  const judged = judgedLength({ ...rope, scaling }, trainingLength);
  const base = g.base.value;
  const dim = g.rotaryDim.value;
  if (!judged || (!g.base.node && baseUnreadable(ctx))) return undefined;
  // Proportional RoPE leaves most pairs unrotated (frequency 0): Su's bound on b^(−2i/d) does not describe it.
  if (scaling?.type === 'proportional') return undefined;
  const windowed = g.window !== undefined && g.window.value < judged.length;
  const length = windowed ? g.window!.value : judged.length;
  const why = windowed ? `the ${fmt(g.window!.value)}-token window its ${g.layerType.replace('_', ' ')} layers see` : judged.why;
  const capped = length > MAX_LENGTH;
  const L = capped ? MAX_LENGTH : length;
  if (!boundable(base, dim, L)) return undefined;
  const m = lmaxOf(ctx, base, dim, L);
  if (m === undefined) return undefined;
  const label = baseLabel(g.base, several ? g.layerType : undefined);
  if (m === null) {
    if (!capped) return undefined;
    const message = `The RoPE base bound is unchecked past ${fmt(MAX_LENGTH)} tokens, the largest length RoPE Lens can check.`;
    const detail = `${why[0].toUpperCase()}${why.slice(1)} is beyond it; ${label} satisfies the RoPE base bound up to it (rotary dim ${dim}).`;
    return finding(CONTEXT_UNCHECKED, 'information', message, rangeFor(ctx.doc, rope.contextLength, g.base), [], detail);
  }
  const b = capped ? undefined : bstarOf(ctx, L, dim);
  const range = rangeFor(ctx.doc, g.base, rope.contextLength);
  const short = shortBaseLabel(g.base, several ? g.layerType : undefined);
  const span = windowed ? `the ${fmt(L)}-token window` : `${fmt(L)} tokens`;
  const over = `The bound for ${label} is judged over ${why} (rotary dim ${dim}).`;
  const island = islandNote(ctx, b, base, dim, L);
  // At or above b* the paper's bound is met: a dip inside an invalid island is at most information and
  // never worded as below the bound (advice.md situation 5; Qwen2 trained at 32,768 with 1,000,000 works).
  if (b !== undefined && base >= b && !continued) return islandFinding(ctx, rope, g, several, severity, { m, b, L, span, over, dim });
  if (continued) {
    // Continued pretraining (advice.md situation 6): the base came with the checkpoint, chosen by its trainer.
    const from = continued.key === 'finetune' ? 'a checkpoint (finetune: true)' : `${continued.value} (${continued.key ?? 'load'})`;
    const message = `${short} holds the RoPE base bound to ${fmt(m)} of ${span}, as the checkpoint this run continues.`;
    const detail =
      `${over}${island} This run continues pretraining from ${from}: the base is that checkpoint's, chosen by its trainer ` +
      '(or one this run retrains it to), and its weights learned those frequencies: a fact to know, not a from-scratch base to raise.';
    return finding(BASE_BELOW_BOUND, severity, message, range, [], detail);
  }
  if (severity !== 'warning') {
    // A fact about the checkpoint: it was trained this way. No rewrite: changing θ untrained degrades it.
    // A file that carries a length scaling (a vendor's recipe such as Qwen's YaRN ×4) already extends the
    // model: the base is judged where the scaling stretches from, and the scaling is not the mistake.
    const scaled = scaling?.type !== undefined && scaling.type !== 'default';
    const said = `${short} holds the RoPE base bound only to ${fmt(m)} of ${span}, as trained.`;
    // A layer group's base named by a key of its own (compress_rope_theta) needs no layer words when they make it long.
    const message = said.length > 120 && g.base.node ? `${shortBaseLabel(g.base)} holds the RoPE base bound only to ${fmt(m)} of ${span}, as trained.` : said;
    const detail =
      `${over}${island} ` +
      (scaled
        ? `That is how the model was trained, not a mistake in this file; the ${scaling!.rawType?.value ?? scaling!.type} scaling stretches positions from there and leaves the base as trained.`
        : 'That is how the model was trained, not a mistake in this file: changing the base or adding scaling without training would degrade it.') +
      derivativeNote(rope);
    return finding(BASE_BELOW_BOUND, severity, message, range, [], detail);
  }
  const fixes = [];
  const target = modelTarget(ctx, rope);
  // A base is suggested only with its whole ±10% proven valid; past an oracle's proof limit
  // (ROPE_LENS_PROOF_MAX_LENGTH in the CLI) none is, and the detail says so.
  const limit = ctx.oracle.proofLimit;
  // The proven table answers past the limit too (its proofs were made once, ahead of time).
  const proven = !(limit !== undefined && L > limit) || tableRobustBase(L, dim) !== undefined;
  let next: number | undefined;
  let rung = '';
  if (!capped && proven) {
    // No base below b* is valid, so no candidate whose neighbourhood starts below b* can qualify.
    const choice = robustChoiceOf(ctx, base, dim, L, b);
    next = choice?.base;
    rung = choice ? rungNote(choice, L) : '';
    const fix = next !== undefined ? raiseBaseFix(target, base, next, L) : undefined;
    if (fix) fixes.push({ ...fix, preferred: true });
    else next = undefined;
  }
  // Lead with the base to use, then why: the recommendation is a round base whose whole ±10% is valid.
  const message =
    next !== undefined
      ? `Raise ${target.baseName} from ${g.base.node ? '' : 'the default '}${fmt(base)} to ${fmt(next)}: the RoPE base bound holds only up to ${fmt(m)} of ${span}.`
      : `${short} meets the RoPE base bound only up to ${fmt(m)} of the ${span} it trains at.`;
  const detail =
    `${over}${island}` +
    (next !== undefined
      ? ` ${fmt(next)} is valid together with every base within ±10% of it (proven).${rung}`
      : !proven
        ? ` A base to raise it to is suggested only with every base within ±10% of it proven valid, and this run proves that only up to ${fmt(limit!)} tokens.`
        : '') +
    fromScratchNote(rope) +
    ' A base chosen before training should cover every distance the layers see.';
  return finding(BASE_BELOW_BOUND, severity, message, range, fixes, detail);
}

/** Why a model config's or a named architecture's base counts as chosen (advice.md situation 5), for the detail. */
function fromScratchNote(rope: ModelRope): string {
  if (rope.draftHead)
    return ` This config is a speculative-decoding draft head (${rope.draftHead}), trained from scratch: its base is chosen, not inherited from a checkpoint.`;
  if (rope.contextLength.key === 'model_name')
    return ` The model is ${rope.contextLength.note ?? "LitGPT's built-in architecture"}, built from scratch by litgpt pretrain: choose its base in a model_config block instead.`;
  return '';
}

interface IslandFacts {
  /** First distance where f < 0. */
  m: number;
  b: number;
  L: number;
  span: string;
  over: string;
  dim: number;
}

/**
 * A base at or above b* whose f still dips below zero inside the length: it sits in one of the invalid
 * islands past b*. The paper claims nothing there, so it is information at most (a hint for a stock
 * checkpoint); a base being chosen before training gets the robust base as an optional fix.
 */
function islandFinding(ctx: RuleContext, rope: ModelRope, g: RopeGroup, several: boolean, severity: BoundSeverity, x: IslandFacts): Finding {
  const short = shortBaseLabel(g.base, several ? g.layerType : undefined);
  const shown = validBaseFigure(x.b, (v) => lmaxOf(ctx, v, x.dim, x.L)) ?? fmt(x.b);
  const range = rangeFor(ctx.doc, g.base, rope.contextLength);
  const message = `${short} clears b* ≈ ${shown} for ${x.span} but dips below zero from ${fmt(x.m)}.`;
  const base = g.base.value;
  let fixes: Finding['fixes'] = [];
  let robust = '';
  const limit = ctx.oracle.proofLimit;
  if (severity === 'warning' && !(limit !== undefined && x.L > limit)) {
    const target = modelTarget(ctx, rope);
    // At or above b*, the search starts from the base itself (b* is below it).
    const next = robustBaseOf(ctx, base, x.dim, x.L);
    const fix = next !== undefined ? raiseBaseFix(target, base, next, x.L) : undefined;
    if (fix && next !== undefined) {
      fixes = [{ ...fix, preferred: true }];
      robust = ` ${fmt(next)} keeps it non-negative with every base within ±10% of it (proven), if you want margin.`;
    }
  }
  const detail =
    `${x.over} The base meets the paper's bound (b ≥ b*), which is a necessary condition; past b* validity is not monotone in the base, ` +
    `and this one sits on an invalid island past b*, where f < 0 from distance ${fmt(x.m)}. Models trained so work (Qwen2 at 32,768 with 1,000,000).` +
    robust +
    (severity === 'warning' ? '' : derivativeNote(rope));
  return finding(BASE_BELOW_BOUND, severity === 'warning' ? 'information' : severity, message, range, fixes, detail);
}

/**
 * Why a larger base can fail where a smaller one holds: validity is not monotone in the base, b* is
 * the left end of a narrow valid island. b* is printed rounded up to a figure that is itself valid.
 */
function islandNote(ctx: RuleContext, b: number | undefined, base: number, dim: number, L: number): string {
  if (b === undefined) return '';
  const shown = validBaseFigure(b, (x) => lmaxOf(ctx, x, dim, L));
  if (shown === undefined) return '';
  return (
    ` Validity is not monotone in the base: the smallest valid base, b* ≈ ${shown}, starts a narrow valid island` +
    (base > b ? ', and most bases just above it fail again, as this one does.' : '.')
  );
}
