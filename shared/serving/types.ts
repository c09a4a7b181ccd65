/**
 * The serving model's contract: what each inference engine derives from a model's RoPE
 * description and what it must be told to run the model at a given context.
 * Pure data; no engine module reads files or knows about editors.
 */
import type { FixVerdict } from '../core/findings';
import type { ModelRope } from '../config/modelRope';

export type EngineName = 'vllm' | 'sglang' | 'llama.cpp' | 'tgi' | 'ollama';
export const ENGINE_NAMES: readonly EngineName[] = ['vllm', 'sglang', 'llama.cpp', 'tgi', 'ollama'];

export interface ServingInput {
  rope: ModelRope;
  /** The length the checkpoint was trained at (see `trainedContextOf`). */
  trainedContext: number;
  /** The context to serve; default: the longest the config's own settings support. */
  context?: number;
  /** How the command names the model: a hub id or a folder (vLLM, SGLang, TGI). */
  model?: string;
  /** The GGUF file llama.cpp loads, when the input is one. */
  gguf?: string;
  /** A GGUF file in a Hub repository: llama-server downloads it itself (`--hf-repo`, `--hf-file`). */
  ggufHub?: { repo: string; file: string };
  /**
   * Every context-length key the config writes (`max_position_embeddings`, `seq_length`,
   * `model_max_length`, …) where the caller knows them: engines take the min or the first of
   * different lists. Without it, `rope.contextLength` stands for all of them.
   */
  contextKeys?: Readonly<Record<string, number>>;
}

/** One engine's answer: the shape of `rope-lens serve --json`. */
export interface ServingPlan {
  engine: EngineName;
  /** The maximum context the engine derives from the config without overrides (or GGUF header). */
  derivedMaxLen: number;
  /** The context the command serves. */
  context: number;
  /** The command line, program first, one argument per entry (unquoted). */
  args: string[];
  /** Environment variables the command needs. */
  env: Record<string, string>;
  /** The config override the command passes (vLLM `--hf-overrides`, SGLang `--json-model-override-args`), or null. */
  overrides: Record<string, unknown> | null;
  /** What the engine will do that the flags cannot say: limits, unsupported scaling, caps. */
  notes: string[];
  /**
   * The recommended rewrite (advice/advice.ts) when the context needs one: its kind, factor and
   * label, and whether this engine's command writes it (`written`: false where the engine cannot
   * say it, e.g. TGI's CLI has no YaRN; the notes then say so).
   */
  rewrite?: {
    kind: string;
    factor: number;
    original?: number;
    base?: number;
    label: string;
    recipe: boolean;
    written: boolean;
    /** Its verdict, as check's fix carries it (advice/scalingVerdict.ts). */
    verdict?: FixVerdict;
  };
}
