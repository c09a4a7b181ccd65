/**
 * The analysis service's result: what a document is and what was found in it. Findings and fixes
 * are defined below the service (shared/core/findings) and re-exported here for the front-ends.
 */
import type { ModelRope } from '../config/modelRope';
import type { PendingBound } from '../core/findings';

export type { Severity, TextEdit, FixKind, Fix, FixVerdict, Finding, BoundOracle, PendingBound } from '../core/findings';
import type { Finding } from '../core/findings';

export interface TrainingDescription {
  tool: string;
  sequenceLength?: number;
  baseModel?: string;
  /** Where the base model's config came from: a path, `hf-cache:…`, `catalog:…`, or null. */
  resolvedFrom: string | null;
  /** A pretraining config that continues from another checkpoint (GPT-NeoX `load` with `finetune: true`…): advice.md situation 6. */
  continuesFrom?: string;
}

export interface FileAnalysis {
  kind: 'model-config' | 'training-config' | 'serving-config' | 'launch' | 'other';
  rope: ModelRope | null;
  /** A model config with no rotary position embedding at all: why (absolute positions, T5 buckets, …). */
  noRope?: string;
  training: TrainingDescription | null;
  /** Model configs: how each transformers generation and engine reads the file (`rope-lens consumers`). */
  consumers?: import('../serving/consumer').ConsumerReading[];
  /** Model configs: the file's `transformers_version` (what saved it; a fact for hovers, never its reader). */
  savedWith?: string;
  /** A serving config (vLLM YAML): the model, where it was found, max-model-len and vLLM's derived length. */
  serving?: import('./analyzeServing').ServingDescription;
  /** A launch file (shell script, Dockerfile, compose, Kubernetes, Modelfile): what each invocation asks for. */
  launches?: LaunchDescription[];
  /** Launch files: a hover (markdown) for each judged command's range. */
  launchHovers?: { range: import('../core/range').Range; markdown: string }[];
  diagnostics: Finding[];
  /** Findings silenced by a `# rope-lens: disable` comment or the project file (SARIF lists them as suppressed). */
  suppressed?: import('./suppress').SuppressedFinding[];
  /** The project file's `ignore` entry that excludes this file (`.rope-lens.yaml: legacy/**`): nothing was checked. */
  ignoredBy?: string;
  /** Suppression comments that name no code or cannot be read (0-based line), and project-file problems. */
  configProblems?: { line?: number; message: string }[];
  /** Bound questions the oracle could not answer yet; the server computes them and re-runs. */
  pendingBounds: PendingBound[];
  /** Workspace scans (neighbour folders, sourced files) not landed when this was analysed; the server re-runs it when they do. */
  pendingScans?: string[];
}

/** One invocation read from a launch file, as `check --json` prints it (0-based LSP range). */
export interface LaunchDescription {
  /** `vllm`, `sglang`, `llama.cpp`, `tgi`, `ollama`, `llamafactory`, `swift`, `axolotl`, `torchtune`, `generic-trainer`. */
  program: string;
  role: 'serving' | 'training';
  /** Where in the file: shell, dockerfile, compose, kubernetes, modelfile. */
  source: string;
  /** The model as written (after variables), or null when none is named. */
  model: string | null;
  /** Where the model's config came from (a path, `hf-cache:…`, `catalog:…`), or null when unresolved. */
  resolvedFrom: string | null;
  /** The requested context length as the program parses it, and the option it came from. */
  requestedLength: number | null;
  lengthOption: string | null;
  /** The length the engine derives for the model with the command's overrides (serving), or null. */
  derivedMaxLen: number | null;
  trainedContext: number | null;
  /** RoPE options as written: canonical name → value. */
  ropeOptions: Record<string, string>;
  /** The JSON override as parsed, or null. */
  overrides: Record<string, unknown> | null;
  /** Environment variables that matter to the engine (name → value). */
  env: Record<string, string>;
  range: import('../core/range').Range;
  notes: string[];
  /** The command's scaling is live and takes the place of the one the model ships with (absent: it does not). */
  replacesModelScaling?: true;
  /**
   * Why the launch was not judged (its model was not found offline, or is only known when the
   * script runs). No finding is reported per launch for it: the CLI says it once for all of them
   * (`--verbose` lists them) and the launch's hover says it.
   */
  unjudged?: string;
  /** `unjudged` because its model was looked for offline and not found (what `--hub` can fix), not for another reason. */
  notFoundOffline?: true;
  /**
   * A line that looks like a launch but is not read as one (`RUN vllm serve` is a build step;
   * arguments for an image whose entrypoint is unknown that no one engine's options claim):
   * `unjudged` says which and why, `program` is what the line runs as written.
   */
  unread?: true;
}
export type { WorkspaceFacts } from '../serving/pins';
