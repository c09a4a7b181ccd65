/**
 * The serving model: one module per inference engine, each a pure function of the RoPE
 * description and the trained context. `servingPlan` is what the CLI, hovers and code actions call.
 */
import type { ModelRope } from '../config/modelRope';
import type { EngineName, ServingInput, ServingPlan } from './types';
import { trainedContextOf } from './common';
import { engineById } from './engines';

export type { EngineName, ServingInput, ServingPlan } from './types';
export { ENGINE_NAMES } from './types';
export { trainedContextOf } from './common';

export function servingPlan(engine: EngineName, input: ServingInput): ServingPlan {
  return engineById(engine).plan(input);
}

/** The input for a model config: T from the one helper, everything else as given. */
export function servingInput(rope: ModelRope, opts: Omit<ServingInput, 'rope' | 'trainedContext'> & { trainedContext?: number } = {}): ServingInput {
  return { ...opts, rope, trainedContext: opts.trainedContext ?? trainedContextOf(rope) };
}

// Each engine module exports one Engine object; the registry lists them.
export { ENGINES, engineById, engineNamed } from './engines';
export type { Engine } from './engines';
export { readServingLaunch, readModelfileLaunch, LAUNCH_READERS } from './launch';
