/**
 * The serving model: one module per inference engine, each a pure function of the RoPE
 * description and the trained context. `servingPlan` is what the CLI, hovers and code actions call.
 */
import type { ModelRope } from '../config/modelRope';
import type { EngineName, ServingInput, ServingPlan } from './types';
import { trainedContextOf } from './common';
import { vllmPlan } from './vllm';
import { sglangPlan } from './sglang';
import { llamaCppPlan } from './llamacpp';
import { tgiPlan } from './tgi';
import { ollamaPlan } from './ollama';

export type { EngineName, ServingInput, ServingPlan } from './types';
export { ENGINE_NAMES } from './types';
export { trainedContextOf } from './common';

const PLANNERS: Record<EngineName, (input: ServingInput) => ServingPlan> = {
  vllm: vllmPlan,
  sglang: sglangPlan,
  'llama.cpp': llamaCppPlan,
  tgi: tgiPlan,
  ollama: ollamaPlan,
};

export function servingPlan(engine: EngineName, input: ServingInput): ServingPlan {
  return PLANNERS[engine](input);
}

/** The input for a model config: T from the one helper, everything else as given. */
export function servingInput(rope: ModelRope, opts: Omit<ServingInput, 'rope' | 'trainedContext'> & { trainedContext?: number } = {}): ServingInput {
  return { ...opts, rope, trainedContext: opts.trainedContext ?? trainedContextOf(rope) };
}

// Launch readers (h-engines): each engine module reads its own grammar; the table is in launch.ts.
export { readServingLaunch, readModelfileLaunch, LAUNCH_READERS } from './launch';
