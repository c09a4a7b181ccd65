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

/** An engine's config file read as the request it makes, with each token's key path (for ConfigFileEditor). */
export interface ConfigFileRequest {
  request: LaunchRequest;
  paths: Map<Token, readonly string[]>;
  /** `-` or `_`, as the file writes its keys. */
  separator: '-' | '_';
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
  /** The hub model the engine's own naming stands for (an Ollama library tag), said as an assumption. */
  modelIdentity?(ref: string): { id: string; how: string } | undefined;
  /**
   * Relates this engine's requests in one file, in document order, once all are read (Ollama: the
   * runs a script makes are served at its `ollama serve`'s context).
   */
  relate?(requests: LaunchRequest[]): void;
}
