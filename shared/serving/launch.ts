/**
 * The launch readers as one loop over the engine registry (engines.ts): each engine module reads
 * its own grammar; this file only tries them in turn. An invocation no engine recognises is not a
 * serving launch.
 */
import type { Invocation, ModelfileLaunch } from '../launch/types';
import type { LaunchRequest } from '../launch/request';
import type { EngineName, ServingInput } from './types';
import type { LaunchEffect } from './launchModel';
import { ENGINES, engineById, engineNamed } from './engines';
import { readOllamaModelfile } from './ollama';

export type { LaunchEffect } from './launchModel';

export const LAUNCH_READERS: Record<EngineName, (inv: Invocation) => LaunchRequest | undefined> = Object.fromEntries(
  ENGINES.map((e) => [e.id, e.readArgv]),
) as Record<EngineName, (inv: Invocation) => LaunchRequest | undefined>;

/**
 * Requests that depend on one another within a file, related after all are read: Ollama's runs
 * are served at the context the script's `ollama serve` was started with.
 */
export function relateServingLaunches(requests: LaunchRequest[]): void {
  for (const e of ENGINES) e.relate?.(requests.filter((r) => r.program === e.id));
}

/** The serving request this invocation makes, read by the engine it launches; undefined when none does. */
export function readServingLaunch(inv: Invocation): LaunchRequest | undefined {
  for (const e of ENGINES) {
    const req = e.readArgv(inv);
    if (req) return req;
  }
  return undefined;
}

export { readOllamaModelfile };
export function readModelfileLaunch(mf: ModelfileLaunch): LaunchRequest {
  const reader = ENGINES.find((e) => e.readModelfile);
  return reader!.readModelfile!(mf);
}

/** The engine a request's `program` names, when it is a serving engine. */
export function engineOf(req: LaunchRequest): EngineName | undefined {
  return engineNamed(req.program)?.id;
}

/** What the engine builds and derives for this command, given the resolved model. */
export function launchEffect(engine: EngineName, req: LaunchRequest, input: ServingInput): LaunchEffect {
  return engineById(engine).effect(req, input);
}

/**
 * The hub model an engine's own naming stands for, said as an assumption: Ollama library tags
 * (`qwen2.5:7b` is Qwen/Qwen2.5-7B-Instruct). Undefined when the engine names models by hub id or
 * path, or the name is not one the engine module knows.
 */
export function engineModelIdentity(engine: EngineName, ref: string): { id: string; how: string } | undefined {
  return engineById(engine).modelIdentity?.(ref);
}
