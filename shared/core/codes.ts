/**
 * The registry of finding codes: every code a rule may emit, its usual severity, a one-line summary
 * and its page (docs/rules/<code>.md). Front-ends read it for `rope-lens rules`, SARIF's rule list
 * and checks of user-written codes (`# rope-lens: disable=…`, `.rope-lens.yaml`).
 * test/unit/codes.test.ts fails when a rule emits a code missing here, or a code here has no page.
 */
import type { Severity } from './findings';

export interface CodeInfo {
  code: string;
  /** The severity the rule gives in the common case. */
  severity: Severity;
  /** Other severities the rule gives in some situations (documented on its page). */
  also?: Severity[];
  /** One line: what the finding says is wrong. */
  summary: string;
  /**
   * A code no rule reports any more, kept so that suppressions naming it stay valid: why it is
   * retired and what replaced it. Its page says so and has no examples.
   */
  retired?: string;
}

const c = (code: string, severity: Severity, summary: string, also?: Severity[]): CodeInfo => ({ code, severity, summary, ...(also ? { also } : {}) });
const retired = (code: string, severity: Severity, summary: string, why: string): CodeInfo => ({ code, severity, summary, retired: why });

export const FINDING_CODES: readonly CodeInfo[] = [
  // Model configs (also the effective model of a training config).
  c('rope/base-below-bound', 'information', 'The RoPE base fails the base bound below the distance the layers reach.', ['hint', 'warning']),
  c('rope/context-extended', 'warning', 'max_position_embeddings is beyond the trained context and no RoPE scaling is set.', ['information']),
  c('rope/context-unchecked', 'information', 'The length to judge is beyond the 2^24 tokens the bound engine scans.'),
  c('rope/invalid-value', 'error', 'A RoPE value transformers cannot compute with (base ≤ 1, odd or oversized rotary dimension, length ≤ 0, not a number).'),
  c('rope/absurd-value', 'warning', 'A loadable but numerically absurd base (float32 inv_freq underflows to 0).'),
  c('parse/not-analysed', 'warning', 'The file looks like a config but the parser refused it as a whole.'),
  c('parse/invalid-json', 'error', "A model config Python's json module refuses (a missing or trailing comma, a comment…)."),
  c('rope/type-conflict', 'error', 'rope_scaling has both type and rope_type, with different values.'),
  c('rope/unknown-type', 'error', 'A rope type no consumer knows, or a scaling object without a type.'),
  c('rope/vllm-only-type', 'warning', 'A rope type only vLLM implements; transformers raises at model init.'),
  c('rope/scaling-missing-key', 'error', 'A key the rope type requires is missing.'),
  c('rope/scaling-unknown-key', 'hint', 'A key transformers does not recognise for this rope type.'),
  c('rope/scaling-invalid-value', 'error', 'A scaling value transformers rejects (factor < 1, attention_factor ≤ 0, …).'),
  c('rope/yarn-beta-order', 'warning', "beta_fast < beta_slow inverts YaRN's interpolation ramp."),
  c('rope/llama3-freq-order', 'warning', 'high_freq_factor < low_freq_factor inverts the llama3 frequency bands.'),
  c('rope/llama3-original-context', 'warning', 'llama3 scaling with original_max_position_embeddings ≥ max_position_embeddings.'),
  c('rope/longrope-factor-length', 'error', 'short_factor / long_factor lengths differ from rotary dim / 2.'),
  c('rope/original-context-missing', 'warning', 'A scaling without original_max_position_embeddings while max_position_embeddings is not the trained context.'),
  c('rope/factor-mismatch', 'warning', 'YaRN factor differs from max_position_embeddings / original_max_position_embeddings.', ['information']),
  c('rope/partial-rotary-range', 'error', 'partial_rotary_factor outside (0, 1].'),
  // Training configs and training launches.
  c('training/context-exceeded', 'warning', "Training beyond the base model's context with nothing extending it."),
  c('training/dynamic-scaling', 'warning', "Dynamic NTK while training: the base changes with each batch's length."),
  c('training/stacked-scaling', 'warning', "A training scaling replaces the base model's own scaling."),
  c('training/base-model-unresolved', 'hint', "The base model's config was not found offline; model checks were skipped."),
  c('training/not-read', 'information', 'A training config (a base model and trainer keys) no training reader recognises: said, not judged.'),
  c('training/launch-option-refused', 'error', 'The trainer refuses this command line before training.'),
  c('training/launch-option-ignored', 'warning', 'An option the trainer never applies as written.'),
  c('axolotl/deprecated-rope-scaling', 'error', 'axolotl rejects a top-level rope_scaling.'),
  c('llama-factory/derived-factor', 'information', 'LLaMA-Factory derives the scaling factor from cutoff_len.'),
  c('llama-factory/scaling-ignored', 'warning', 'cutoff_len ≤ the length LLaMA-Factory scales from: it turns the scaling off.'),
  c('llama-factory/fails-on-transformers-5', 'warning', "LLaMA-Factory's rope_scaling fails at load on transformers 5.x.", ['error']),
  c('llama-factory/inference-factor', 'information', "LLaMA-Factory's inference entry points scale by a fixed factor 2.0."),
  c('llama-factory/vllm-rope-scaling', 'error', 'LLaMA-Factory refuses rope_scaling with the vLLM inference backend.'),
  c('axolotl/theta-ignored', 'warning', 'On transformers 5.x an axolotl model_config rope_theta alone never reaches the model.', ['error']),
  c('torchtune/beyond-max-seq-len', 'error', "A sequence length above the torchtune model builder's max_seq_len: torchtune raises ValueError."),
  c('axolotl/override-fails', 'error', 'On transformers 5.x this axolotl model_config RoPE override fails when the model is built.'),
  // Serving configs and vLLM commands.
  c('vllm/max-model-len-exceeds', 'error', 'max-model-len is above the length vLLM derives for the model.', ['warning']),
  c('vllm/context-beyond-trained', 'warning', 'max-model-len is accepted by vLLM but beyond what the model reaches.'),
  c('vllm/static-yarn-within-trained', 'information', 'YaRN is applied while max-model-len stays within the trained context.'),
  c('vllm/removed-option', 'error', 'rope-scaling / rope-theta: options vLLM removed.', ['hint']),
  c('vllm/legacy-rope-type', 'information', 'An hf-overrides scaling written with the legacy type and no rope_type.'),
  retired(
    'serving/model-unresolved',
    'information',
    'The served model was not found offline; max-model-len is not checked.',
    'the request is not judged instead: its description says why (`unjudged` in --json, the hover) and `check` sums such launches up in one line',
  ),
  // Launch commands of the other engines.
  c('launch/length-exceeds-derived', 'warning', 'The requested length is above the length the engine derives for the model.', ['error']),
  c('launch/beyond-trained', 'warning', 'The engine accepts the length but it is beyond the trained context, with no scaling.'),
  c('launch/implicit-linear', 'warning', 'llama.cpp given --rope-scale without --rope-scaling runs linear interpolation.'),
  c('launch/scaling-mismatch', 'warning', 'A scaling set by the command disagrees with the model or the length.'),
  c('launch/override-replaces-scaling', 'warning', "The command's scaling replaces the model's own, different one."),
  c('launch/override-drops-keys', 'error', "The command's scaling lacks keys the model's attention reads (KeyError, or a silent default).", ['warning']),
  c('launch/foreign-flag', 'error', 'An option of another engine, which this engine refuses.'),
  c('launch/misspelled-flag', 'error', "This engine's option in a spelling its parser refuses."),
  c('launch/unknown-env', 'warning', 'An engine variable (OLLAMA_*) the server does not read: it is ignored silently.', ['information']),
  c('launch/removed-flag', 'warning', 'An option the engine no longer reads.'),
  c('launch/bad-value', 'error', "A value the engine's parser refuses."),
  c('launch/cmd-after-entrypoint', 'error', "A container command that starts a shell, appended to an engine image's entrypoint: the container fails at start."),
  c('launch/broken-continuation', 'error', 'A backslash followed by a space ends the shell command; the next line runs on its own.'),
  c('launch/not-read', 'information', 'A launch (or a Python script that trains or serves) RoPE Lens recognised but does not read: said, not judged.'),
  c('launch/override-key-ignored', 'warning', 'An override key the engine sets as is and nothing reads.'),
  retired(
    'launch/model-unresolved',
    'information',
    'The model a command names was not found offline.',
    'the launch is not judged instead: its description says why (`unjudged` in --json, the hover) and `check` sums such launches up in one line',
  ),
  // GGUF headers.
  c('gguf/context-beyond-trained', 'warning', 'A GGUF whose context_length is beyond the trained context, with no scaling keys.'),
  c('gguf/no-architecture', 'information', 'A GGUF header without general.architecture: nothing to check.'),
  // Consumers (transformers releases, engines).
  c('consumer/silent-misread', 'warning', 'A consumer loads the file without complaint but runs other RoPE values.', ['hint']),
  c('consumer/refused', 'error', 'A consumer raises at load on this file.', ['warning', 'hint']),
  c('consumer/attention-factor-differs', 'warning', 'Readers apply different YaRN attention factors (mscale keys read by some, ignored by others).', ['hint']),
  c('consumer/rotary-dims-differ', 'warning', "Consumers rotate different numbers of each head's dimensions (the rotated part is in a key only some read)."),
];

const BY_CODE = new Map(FINDING_CODES.map((i) => [i.code, i]));

/** The registry entry of a code, or undefined for a code no rule emits. */
export function codeInfo(code: string): CodeInfo | undefined {
  return BY_CODE.get(code);
}

/** The page of a code, relative to the repository root. */
export function codePage(code: string): string {
  return `docs/rules/${code}.md`;
}

/**
 * Whether a user-written selector names a code: the code itself, its group (`launch`, `launch/*`)
 * or `all`. Case-sensitive, as codes are.
 */
export function selectorMatches(selector: string, code: string): boolean {
  if (selector === 'all' || selector === code) return true;
  const group = selector.endsWith('/*') ? selector.slice(0, -2) : selector;
  return !group.includes('/') && code.startsWith(`${group}/`);
}

/** Codes rules report today (the registry less the retired ones). */
export const ACTIVE_CODES: readonly CodeInfo[] = FINDING_CODES.filter((i) => !i.retired);

/** Whether a selector names at least one registered code (for warnings about typos). */
export function selectorKnown(selector: string): boolean {
  return FINDING_CODES.some((i) => selectorMatches(selector, i.code));
}
