/**
 * The launch readers as one table: each engine module reads its own grammar
 * (`read<Engine>Launch`, in the delimited section at the end of each module); this file only
 * tries them in turn. An invocation no engine recognises is not a serving launch.
 */
import type { Invocation, ModelfileLaunch } from '../launch/types';
import type { LaunchRequest } from '../launch/request';
import type { EngineName } from './types';
import { readVllmLaunch } from './vllm';
import { readSglangLaunch } from './sglang';
import { readLlamaCppLaunch } from './llamacpp';
import { readTgiLaunch } from './tgi';
import { ollamaLibraryModel, readOllamaLaunch, readOllamaModelfile, relateOllamaRuns } from './ollama';

export const LAUNCH_READERS: Record<EngineName, (inv: Invocation) => LaunchRequest | undefined> = {
  vllm: readVllmLaunch,
  sglang: readSglangLaunch,
  'llama.cpp': readLlamaCppLaunch,
  tgi: readTgiLaunch,
  ollama: readOllamaLaunch,
};

/**
 * Requests that depend on one another within a file, related after all are read: Ollama's runs
 * are served at the context the script's `ollama serve` was started with.
 */
export function relateServingLaunches(requests: LaunchRequest[]): void {
  relateOllamaRuns(requests);
}

/** The serving request this invocation makes, read by the engine it launches; undefined when none does. */
export function readServingLaunch(inv: Invocation): LaunchRequest | undefined {
  for (const read of Object.values(LAUNCH_READERS)) {
    const req = read(inv);
    if (req) return req;
  }
  return undefined;
}

export { readOllamaModelfile };
export function readModelfileLaunch(mf: ModelfileLaunch): LaunchRequest {
  return readOllamaModelfile(mf);
}

import type { ServingInput } from './types';
import type { LaunchEffect } from './launchModel';
import { vllmLaunchEffect } from './vllm';
import { sglangLaunchEffect } from './sglang';
import { llamaCppLaunchEffect } from './llamacpp';
import { tgiLaunchEffect } from './tgi';
import { ollamaLaunchEffect } from './ollama';
export type { LaunchEffect } from './launchModel';

const EFFECTS: Record<EngineName, (req: LaunchRequest, input: ServingInput) => LaunchEffect> = {
  vllm: vllmLaunchEffect,
  sglang: sglangLaunchEffect,
  'llama.cpp': llamaCppLaunchEffect,
  tgi: tgiLaunchEffect,
  ollama: ollamaLaunchEffect,
};

/** The engine a request's `program` names, when it is a serving engine. */
export function engineOf(req: LaunchRequest): EngineName | undefined {
  return (Object.keys(LAUNCH_READERS) as EngineName[]).find((e) => e === req.program);
}

/** What the engine builds and derives for this command, given the resolved model. */
export function launchEffect(engine: EngineName, req: LaunchRequest, input: ServingInput): LaunchEffect {
  return EFFECTS[engine](req, input);
}

/**
 * The hub model an engine's own naming stands for, said as an assumption: Ollama library tags
 * (`qwen2.5:7b` is Qwen/Qwen2.5-7B-Instruct). Undefined when the engine names models by hub id or
 * path, or the name is not one the engine module knows.
 */
export function engineModelIdentity(engine: EngineName, ref: string): { id: string; how: string } | undefined {
  if (engine !== 'ollama') return undefined;
  const hit = ollamaLibraryModel(ref);
  return hit ? { id: hit.id, how: `the Ollama library tag ${hit.tag}` } : undefined;
}
