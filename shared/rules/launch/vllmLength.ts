/**
 * vLLM's length judgement, one implementation for both ways vLLM is told a length: the `--config`
 * YAML (rules/serving/maxModelLen.ts) and a `vllm serve` command (rules/launch/length.ts,
 * beyondTrained.ts). Same values → same code, message and fix titles; only the edits differ
 * (a YAML key, or the user's command tokens).
 *   vllm/max-model-len-exceeds (error): above the length vLLM derives for the model with the
 *     overrides — vllm/config/model.py::_get_and_verify_max_len raises "User-specified
 *     max_model_len (…) is greater than the derived max_model_len (…)" unless
 *     VLLM_ALLOW_LONG_MAX_MODEL_LEN is 1 or true (vllm/envs.py); with it, vLLM only warns and
 *     the finding is a warning (positions past the derived length are still extrapolated).
 *   vllm/context-beyond-trained (warning): accepted, but beyond the trained context with no
 *     scaling in effect.
 * Fixes (advice.md situation 3, in override form, each with its verdict): NTK-aware rope_theta,
 * YaRN {factor C/T, original T}, linear, dynamic, llama3 for Llama; for the error also the length
 * lowered to the derived one.
 */
import type { Fix, Finding, TextEdit } from '../../core/findings';
import type { Range } from '../../core/range';
import type { ModelRope } from '../../config/modelRope';
import type { ScalingFacts } from '../../serving/common';
import { VLLM_LONG_ENV } from '../../serving/vllm';
import { judgedRewrites, RewriteCandidate } from '../../fixes/extension';
import { factorValue } from '../../fixes/rewrites';
import { ntkAwareBase } from '../../rope/seedMethods';
import { fmt } from '../../core/format';
import { fmtPlain } from '../../core/format';
import { finding } from '../context';

export const MAX_LEN_EXCEEDS = 'vllm/max-model-len-exceeds';
export const SERVING_BEYOND_TRAINED = 'vllm/context-beyond-trained';

export interface VllmLengthInput {
  /** The requested max-model-len. */
  length: number;
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
  /** VLLM_ALLOW_LONG_MAX_MODEL_LEN as the environment gives it, when truthy for vLLM. */
  allowLong?: string;
  /** Where the override object is written, for fix titles (`hf-overrides`, `json-model-override-args`). */
  overrideName?: string;
}

/** VLLM_ALLOW_LONG_MAX_MODEL_LEN as vllm/envs.py reads it: "1" or "true", any case, trimmed. */
export function vllmAllowsLong(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true'].includes(value.trim().toLowerCase());
}

export function vllmLengthFindings(x: VllmLengthInput): Finding[] {
  const C = x.length;
  const { derived, trained, facts } = x;
  const unscaled = facts.type === 'none';
  const model = modelName(x.model);
  const from = x.resolved ? ` from ${model}` : '';
  if (C > derived) {
    const basis = unscaled ? 'max_position_embeddings, no RoPE scaling' : facts.type ? `${facts.type} scaling` : unknownType(facts.rawType);
    const fixes = [...overrideExtensionFixes(x), lowerFix(x)].filter((f) => f.edits.length > 0);
    if (x.allowLong !== undefined) {
      return [finding(MAX_LEN_EXCEEDS, 'warning',
        `max-model-len ${fmt(C)} is above the ${fmt(derived)} vLLM derives${from} (${basis}): ${VLLM_LONG_ENV}=${x.allowLong} turns vLLM's ValueError into a warning, but positions past ${fmt(derived)} are still extrapolated (vLLM: "positions exceeding derived_max_model_len lead to nan").`,
        x.range, fixes)];
    }
    return [finding(MAX_LEN_EXCEEDS, 'error',
      `max-model-len ${fmt(C)} is above the ${fmt(derived)} vLLM derives${from} (${basis}): vLLM raises ValueError at startup unless ${VLLM_LONG_ENV}=1, and positions past ${fmt(derived)} are extrapolated.`,
      x.range, fixes)];
  }
  if (unscaled && C > trained) {
    return [finding(SERVING_BEYOND_TRAINED, 'warning',
      `max-model-len ${fmt(C)} is beyond the ${fmt(trained)} tokens ${model} was trained at and no RoPE scaling is set: vLLM accepts it and extrapolates every position past ${fmt(trained)}.`,
      x.range, overrideExtensionFixes(x).filter((f) => f.edits.length > 0))];
  }
  return [];
}

/** The model as written, unless what is written reads like a computation bug (then described). */
export function modelName(v: string): string {
  return /NaN|undefined|\[object/.test(v) ? 'the model written there' : v;
}

/** A scaling type no engine knows, described without echoing a value that is not a plain name. */
function unknownType(raw: unknown): string {
  return typeof raw === 'string' && /^[\w.-]+$/.test(raw) ? `rope_type '${raw}', which vLLM does not know` : 'a rope_type vLLM cannot read';
}

function lowerFix(x: VllmLengthInput): Fix {
  return { title: `Set max-model-len to ${x.derived}`, kind: 'other', edits: x.setLength(x.derived) };
}

/**
 * advice.md situation 3 written as a config override (vLLM `--hf-overrides`, SGLang
 * `--json-model-override-args`), only when the model has no scaling to extend (a scaled model is
 * not rescaled): NTK-aware rope_theta, YaRN, linear, dynamic, llama3 for Llama models, each with
 * its verdict at the served length; the preferred one as for a checkpoint run as is. Overrides
 * that do not move the derived length also set max_position_embeddings.
 */
export function overrideExtensionFixes(x: Pick<VllmLengthInput, 'length' | 'trained' | 'effective' | 'facts' | 'setOverrides' | 'overrideName'> & {
  /** SGLang ignores YaRN's factor when original is set: its YaRN override also raises max_position_embeddings. */
  yarnSetsLength?: boolean;
}): Fix[] {
  const T = x.trained;
  const C = x.length;
  const rope = x.effective;
  const name = x.overrideName ?? 'hf-overrides';
  if (x.facts.type !== 'none' || !(C > T)) return [];
  const s = C / T;
  const factor = factorValue(s);
  const base = rope.base.value, dim = rope.rotaryDim.value;
  const common = { base, rotaryDim: dim, maxPositionEmbeddings: C };
  const candidates: RewriteCandidate[] = [];
  const add = (title: string, kind: Fix['kind'], values: Record<string, unknown>, spec: RewriteCandidate['spec'], seqLen?: number) => {
    const edits = x.setOverrides(values);
    if (edits.length) candidates.push({ fix: { title, kind, edits }, spec, seqLen });
  };
  if (Number.isFinite(base) && Number.isFinite(dim)) {
    const ntk = ntkAwareBase(base, s, dim);
    add(`Apply NTK scaling in ${name}: rope_theta ${fmtPlain(base)} → ${fmtPlain(ntk)} (s = ${fmt(s)}, d = ${dim}), max_position_embeddings ${C}`, 'ntk',
      { rope_theta: ntk, max_position_embeddings: C }, { ...common, ropeType: 'default', base: ntk });
  }
  add(`Add YaRN to ${name} (factor ${fmt(factor)}, original ${T}${x.yarnSetsLength ? `, max_position_embeddings ${C}` : ''})`, 'yarn',
    { rope_scaling: { rope_type: 'yarn', factor, original_max_position_embeddings: T }, ...(x.yarnSetsLength ? { max_position_embeddings: C } : {}) },
    { ...common, ropeType: 'yarn', factor, originalMaxPositionEmbeddings: T });
  add(`Add linear scaling to ${name} (factor ${fmt(factor)})`, 'linear',
    { rope_scaling: { rope_type: 'linear', factor } }, { ...common, ropeType: 'linear', factor });
  add(`Add dynamic NTK scaling to ${name} (factor ${fmt(factor)})`, 'dynamic',
    { rope_scaling: { rope_type: 'dynamic', factor } }, { ...common, ropeType: 'dynamic', factor, maxPositionEmbeddings: T }, C);
  if (rope.modelType === 'llama') {
    // vLLM derives llama3 models' length from max_position_embeddings alone, so it moves with the scaling.
    add(`Add Llama-3 scaling to ${name} (factor ${fmt(factor)}, original ${T})`, 'llama3',
      { rope_scaling: { rope_type: 'llama3', factor, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: T }, max_position_embeddings: C },
      { ...common, ropeType: 'llama3', factor, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: T });
  }
  return judgedRewrites(candidates, { reach: C, variant: 'v5', training: false });
}
