/**
 * The quick fixes for a context extended beyond the trained context T (advice.md, situation 3),
 * written into the user's file. Which rewrites exist, their verdicts on the bound and which one is
 * preferred are decided once for every front-end by advice/advice.ts (`adviseRewrite`); this module
 * only writes them: the vendor's recipe, NTK-aware base, YaRN {s, T}, linear {s}, llama3 {s, 1, 4, T}
 * (Llama family), dynamic {s} with max_position_embeddings back at T, Gradient's law base.
 */
import type { Fix, FixKind, FixRewrite } from '../core/findings';
import type { KeyPath } from './documentEditor';
import type { RopeSpec, TransformersVariant } from '../rope/spec';
import type { ModelRope } from '../config/modelRope';
import { RewriteAdvice, RewriteKind, RewriteOption, adviseRewrite, rank, verdictOf, verdictText } from '../advice/advice';
import { judgeRewrite } from '../advice/scalingVerdict';
import { RopeTarget, dynamicFix, linearFix, llama3Fix, raiseBaseFix, roundFactor, scalingBlock, scalingBlockFix, writeBase, yarnFix } from './rewrites';
import { PlainObject, float, floatText } from './render';
import { fmt, fmtPlain } from '../core/format';

export interface ExtensionInput {
  target: RopeTarget;
  /** The model being extended: its identity gives the vendor's recipe (advice/recipes.ts). */
  rope: ModelRope;
  base: number;
  /** Rotary dimension of the group being extended. */
  dim: number;
  trained: number;
  /** The length the file asks for. */
  length: number;
  /** Largest relative distance the layers see at that length (the window for sliding layers). */
  reach: number;
  /** Kept for callers; the advice decides llama3 from the model type. */
  llamaFamily?: boolean;
  variant: TransformersVariant;
  /** Where max_position_embeddings is written, for dynamic NTK (model configs only). */
  contextPath?: KeyPath;
  /** Which rewrite the user prefers (`ropeLens.preferredRewrite`), or auto. */
  preferred?: FixKind | 'auto';
  /** The file trains at the length (a fine-tuning config) rather than runs a checkpoint as is. */
  training: boolean;
  /**
   * Only scaling blocks: the model already runs a scaling that a new block replaces, while a new base
   * would run under the old scaling (and the verdicts here assume none).
   */
  scalingOnly?: boolean;
  /**
   * The context the model declares and where this file can write it. transformers' YaRN takes its
   * factor as max_position_embeddings / original when both are set, so a YaRN block over a context
   * other than factor × T writes the context too (Llama-3.1 declares 131,072 over 8,192).
   */
  declaredContext?: { path: KeyPath; value: number };
  /** Training: the smallest robust valid base at the length (the bound oracle's), offered and judged with the rest. */
  robustBase?: number;
  /** Training: whether a base's ±10% neighbourhood is proven valid at the length. */
  provenBase?: (base: number) => boolean | undefined;
}

export { MAX_VERDICT_LENGTH, verdictOf, verdictText } from '../advice/advice';

/** Display order of the fixes (the preferred one is marked, not moved): as advice.md lists them, a recipe before its kind's generic one. */
const ORDER: Record<string, number> = { ntk: 1, yarn: 2, linear: 3, llama3: 4, dynamic: 5, 'raise-base': 6 };

/**
 * The situation-3 fixes, one per rewrite the advice ranks (advice/advice.ts), each with its verdict;
 * the advice's first is preferred unless the user prefers another kind.
 */
export function extensionFixes(x: ExtensionInput): Fix[] {
  const advice = adviseRewrite({
    rope: x.rope,
    length: x.length,
    trained: x.trained,
    from: x.trained,
    reach: x.reach,
    base: x.base,
    dim: x.dim,
    variant: x.variant,
    training: x.training,
    scalingOnly: x.scalingOnly || !x.target.basePath,
    ...(x.robustBase !== undefined ? { robustBase: x.robustBase } : {}),
    ...(x.provenBase ? { provenBase: x.provenBase } : {}),
  });
  if (!advice) return [];
  const built: { fix: Fix; rank: number; order: number }[] = [];
  advice.options.forEach((o, rank) => {
    const fix = fixOf(o, x);
    if (!fix) return;
    fix.rewrite = rewriteOf(o);
    if (o.verdict) {
      fix.title = `${fix.title} — ${verdictText(o.verdict)}`;
      fix.verdict = o.verdict;
    }
    built.push({ fix, rank, order: (ORDER[o.kind] ?? 9) - (o.recipe ? 0.5 : 0) });
  });
  if (!built.length) return [];
  const wanted = x.preferred && x.preferred !== 'auto' ? built.filter((b) => b.fix.kind === x.preferred).sort((a, b) => a.rank - b.rank)[0] : undefined;
  (wanted ?? built.reduce((a, b) => (b.rank < a.rank ? b : a))).fix.preferred = true;
  return built.sort((a, b) => a.order - b.order).map((b) => b.fix);
}

/** The values an advised rewrite writes, carried on its fix. */
export function rewriteOf(o: RewriteOption): FixRewrite {
  return {
    factor: o.factor,
    ...(o.original !== undefined ? { original: o.original } : {}),
    ...(o.base !== undefined ? { base: o.base } : {}),
    ...(o.recipe ? { recipe: true } : {}),
  };
}

/** One advised rewrite written into this document, or undefined where the file cannot say it. */
function fixOf(o: RewriteOption, x: ExtensionInput): Fix | undefined {
  const t = x.target;
  if (o.recipe) return recipeFix(o, x);
  switch (o.kind) {
    case 'ntk':
      if (!t.basePath || o.base === undefined) return undefined;
      return {
        title: `Apply NTK scaling: ${t.baseName} ${fmtPlain(x.base)} → ${fmtPlain(o.base)} (s = ${fmt(o.factor)}, d = ${x.dim})`,
        kind: 'ntk',
        edits: writeBase(t, o.base),
      };
    case 'yarn': {
      const yarn = yarnFix(t, o.factor, o.original ?? x.trained);
      if (!yarn) return undefined;
      const yarnContext = Math.round(roundFactor(o.factor) * (o.original ?? x.trained));
      if (x.declaredContext && x.declaredContext.value !== x.trained && x.declaredContext.value !== yarnContext) {
        yarn.title += `, max_position_embeddings ${yarnContext}`;
        const block = { rope_type: 'yarn', factor: float(roundFactor(o.factor)), original_max_position_embeddings: o.original ?? x.trained };
        yarn.edits = withDeclaredContext(t, yarn, block, x.declaredContext.path, yarnContext);
      }
      return yarn;
    }
    case 'linear':
      return linearFix(t, o.factor);
    case 'llama3':
      return llama3Fix(t, o.factor, o.original ?? x.trained);
    case 'dynamic': {
      // transformers starts dynamic NTK at max_position_embeddings: it goes back to T.
      if (!x.contextPath) return undefined;
      const dyn = dynamicFix(t, o.factor);
      return dyn
        ? { ...dyn, title: `${dyn.title}, max_position_embeddings back to ${x.trained}`, edits: [...dyn.edits, ...t.editor.set(x.contextPath, x.trained)] }
        : undefined;
    }
    case 'raise-base':
      if (!t.basePath || o.base === undefined) return undefined;
      if (o.smallestRobust) return raiseBaseFix(t, x.base, o.base, x.length);
      return {
        title: `Raise ${t.baseName} by Gradient's law for training at ${fmt(x.length)}: ${fmtPlain(x.base)} → ${fmtPlain(o.base)}`,
        kind: 'raise-base',
        edits: writeBase(t, o.base),
      };
  }
}

/**
 * The vendor's recipe as written by the vendor (every key of its block). A YaRN recipe whose
 * factor × original differs from the declared context also writes the context (transformers 4.4x
 * takes YaRN's factor as max_position_embeddings / original).
 */
function recipeFix(o: RewriteOption, x: ExtensionInput): Fix | undefined {
  const r = o.recipe!;
  const t = x.target;
  const block: PlainObject = {};
  for (const [k, v] of Object.entries(r.scaling)) {
    if (typeof v === 'number') block[k] = FLOAT_KEYS.has(k) ? float(v) : v;
    else if (typeof v === 'string' || typeof v === 'boolean' || v === null) block[k] = v;
  }
  const keys = Object.entries(r.scaling)
    .filter(([k]) => k !== 'rope_type')
    .map(([k, v]) => `${k} ${typeof v === 'number' && FLOAT_KEYS.has(k) ? floatText(v) : String(v)}`)
    .join(', ');
  const name = r.scaling.rope_type === 'yarn' ? 'YaRN' : r.scaling.rope_type;
  const verb = r.restores ? `Restore the ${name} scaling of ${r.who}` : `Add ${name} as ${r.who} documents it`;
  const fix = scalingBlockFix(t, o.kind, r.scaling.rope_type, block, `${verb} (${keys})`);
  if (!fix) return undefined;
  const declared = x.declaredContext ?? (x.contextPath ? { path: x.contextPath, value: x.length } : undefined);
  const stretched = Math.round(r.scaling.factor * (r.scaling.original_max_position_embeddings ?? x.trained));
  // As for a generic YaRN block: a context left at T stays (Qwen's own card keeps 32,768).
  if (r.scaling.rope_type === 'yarn' && declared && declared.value !== x.trained && declared.value !== stretched) {
    fix.title += `, max_position_embeddings ${stretched}`;
    fix.edits = withDeclaredContext(t, fix, block, declared.path, stretched);
  }
  return fix;
}

/**
 * The scaling block's edits plus the declared context. When both keys go into a mapping the file
 * does not have yet (axolotl's `overrides_of_model_config`), two separate insertions would each
 * write that mapping, and PyYAML keeps only the last: the mapping is written once, holding both.
 */
function withDeclaredContext(t: RopeTarget, fix: Fix, block: PlainObject, path: KeyPath, value: number): Fix['edits'] {
  const parent = path.slice(0, -1);
  const sp = t.scalingPath;
  if (
    sp &&
    !t.namePath &&
    parent.length > 0 &&
    sp.length === path.length &&
    parent.every((k, i) => sp[i] === k) &&
    t.editor.nodeAt(parent)?.kind !== 'object'
  ) {
    return t.editor.set(parent, { [sp[sp.length - 1]]: scalingBlock(t, block), [path[path.length - 1]]: value });
  }
  return [...fix.edits, ...t.editor.set(path, value)];
}

/** Keys a scaling block holds as floats (written `4.0`). */
const FLOAT_KEYS = new Set(['factor', 'low_freq_factor', 'high_freq_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim', 'attention_factor']);

/** A rewrite with the frequencies it makes (and the running length, for dynamic NTK). */
export interface RewriteCandidate {
  fix: Fix;
  spec: RopeSpec;
  seqLen?: number /** The vendor's recipe. */;
  recipe?: boolean;
}

/**
 * Each rewrite's verdict at the reach, in its title, and the preferred one marked, for callers that
 * write elsewhere (engine flags). With `advice`, the preferred one is the advice's first that this
 * caller can write, so every front-end prefers the same rewrite.
 */
export function judgedRewrites(
  candidates: RewriteCandidate[],
  x: { reach: number; variant: TransformersVariant; preferred?: FixKind | 'auto'; training: boolean; advice?: RewriteAdvice },
): Fix[] {
  const fixes = candidates.map(({ fix, spec, seqLen, recipe }) => {
    const bound = verdictOf(spec, x.reach, x.variant, seqLen);
    if (!bound) return fix;
    // One rule (advice/scalingVerdict.ts): untrained rewrites are judged by their reach, the recipe by its vendor too.
    const r = fix.rewrite;
    const from = x.advice?.from;
    const verdict =
      r && from !== undefined
        ? judgeRewrite(bound, x.training || fix.kind === 'raise-base' ? 'trained' : 'untrained', {
            kind: fix.kind,
            factor: r.factor,
            from,
            ...(r.original !== undefined ? { original: r.original } : {}),
            ...(recipe && x.advice?.recipe ? { validatedBy: x.advice.recipe.validatedBy } : {}),
          })
        : judgeRewrite(bound, 'trained');
    return { ...fix, title: `${fix.title} — ${verdictText(verdict)}`, verdict };
  });
  if (!fixes.length) return fixes;
  const wanted = x.preferred && x.preferred !== 'auto' ? fixes.find((f) => f.kind === x.preferred) : undefined;
  if (wanted) {
    wanted.preferred = true;
    return fixes;
  }
  if (x.advice) {
    for (const o of x.advice.options) {
      const i = candidates.findIndex((c) => c.fix.kind === o.kind && !!c.recipe === !!o.recipe);
      if (i >= 0) {
        fixes[i].preferred = true;
        return fixes;
      }
    }
  }
  const ranked = rank(
    fixes.map((f, i) => ({ kind: f.kind as RewriteKind, verdict: f.verdict, recipe: candidates[i].recipe, i })),
    x.training,
  );
  fixes[ranked[0].i].preferred = true;
  return fixes;
}

/**
 * The fix to prefer among `fixes` by the advice's ranking (advice/advice.ts `rank`); fix
 * verification uses it when the preferred fix was refused, so the next-ranked rewrite that
 * survives is the one every front-end prefers.
 */
export function preferredOf(fixes: readonly Fix[], training: boolean): Fix | undefined {
  const ranked = rank(
    fixes.map((f) => ({ kind: f.kind as RewriteKind, verdict: f.verdict, recipe: f.rewrite?.recipe, f })),
    training,
  );
  return ranked[0]?.f;
}
