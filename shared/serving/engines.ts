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

/** In the order launch readers are tried. */
export const ENGINES: readonly Engine[] = [vllmEngine, sglangEngine, llamaCppEngine, tgiEngine, ollamaEngine];

export function engineById(id: EngineName): Engine {
  const e = ENGINES.find((x) => x.id === id);
  if (!e) throw new Error(`unknown engine ${id}`);
  return e;
}

/** The engine a name stands for, when it is one (`program` of a request). */
export function engineNamed(name: string): Engine | undefined {
  return ENGINES.find((x) => x.id === name);
}
