/**
 * vLLM's length judgement (called from length.ts and beyondTrained.ts): a `vllm serve` command and
 * its `--config` YAML are the same request, so the same values give the same code, message and
 * fix titles; only the edits differ (a YAML key, or the user's command tokens).
 *   vllm/max-model-len-exceeds (error): above the length vLLM derives for the model with the
 *     overrides — vllm/config/model.py::_get_and_verify_max_len raises "User-specified
 *     max_model_len (…) is greater than the derived max_model_len (…)" unless
 *     VLLM_ALLOW_LONG_MAX_MODEL_LEN is 1 or true (vllm/envs.py); with it, vLLM only warns and
 *     the finding is a warning (positions past the derived length are still extrapolated).
 *   vllm/context-beyond-trained (warning): accepted, but beyond what the model reaches
 *     (config/reach.ts): past its trained context with no scaling in effect, where some RoPE layer
 *     has no window keeping it within (a model whose every layer is windowed at 4,096 sees no
 *     farther distance, unless --disable-sliding-window turns the windows off); or past what its
 *     own scaling reaches, each factor counted once (vLLM multiplies a linear model's
 *     max_position_embeddings by the factor even when it already includes it).
 *   vllm/static-yarn-within-trained (information): YaRN in effect while the length stays within
 *     the original context: vLLM applies it at every length (serving/common.ts, staticYarnNote).
 * Fixes (advice.md situation 3, in override form, each with its verdict): NTK-aware rope_theta,
 * YaRN {factor C/T, original T}, linear, dynamic, llama3 for Llama; for the error also the length
 * lowered to the derived one.
 */
import type { Fix, Finding, TextEdit } from '../../core/findings';
import type { Range } from '../../core/range';
import type { ModelRope } from '../../config/modelRope';
import { ScalingFacts, isNativeYarn } from '../../serving/common';
import type { LengthPolicy, ScalingReleaseNeed } from '../../serving/engine';
import { lengthValuesText, lengthWithOverride } from '../../serving/lengthPolicy';
import { derivativeNote, modelReach, ropeReachAt } from '../../config/reach';
import { judgedRewrites, rewriteOf, RewriteCandidate } from '../../fixes/extension';
import { RewriteOption, adviseRewrite } from '../../advice/advice';
import { fmt } from '../../core/format';
import { fmtPlain } from '../../core/format';
import { finding } from '../context';
import { roundFactor } from '../../fixes/rewrites';

export const MAX_LEN_EXCEEDS = 'vllm/max-model-len-exceeds';
export const SERVING_BEYOND_TRAINED = 'vllm/context-beyond-trained';
export const SERVING_STATIC_YARN = 'vllm/static-yarn-within-trained';

export interface VllmLengthInput {
  /** How the engine derives the length (its Engine object's lengthPolicy): this module imports no engine. */
  policy: LengthPolicy;
  /** The variable that lets the engine run above its derived length (VLLM_ALLOW_LONG_MAX_MODEL_LEN). */
  longEnv: string;
  /** The requested max-model-len. */
  length: number;
  /**
   * How the length is named in messages: `max-model-len` when the command sets it, else where it comes
   * from (an override that raised max_position_embeddings, which vLLM then serves in full).
   */
  lengthWords?: string;
  derived: number;
  trained: number;
  /** The scaling vLLM applies (the override's, else the model's). */
  facts: ScalingFacts;
  /** The model as vLLM builds it (overrides applied). */
  effective: ModelRope;
  /** The model as written in the file. */
  model: string;
  resolved: boolean;
  range: Range;
  /** Writes several override keys in one edit (merging with the overrides already there). */
  setOverrides(values: Record<string, unknown>): TextEdit[];
  /** Writes the length (the lowered-length fix). */
  setLength(n: number): TextEdit[];
  /** The engine's long-length variable as the environment gives it, when it allows the length. */
  allowLong?: string;
  /** Where the override object is written, for fix titles (`hf-overrides`, `json-model-override-args`). */
  overrideName?: string;
  /** `--disable-sliding-window`: every layer attends in full, and `derived` is capped at the window. */
  windowsOff?: boolean;
  /** Why an override of this model's RoPE keys reaches no position (vLLM's and SGLang's ChatGLM): no scaling fix then. */
  ropeIgnored?: string;
  /** The command raised the base to the NTK-aware base for the length (engineFixes.commandRaisedBase): its own extension. */
  raisedBaseCovers?: boolean;
  /**
   * A scaling override works for this model only from some release on (vLLM's Gemma-2), and the
   * launch names an older release or none: lowering the length is preferred (it works on every
   * release), and the message names the release the scaling fixes need.
   */
  scalingRelease?: ScalingReleaseNeed;
}

/** What the release means for the fixes, in one or two sentences. */
function releaseNote(r: ScalingReleaseNeed | undefined): string {
  if (!r) return '';
  const where = r.named ? `this launch runs vLLM ${r.named}, before ${r.from}, where` : `before vLLM ${r.from}`;
  return ` Note: ${where} ${r.why}, so a scaling override passes the length check and runs unscaled. Lowering the length works on every release${r.named ? '' : `; the scaling fixes need vLLM ≥ ${r.from}`}.`;
}

/** Marks `fix` as the one preferred fix among `fixes` (the release-safe choice). */
function preferOnly(fixes: Fix[], fix: Fix): Fix[] {
  for (const f of fixes) f.preferred = f === fix;
  return fixes;
}

export function vllmLengthFindings(x: VllmLengthInput): Finding[] {
  const C = x.length;
  const { derived, trained, facts } = x;
  const unscaled = facts.type === 'none';
  const model = modelName(x.model);
  const from = x.resolved ? ` from ${model}` : '';
  const out: Finding[] = [];
  if (C > derived) {
    const window = x.windowsOff ? x.policy.slidingWindow?.({ rope: x.effective, trainedContext: trained }) : undefined;
    const capped = window !== undefined && window < x.policy.base({ rope: x.effective, trainedContext: trained }).value;
    const basis = capped
      ? `disable-sliding-window caps it at the sliding window ${fmt(window!)}`
      : unscaled
        ? `${x.policy.base({ rope: x.effective, trainedContext: trained }).key}, no RoPE scaling`
        : facts.type
          ? `${facts.type} scaling`
          : unknownType(facts.rawType);
    const lower = lowerFix(x);
    const fixes = [...overrideExtensionFixes(x), lower].filter((f) => f.edits.length > 0);
    if (x.scalingRelease && lower.edits.length) preferOnly(fixes, lower);
    if (x.allowLong !== undefined) {
      out.push(
        finding(
          MAX_LEN_EXCEEDS,
          'warning',
          `vLLM serves ${fmt(C)} tokens but extrapolates every position past the ${fmt(derived)} it derives for this model.`,
          x.range,
          fixes,
          `max-model-len ${fmt(C)} is above the ${fmt(derived)} vLLM derives${from} (${basis}): ${x.longEnv}=${x.allowLong} turns vLLM's ValueError into a warning, but positions past ${fmt(derived)} are still extrapolated (vLLM: "positions exceeding derived_max_model_len lead to nan").${releaseNote(x.scalingRelease)}`,
        ),
      );
    } else {
      out.push(
        finding(
          MAX_LEN_EXCEEDS,
          'error',
          `vLLM refuses to start: max-model-len ${fmt(C)} is above the ${fmt(derived)} it derives for this model.`,
          x.range,
          fixes,
          `vLLM derives ${fmt(derived)}${from} (${basis}) and raises ValueError at startup unless ${x.longEnv}=1; positions past ${fmt(derived)} are extrapolated.${unscaled && x.ropeIgnored ? ` ${x.ropeIgnored}` : ''}${releaseNote(x.scalingRelease)}`,
        ),
      );
    }
  } else if (unscaled) {
    const T = x.raisedBaseCovers ? undefined : extensionFrom(x);
    if (T !== undefined) {
      const fixes = overrideExtensionFixes(x).filter((f) => f.edits.length > 0);
      // Where the scaling fixes depend on the release, lowering the length to T is the one that works everywhere.
      if (x.scalingRelease) {
        const lower: Fix = { title: `Set max-model-len to ${T}`, kind: 'other', edits: x.setLength(T) };
        if (lower.edits.length) {
          fixes.push(lower);
          preferOnly(fixes, lower);
        }
      }
      out.push(
        finding(
          SERVING_BEYOND_TRAINED,
          'warning',
          `vLLM extrapolates every position past ${fmt(T)}: no RoPE scaling covers max-model-len ${fmt(C)}.`,
          x.range,
          fixes,
          `max-model-len ${fmt(C)} is beyond the ${fmt(T)} tokens ${model} was trained ${T === trained ? 'at' : 'to'} and no RoPE scaling is set: vLLM accepts it.${derivativeNote(x.effective)}${x.ropeIgnored ? ` ${x.ropeIgnored}` : ''}${releaseNote(x.scalingRelease)}`,
        ),
      );
    }
  } else {
    // Accepted (within vLLM's derived length) but past what the model's own scaling reaches.
    const reach = modelReach(x.effective, trained);
    if (C > reach.value) {
      const lower = { title: `Set max-model-len to ${reach.value}`, kind: 'other' as const, edits: x.setLength(reach.value) };
      // A shipped scaling kept as shipped (advice.md situation 4): its own type re-sized comes first.
      const resize = reach.shippedScaling ? resizeOverrideFix(x, C, reach.value) : undefined;
      const said = x.lengthWords ?? `max-model-len ${fmt(C)}`;
      out.push(
        finding(
          SERVING_BEYOND_TRAINED,
          'warning',
          `Positions past ${fmt(reach.value)} were never trained: ${said} goes beyond what the model reaches.`,
          x.range,
          [...(resize ? [resize] : []), lower].filter((f) => f.edits.length > 0),
          `${said} is beyond the ${fmt(reach.value)} tokens ${model} reaches (${reach.basis}); vLLM accepts up to ${fmt(derived)}, its own derived length.`,
        ),
      );
    }
  }
  const original = facts.original ?? trained;
  // The model's own YaRN (DeepSeek-V3/R1, gpt-oss) is how it was trained to run: never advised away.
  if (facts.type === 'yarn' && (facts.factor ?? 1) > 1 && C <= original && !isNativeYarn(x.effective)) {
    out.push(
      finding(
        SERVING_STATIC_YARN,
        'information',
        `Short inputs lose some quality for no gain: vLLM applies YaRN ×${fmt(facts.factor!)} at every length, within ${fmt(original)} too.`,
        x.range,
        [],
        `YaRN factor ${fmt(facts.factor!)} is in effect while max-model-len ${fmt(C)} stays within the ${fmt(original)} tokens ${model} was trained at: vLLM applies YaRN at every length (static scaling). Leave the scaling out unless inputs go past ${fmt(original)}.`,
      ),
    );
  }
  return out;
}

/**
 * The length a new scaling extends from, when the model has none and some RoPE layer would see
 * past its reach at the requested length: its trained context, or its own max_position_embeddings
 * when its own rope_theta extends it; windows keep a layer within them unless turned off.
 */
function extensionFrom(x: Pick<VllmLengthInput, 'length' | 'trained' | 'effective' | 'facts' | 'windowsOff'>): number | undefined {
  if (x.facts.type !== 'none') return undefined;
  const T = modelReach(x.effective, x.trained).unscaledFrom ?? x.trained;
  const seen = x.windowsOff ? x.length : ropeReachAt(x.effective, x.length);
  return x.length > T && seen > T ? T : undefined;
}

/** The model as written, unless what is written reads like a computation bug (then described). */
export function modelName(v: string): string {
  return /NaN|undefined|\[object/.test(v) ? 'the model written there' : v;
}

/** A scaling type no engine knows, described without echoing a value that is not a plain name. */
function unknownType(raw: unknown): string {
  return typeof raw === 'string' && /^[\w.-]+$/.test(raw) ? `rope_type '${raw}', which vLLM does not know` : 'a rope_type vLLM cannot read';
}

/**
 * The model's own scaling block re-sized to cover C, written as an override (`rope_scaling` with the
 * shipped keys and a new factor): llama3 stretches from its original context, linear from the
 * context before its factor. Undefined for other types (longrope's per-dimension lists).
 */
function resizeOverrideFix(x: VllmLengthInput, C: number, covered: number): Fix | undefined {
  const s = x.effective.scaling;
  const factor = x.facts.factor;
  if (!s || factor === undefined || (x.facts.type !== 'llama3' && x.facts.type !== 'linear')) return undefined;
  const from = x.facts.type === 'llama3' ? x.facts.original : covered / factor;
  if (from === undefined || !(from > 0)) return undefined;
  const next = roundFactor(C / from);
  if (!(next > factor)) return undefined;
  const block: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s.params)) if (v.value !== undefined) block[k] = v.value;
  block.rope_type = x.facts.type;
  block.factor = next;
  const over = x.facts.type === 'llama3' ? ` over original_max_position_embeddings ${fmt(from)}` : ` from ${fmt(from)}`;
  return {
    title: `Re-size the ${x.facts.type} scaling in ${x.overrideName ?? 'hf-overrides'}: factor ${fmt(factor)} → ${fmt(next)}${over}, covers ${fmt(next * from)}`,
    kind: x.facts.type,
    preferred: true,
    edits: x.setOverrides({ rope_scaling: block }),
  };
}

function lowerFix(x: VllmLengthInput): Fix {
  return { title: `Set max-model-len to ${x.derived}`, kind: 'other', edits: x.setLength(x.derived) };
}

/**
 * advice.md situation 3 written as a config override (vLLM `--hf-overrides`, SGLang
 * `--json-model-override-args`), only when the model has no scaling to extend (a scaled model is
 * not rescaled): NTK-aware rope_theta, YaRN, linear, dynamic, llama3 for Llama models, each with
 * its verdict at the served length; the preferred one as for a checkpoint run as is. Overrides
 * that do not move the derived length also set the length keys the engine reads (its
 * lengthPolicy: max_position_embeddings, or Qwen-1's and ChatGLM's seq_length for SGLang).
 */
export function overrideExtensionFixes(
  x: Pick<
    VllmLengthInput,
    'policy' | 'length' | 'trained' | 'effective' | 'facts' | 'setOverrides' | 'overrideName' | 'windowsOff' | 'ropeIgnored' | 'scalingRelease'
  > & {
    /** SGLang ignores YaRN's factor when original is set: its YaRN override also raises the length it reads. */
    yarnSetsLength?: boolean;
  },
): Fix[] {
  const T = extensionFrom(x);
  const C = x.length;
  const rope = x.effective;
  const name = x.overrideName ?? 'hf-overrides';
  if (T === undefined || x.ropeIgnored) return [];
  // The one recommendation (advice/advice.ts), judged over what the layers see at C.
  const advice = adviseRewrite({ rope, length: C, trained: x.trained, from: T, reach: x.windowsOff ? C : ropeReachAt(rope, C), variant: 'v5' });
  if (!advice) return [];
  const input = { rope, trainedContext: x.trained };
  // The keys that raise the engine's length to C, as it reads them for this model.
  const length = x.policy.lengthValues(input, C);
  const lengthText = lengthValuesText(length);
  const candidates: RewriteCandidate[] = [];
  const release = x.scalingRelease;
  const add = (title: string, kind: Fix['kind'], values: Record<string, unknown>, o: RewriteOption) => {
    // A scaling (not a base) is dropped by the releases `release` names: not offered on a named one, said on an unknown one.
    const needsRelease = !!release && 'rope_scaling' in values;
    if (needsRelease && release.named) return;
    // A scaling the engine does not stretch its derived length by (vLLM skips Gemma-3's; a linear
    // factor over a small max_position_embeddings) also raises the context, or the engine still refuses C.
    if (!Object.keys(length).some((k) => k in values) && lengthWithOverride(x.policy, input, values) < C) {
      values = { ...values, ...length };
      title = title.replace(/\)$/, `, ${lengthText})`);
    }
    if (needsRelease) title = `${title} on vLLM ≥ ${release!.from}`;
    const edits = x.setOverrides(values);
    if (edits.length) candidates.push({ fix: { title, kind, edits, rewrite: rewriteOf(o) }, spec: o.spec, seqLen: o.seqLen, recipe: !!o.recipe });
  };
  for (const o of [...advice.options].sort((a, b) => displayOrder(a) - displayOrder(b))) {
    switch (o.kind) {
      case 'ntk':
        add(
          `Apply NTK scaling in ${name}: rope_theta ${fmtPlain(advice.base)} → ${fmtPlain(o.base!)} (s = ${fmt(o.factor)}, d = ${advice.dim}), ${lengthText}`,
          'ntk',
          { rope_theta: o.base, ...length },
          o,
        );
        break;
      case 'yarn': {
        const orig = o.original ?? T;
        const setsLength = x.yarnSetsLength || (o.recipe !== undefined && Math.round(o.factor * orig) < C);
        const what = o.recipe
          ? `${o.recipe.restores ? `Restore the YaRN of ${o.recipe.who}` : `Add YaRN as ${o.recipe.who} documents it`} in ${name}`
          : `Add YaRN to ${name}`;
        add(
          `${what} (factor ${fmt(o.factor)}, original ${orig}${setsLength ? `, ${lengthText}` : ''})`,
          'yarn',
          {
            rope_scaling: o.scaling ?? { rope_type: 'yarn', factor: o.factor, original_max_position_embeddings: orig },
            ...(setsLength ? length : {}),
          },
          o,
        );
        break;
      }
      case 'linear':
        add(`Add linear scaling to ${name} (factor ${fmt(o.factor)})`, 'linear', { rope_scaling: o.scaling ?? { rope_type: 'linear', factor: o.factor } }, o);
        break;
      case 'dynamic':
        add(
          `Add dynamic NTK scaling to ${name} (factor ${fmt(o.factor)})`,
          'dynamic',
          { rope_scaling: o.scaling ?? { rope_type: 'dynamic', factor: o.factor } },
          o,
        );
        break;
      case 'llama3': {
        // Engines derive llama3 models' length without the factor, so the length keys move with the scaling.
        const what = o.recipe
          ? `${o.recipe.restores ? `Restore the llama3 scaling of ${o.recipe.who}` : `Add llama3 scaling as ${o.recipe.who} documents it`} in ${name}`
          : `Add Llama-3 scaling to ${name}`;
        add(
          `${what} (factor ${fmt(o.factor)}, original ${o.original ?? T})`,
          'llama3',
          {
            rope_scaling: o.scaling ?? { rope_type: 'llama3', factor: o.factor, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: T },
            ...x.policy.lengthValues(input, Math.max(C, o.recipe?.reach ?? 0)),
          },
          o,
        );
        break;
      }
      default:
        break; // Gradient's law is a base to train with, not to serve with
    }
  }
  return judgedRewrites(candidates, { reach: advice.reach, variant: 'v5', training: false, advice });
}

/** The order fixes are listed in (the preferred one is marked, not moved). */
function displayOrder(o: RewriteOption): number {
  return ({ ntk: 1, yarn: 2, linear: 3, dynamic: 4, llama3: 5, 'raise-base': 6 } as const)[o.kind] - (o.recipe ? 0.5 : 0);
}
