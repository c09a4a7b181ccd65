/**
 * What an engine or trainer module reads out of one invocation (its own argument grammar applied):
 * the request the rules judge. Engine modules in `serving/` and trainer modules in
 * `config/trainers/` produce it; `rules/launch/` judges it; `rope-lens check --json` prints its
 * plain form (`LaunchDescription` in service/types).
 */
import type { Severity } from '../core/findings';
import type { Invocation, ModelfileLaunch, Token } from './types';

/** One option as the program reads it: the flag token and its value token (`--x v`, `--x=v`: same token twice). */
export interface OptionUse {
  /** The option's canonical name in the program's own grammar (`max-model-len`, `ctx-size`, `max_length`). */
  name: string;
  flag: Token;
  value?: Token;
}

/** A flag or key the program refuses or silently ignores, found while reading the grammar. */
export interface GrammarProblem {
  token: Token;
  /**
   * `foreign`: another engine's flag; `removed`: gone from this engine; `misspelled`; `ignored-key`: an override
   * key never read; `bad-value`; `unknown-env`: an engine-prefixed environment variable the server does not read.
   */
  kind: 'foreign' | 'removed' | 'misspelled' | 'ignored-key' | 'bad-value' | 'unknown-env';
  severity: Severity;
  /** Says what the program does with it (quoting its error message where it refuses). */
  message: string;
  /** A replacement for the token's text, when one is certain (`--context-length` for `--max-model-len` on SGLang). */
  replacement?: string;
  /** Every token the refused option occupies (`--flag value`: both), so a fix can remove it whole. */
  tokens?: Token[];
  /** For a problem inside a JSON value (`ignored-key`): the key path in it, so the finding can sit on that key. */
  keyPath?: string[];
}

export interface LaunchRequest {
  /** `vllm`, `sglang`, `llama.cpp`, `tgi`, `ollama`, or a trainer (`llamafactory`, `swift`, `axolotl`, `torchtune`, `generic-trainer`). */
  program: string;
  /** Serving or training: which rules apply. */
  role: 'serving' | 'training';
  invocation?: Invocation;
  modelfile?: ModelfileLaunch;
  /** The model as named (hub id, folder, GGUF file), with its token. */
  model?: Token;
  /** The requested context (`--max-model-len`, `-c`, `num_ctx`, `--max_length`…), as the program parses it. */
  length?: { value: number; option: OptionUse };
  /** Options that touch RoPE, by canonical name. */
  rope: Record<string, OptionUse>;
  /** A JSON override of the model config (`--hf-overrides`, `--json-model-override-args`). */
  overrides?: { option: OptionUse; value?: Record<string, unknown>; error?: string };
  /** Engine version when the file says it (image tag `vllm/vllm-openai:v0.10.1`, a pinned pip install). */
  version?: Token;
  problems: GrammarProblem[];
  /** Said alongside findings: "read generically: train.py's flags are not known to RoPE Lens". */
  notes: string[];
}
