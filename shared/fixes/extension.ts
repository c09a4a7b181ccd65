/**
 * The quick fixes for a context extended beyond the trained context T (advice.md, situation 3),
 * with s = C / T from the trained context, never an invented one:
 *   NTK-aware base b·s^(d/(d−2)) (always offered), YaRN {s, T}, linear {s}, llama3 {s, 1, 4, T}
 *   (Llama family), dynamic {s} with max_position_embeddings back at T (inference only), and
 *   Gradient's law base b^(ln(C/2π)/ln(T/2π)) for training at C.
 * Each fix carries its verdict: the generalised bound of its effective frequencies over the
 * target's reach (first failing distance, or null); markPreferred says which one is preferred.
 */
import type { Fix, FixKind, FixVerdict } from '../core/findings';
import type { KeyPath } from './documentEditor';
import type { RopeSpec, TransformersVariant } from '../rope/spec';
import { computeFrequencies } from '../rope/invFreq';
import { gradientThetaBase, ntkAwareBase } from '../rope/seedMethods';
import { firstNegative } from '../rope/fb';
import { RopeTarget, dynamicFix, factorValue, linearFix, llama3Fix, roundFactor, yarnFix } from './rewrites';
import { float, type PlainObject } from './render';
import { fmt, fmtPlain } from '../core/format';

export interface ExtensionInput {
  target: RopeTarget;
  base: number;
  /** Rotary dimension of the group being extended. */
  dim: number;
  trained: number;
  /** The length the file asks for. */
  length: number;
  /** Largest relative distance the layers see at that length (the window for sliding layers). */
  reach: number;
  llamaFamily: boolean;
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
}

/** Verdicts above this length are not computed as you type (the scan is linear in the length). */
export const MAX_VERDICT_LENGTH = 1 << 21;

/**
 * Which rewrite to prefer. Training at the length (the paper's setting): the verdict first (meets
 * the bound, else holds furthest), then the smallest edit; dynamic NTK (a base per sequence length)
 * is not for training. Running a checkpoint as is: whether the bound is met, then the
 * training-free methods in the order practitioners use them (YaRN, the NTK-aware base, llama3,
 * dynamic); linear interpolation without fine-tuning blurs nearby positions, and Gradient's law is
 * a base to train with, so neither is preferred over them.
 */
const CHANGE_COST: Record<'training' | 'inference', Record<string, number>> = {
  training: { ntk: 1, 'raise-base': 1.5, linear: 2, yarn: 3, llama3: 5, dynamic: 10 },
  inference: { yarn: 1, ntk: 2, llama3: 2.5, dynamic: 3, linear: 4, 'raise-base': 10 },
};

export function extensionFixes(x: ExtensionInput): Fix[] {
  const s = x.length / x.trained;
  if (!(s > 1) || !Number.isFinite(s)) return [];
  const factor = factorValue(s);
  const out: { fix: Fix; spec: RopeSpec; seqLen?: number }[] = [];
  const add = (fix: Fix | undefined, spec: RopeSpec, seqLen?: number) => { if (fix) out.push({ fix, spec, seqLen }); };
  const common = { base: x.base, rotaryDim: x.dim, maxPositionEmbeddings: x.length };

  const baseRewrites = !!x.target.basePath && !x.scalingOnly;
  if (baseRewrites) {
    const ntk = ntkAwareBase(x.base, s, x.dim);
    add({ title: `Apply NTK scaling: ${x.target.baseName} ${fmtPlain(x.base)} → ${fmtPlain(ntk)} (s = ${fmt(s)}, d = ${x.dim})`, kind: 'ntk', edits: x.target.editor.set(x.target.basePath!, ntk) },
      { ...common, ropeType: 'default', base: ntk });
  }
  const yarn = yarnFix(x.target, factor, x.trained);
  const yarnContext = Math.round(factor * x.trained);
  if (yarn && x.declaredContext && x.declaredContext.value !== x.trained && x.declaredContext.value !== yarnContext) {
    yarn.title += `, max_position_embeddings ${yarnContext}`;
    const block = { rope_type: 'yarn', factor: float(roundFactor(factor)), original_max_position_embeddings: x.trained };
    yarn.edits = withDeclaredContext(x.target, yarn, block, x.declaredContext.path, yarnContext);
  }
  add(yarn, { ...common, ropeType: 'yarn', factor, originalMaxPositionEmbeddings: x.trained });
  add(linearFix(x.target, factor), { ...common, ropeType: 'linear', factor });
  if (x.llamaFamily) {
    add(llama3Fix(x.target, factor, x.trained), { ...common, ropeType: 'llama3', factor, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: x.trained });
  }
  if (x.contextPath) {
    // transformers starts dynamic NTK at max_position_embeddings: it goes back to T.
    const dyn = dynamicFix(x.target, factor);
    if (dyn) {
      add({ ...dyn, title: `${dyn.title}, max_position_embeddings back to ${x.trained}`, edits: [...dyn.edits, ...x.target.editor.set(x.contextPath, x.trained)] },
        { ...common, ropeType: 'dynamic', factor, maxPositionEmbeddings: x.trained }, x.length);
    }
  }
  if (baseRewrites && x.trained > 2 * Math.PI) {
    const g = gradientThetaBase(x.base, x.trained, x.length);
    add({ title: `Raise ${x.target.baseName} by Gradient's law for training at ${fmt(x.length)}: ${fmtPlain(x.base)} → ${fmtPlain(g)}`, kind: 'raise-base', edits: x.target.editor.set(x.target.basePath!, g) },
      { ...common, ropeType: 'default', base: g });
  }

  return judgedRewrites(out, x);
}

/**
 * The YaRN block's edits plus the declared context. When both keys go into a mapping the file does
 * not have yet (axolotl's `overrides_of_model_config`), two separate insertions would each write
 * that mapping, and PyYAML keeps only the last: the mapping is written once, holding both.
 */
function withDeclaredContext(t: RopeTarget, yarn: Fix, block: PlainObject, path: KeyPath, value: number): Fix['edits'] {
  const parent = path.slice(0, -1);
  const sp = t.scalingPath;
  if (sp && parent.length > 0 && sp.length === path.length && parent.every((k, i) => sp[i] === k) && t.editor.nodeAt(parent)?.kind !== 'object') {
    return t.editor.set(parent, { [sp[sp.length - 1]]: block, [path[path.length - 1]]: value });
  }
  return [...yarn.edits, ...t.editor.set(path, value)];
}

/** A rewrite with the frequencies it makes (and the running length, for dynamic NTK). */
export interface RewriteCandidate { fix: Fix; spec: RopeSpec; seqLen?: number }

/** Each rewrite's verdict at the reach, in its title, and the preferred one marked (also for callers that write elsewhere, e.g. vLLM overrides). */
export function judgedRewrites(candidates: RewriteCandidate[], x: Pick<ExtensionInput, 'reach' | 'variant' | 'preferred' | 'training'>): Fix[] {
  const fixes = candidates.map(({ fix, spec, seqLen }) => {
    const verdict = verdictOf(spec, x.reach, x.variant, seqLen);
    return verdict ? { ...fix, title: `${fix.title} — ${verdictText(verdict)}`, verdict } : fix;
  });
  markPreferred(fixes, x.preferred, x.training);
  return fixes;
}

/** "meets the bound at 65,536" / "holds to 40,960 of 65,536". */
export function verdictText(v: FixVerdict): string {
  return v.lmax === null ? `meets the bound at ${fmt(v.length)}` : `holds to ${fmt(v.lmax)} of ${fmt(v.length)}`;
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
  if (verdictCache.size > 256) verdictCache.clear();
  verdictCache.set(key, verdict);
  return verdict;
}

/** Ranks by verdict (how far it holds when training; whether it meets the bound when not), then by use; a user preference wins when offered. */
function markPreferred(fixes: Fix[], preferred: FixKind | 'auto' | undefined, training: boolean): void {
  if (!fixes.length) return;
  const wanted = preferred && preferred !== 'auto' ? fixes.find((f) => f.kind === preferred) : undefined;
  (wanted ?? preferredOf(fixes, training))!.preferred = true;
}

/**
 * The fix to prefer among `fixes` by that ranking; fix verification uses it when the preferred
 * fix was not offered.
 */
export function preferredOf(fixes: readonly Fix[], training: boolean): Fix | undefined {
  const cost = CHANGE_COST[training ? 'training' : 'inference'];
  const reach = (f: Fix) => (f.verdict ? (f.verdict.lmax === null ? Infinity : f.verdict.lmax) : -1);
  const score = training ? reach : (f: Fix) => (f.verdict?.lmax === null ? 1 : 0);
  return [...fixes].sort((a, b) => score(b) - score(a) || (cost[a.kind] ?? 9) - (cost[b.kind] ?? 9))[0];
}
