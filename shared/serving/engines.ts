/**
 * The registry of inference engines: each module exports one Engine object (engine.ts); this list
 * is every place that loops over engines (launch readers, effects, `serve` plans, environment,
 * labels). A sixth engine is its module plus one line here.
 */
import type { Engine } from './engine';
import type { EngineName } from './types';
import { vllmEngine } from './vllm';
import { sglangEngine } from './sglang';
import { llamaCppEngine } from './llamacpp';
import { tgiEngine } from './tgi';
import { ollamaEngine } from './ollama';

export type { Engine, ConfigFileRequest } from './engine';

const registry: Engine[] = [vllmEngine, sglangEngine, llamaCppEngine, tgiEngine, ollamaEngine];

/** In the order launch readers are tried. */
export const ENGINES: readonly Engine[] = registry;

/**
 * Adds an engine after the built-in ones (a module outside this list; the tests' stand-in for a
 * sixth engine). Returns its removal. An id already registered is refused.
 */
export function registerEngine(e: Engine): () => void {
  if (registry.some((x) => x.id === e.id)) throw new Error(`engine ${e.id} is already registered`);
  registry.push(e);
  return () => {
    const i = registry.indexOf(e);
    if (i >= 0) registry.splice(i, 1);
  };
}

export function engineById(id: EngineName): Engine {
  const e = ENGINES.find((x) => x.id === id);
  if (!e) throw new Error(`unknown engine ${id}`);
  return e;
}

/** The engine a name stands for, when it is one (`program` of a request). */
export function engineNamed(name: string): Engine | undefined {
  return ENGINES.find((x) => x.id === name);
}
