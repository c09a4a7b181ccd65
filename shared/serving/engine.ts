/**
 * The shape every inference engine module exports: one object holding that engine's truth, so the
 * launch reader, the config-file reader, what the engine builds for a request, the `rope-lens
 * serve` writer and the variables it reads never live in two places. The registry (engines.ts)
 * lists them; adding an engine is one module and one line there.
 */
import type { ParsedDocument } from '../document/configNode';
import type { Invocation, ModelfileLaunch, Token } from '../launch/types';
import type { LaunchRequest } from '../launch/request';
import type { EngineName, ServingInput, ServingPlan } from './types';
import type { LaunchEffect } from './launchModel';
import type { ScalingFacts } from './common';

/** An engine's config file read as the request it makes, with each token's key path (for ConfigFileEditor). */
export interface ConfigFileRequest {
  request: LaunchRequest;
  paths: Map<Token, readonly string[]>;
  /** `-` or `_`, as the file writes its keys. */
  separator: '-' | '_';
}

/** One option of an engine's command line to set: its name in the grammar (no dashes), its flag, its value. */
export interface EngineOption {
  name: string;
  flag: string;
  value: string;
}

/** Options as the words a message or fix title shows (`--rope-scaling yarn --rope-scale 4`). */
export function optionText(opts: readonly EngineOption[]): string {
  return opts.flatMap((o) => [o.flag, o.value]).join(' ');
}

/** A scaling as an engine's own flags say it (llama.cpp, TGI); NTK as a new base, written as the flag takes it. */
export type FlagScaling =
  | { type: 'yarn'; factor: number; original: number }
  | { type: 'linear'; factor: number }
  | { type: 'dynamic'; factor: number }
  | { type: 'ntk'; base: string };

/** What an engine says when a requested length is above the one it derives (launch/length-exceeds-derived). */
export interface OverLengthWords {
  /** The length option as the command writes it (`--context-length`, `-c`, `num_ctx`). */
  label: string;
  /** Requested and derived length. */
  length: number;
  derived: number;
  /** The model as written (for messages). */
  model: string;
  /** How the engine arrived at `derived`. */
  basis: string;
  /** The scaling type in effect when it covers the length, else undefined. */
  covered?: string;
  /**
   * With no scaling covering it, the base the command raised when that is the NTK-aware base for
   * the length (×factor of the trained context): the command's own extension, in the engine's words.
   */
  raisedBase?: { base: number; factor: number };
  /** The engine's long-length variable as the environment sets it to a value that allows it. */
  allowedBy?: string;
  /** Whether any RoPE scaling is in effect. */
  scaled: boolean;
  /** The verdict of the engine's effect for this command (llama-server caps, llama-cli warns). */
  verdict: LaunchEffect['overLength'];
}

/**
 * How an engine derives a model's length from its config: the numbers rules/launch/vllmLength.ts
 * judges with and the override fixes are checked against (serving/lengthPolicy.ts), so a rule
 * never imports an engine module. `input.contextKeys` are the length keys the config writes.
 */
export interface LengthPolicy {
  /** The config keys the engine reads the length from, in its own order. */
  keys: readonly string[];
  /** The unscaled length it starts from and the key it came from (`default` when the config writes none). */
  base(input: ServingInput): { value: number; key: string };
  /** Its derived length, with `facts` in place of the model's scaling (an override's). */
  derived(input: ServingInput, facts?: ScalingFacts): number;
  /** The override keys that raise the length it starts from to `length`, as it reads them for this model. */
  lengthValues(input: ServingInput, length: number): Record<string, number>;
  /** The sliding window a windows-off option caps the length at (vLLM `--disable-sliding-window`). */
  slidingWindow?(input: ServingInput): number | undefined;
}

/** A scaling override that works only from some release on (Engine.override.scalingNeedsRelease). */
export interface ScalingReleaseNeed {
  /** The first release that applies it, as people write it (`0.12.0`). */
  from: string;
  /** What older releases do instead, in words. */
  why: string;
  /** The release the launch names, when it names one (then it is older than `from`). */
  named?: string;
}

export interface Engine {
  id: EngineName;
  /** The name people write (`vLLM`, `llama.cpp`), for messages. */
  label: string;
  /** The request this invocation makes of the engine (argv + env, every value with its token), or undefined when it is not this engine. */
  readArgv(inv: Invocation): LaunchRequest | undefined;
  /** The engine's own config file (vLLM `--config` YAML), read into the same request as its argv. */
  readConfigFile?(doc: ParsedDocument): ConfigFileRequest | undefined;
  /** An Ollama Modelfile, for the engine that reads them. */
  readModelfile?(mf: ModelfileLaunch): LaunchRequest;
  /** What the engine builds and derives for the request on the resolved model (length, scaling, notes). */
  effect(req: LaunchRequest, input: ServingInput): LaunchEffect;
  /** The command that serves a model at a context: the one writer of its flags (`rope-lens serve`, hovers). */
  plan(input: ServingInput): ServingPlan;
  /** Environment variables the engine reads that matter here. */
  env: RegExp;
  /**
   * The entrypoint of this engine's image, which takes the container's command as its own
   * arguments (vLLM's `vllm serve`): a shell handed to it (`CMD ["sh", "-c", …]`) is swallowed
   * (launch/cmd-after-entrypoint). Undefined for an image that is not the engine's, or whose
   * entrypoint runs a command it is given. `firstArgument`: what the shell's name becomes.
   */
  imageEntrypoint?(image: string): { command: string; firstArgument: string } | undefined;
  /**
   * The engine's image whose entrypoint takes its options as arguments, and the options no other
   * engine takes: arguments holding one, given to an image whose entrypoint is unknown
   * (`image: my/custom` + `command: ["--model", "x", "--max-model-len", "65536"]`), are read as
   * this engine's, said so (serving/launch.ts).
   */
  argumentsOnly?: { image: string; options: readonly string[] };
  /** The hub model the engine's own naming stands for (an Ollama library tag), said as an assumption. */
  modelIdentity?(ref: string): { id: string; how: string } | undefined;
  /**
   * Relates this engine's requests in one file, in document order, once all are read (Ollama: the
   * runs a script makes are served at its `ollama serve`'s context).
   */
  relate?(requests: LaunchRequest[]): void;

  /**
   * The file pins this engine to a release some other way than an image tag (`pip install vllm==0.10.1`
   * in the same script or Dockerfile): judge the request at that release (issue 40: an option removed
   * later works there). `source` says where the pin was read.
   */
  atRelease?(req: LaunchRequest, version: string, source: string): void;

  // What the rules need to know of the engine (rules/launch/): data and small writers, so the rules
  // never branch on an engine's name.

  /**
   * Its command and its config file are one request judged under the engine's own codes (vLLM:
   * vllm/max-model-len-exceeds and vllm/context-beyond-trained in rules/launch/vllmLength.ts,
   * vllm/removed-option, vllm/legacy-rope-type) instead of the launch/ codes.
   */
  ownCodes?: boolean;
  /** How it derives the length from a config and an override (vLLM, SGLang), for the rules that judge with it. */
  lengthPolicy?: LengthPolicy;
  /** The option that passes a config override object (vLLM `--hf-overrides`), when the engine has one. */
  override?: {
    flag: string;
    /** For fix titles: `hf-overrides`. */
    name: string;
    /** SGLang ignores YaRN's factor when original is set: its YaRN override also raises max_position_embeddings. */
    yarnSetsLength?: boolean;
    /**
     * Why the engine's attention for this model type reads none of the override's RoPE keys
     * (rope_scaling, rope_theta), when it does not: a sentence for messages; no override fix is offered.
     */
    ignoresRopeKeys?(modelType: string | undefined): string | undefined;
    /**
     * Where the engine's attention for this model type builds its rotary embedding without the
     * override's scaling in some releases (vLLM's Gemma-2 before the rope_parameters refactor): the
     * release a scaling override needs and why, when the launch's release (`release`, as the launch
     * names it: an image reference; undefined when it names none) is one of those or unknown.
     * `named`: the launch names a release, and it is one that drops the scaling.
     */
    scalingNeedsRelease?(modelType: string | undefined, release: string | undefined): ScalingReleaseNeed | undefined;
  };
  /** The engine's scaling flags (llama.cpp, TGI), when it takes a scaling as flags. */
  scalingFlags?: {
    /** The one writer of them: fixes, their titles and `serve`; undefined for a scaling the flags cannot say. */
    write(s: FlagScaling): EngineOption[] | undefined;
    /** The option that names the scaling type (`rope-scaling`). */
    typeOption: string;
    /** The options that carry the factor; `inverse` for a frequency scale (1 / factor). */
    scales: readonly { name: string; inverse?: boolean }[];
    /** YaRN's original-length option. */
    originalOption?: string;
    /** A scale without the type option runs linear interpolation (llama.cpp: "defaults to linear unless specified by the model"). */
    scaleAloneIsLinear?: boolean;
    /** Said after a fix title that writes flags of that kind ("TGI's CLI has no YaRN; YaRN goes in config.json"). */
    titleNote?: Partial<Record<FlagScaling['type'], string>>;
  };
  /** How a scaling the command sets replaces the model's own, in words (launch/override-replaces-scaling). */
  replacesScaling?: string;
  /** Whether the engine applies the model's sliding windows to this model type. */
  honoursWindows(modelType: string | undefined): boolean;
  /** Said where a scaling is needed and the engine has no option for one (Ollama). */
  noScalingOption?: string;
  /** The variable that lets the engine run a length above the one it derives, and whether a value turns it on. */
  longEnv?: { name: string; allows(value: string): boolean };
  /** The option that raises the length the engine derives to `length` (llama-server's `--override-kv`), when the engine has one. */
  liftLength?(modelType: string | undefined, length: number): EngineOption | undefined;
  /** The engine's words for a length above the one it derives, as its `overLength` verdict has it. */
  overLengthText?(w: OverLengthWords): string;
  /** The engine loads GGUF files (a name is also looked up without its quantisation suffix). */
  gguf?: boolean;
  /** What a model file's name says of its family when the model is not in the catalog (a Qwen GGUF stores no scaling type). */
  familyFromFileName?(ref: string): { family: string; storesScaling: false; yarnOriginal: number } | undefined;
}
