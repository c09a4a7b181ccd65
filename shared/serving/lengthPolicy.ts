/**
 * An engine's length policy (engine.ts `LengthPolicy`) applied to a config override: the length the
 * engine derives once the override's scaling and length keys are merged into the config, as
 * config.update merges them (vLLM `--hf-overrides`, SGLang `--json-model-override-args`).
 */
import type { LengthPolicy } from './engine';
import type { ServingInput } from './types';
import { factsOfObject, lengthKeys } from './common';

/** The config's length keys with the override's numbers for the keys the engine reads. */
export function keysWithOverride(policy: LengthPolicy, input: ServingInput, values: Record<string, unknown> | undefined): Record<string, number> {
  const keys: Record<string, number> = { ...lengthKeys(input) };
  for (const k of policy.keys) {
    const v = values?.[k];
    if (typeof v === 'number' && Number.isFinite(v)) keys[k] = v;
  }
  return keys;
}

/** The engine's derived length with override values applied (their `rope_scaling` and length keys). */
export function lengthWithOverride(policy: LengthPolicy, input: ServingInput, values: Record<string, unknown>): number {
  const s = values['rope_scaling'];
  const scaling = s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>) : undefined;
  return policy.derived(
    { ...input, contextKeys: keysWithOverride(policy, input, values) },
    scaling ? factsOfObject(input.rope, scaling, 'rope_scaling') : undefined,
  );
}

/** Length values in a fix title: `seq_length 32768`, `max_position_embeddings 32768, seq_length 32768`. */
export function lengthValuesText(values: Record<string, number>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}
