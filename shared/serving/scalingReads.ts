/**
 * Which keys of a scaling object a model's attention code reads, and how: indexed (`rope_scaling["factor"]`,
 * a KeyError at load when missing) or with a default (`.get("mscale_all_dim", False)`, the engine's value
 * silently replaces the model's). An override object replaces the model's whole (vLLM `--hf-overrides`,
 * SGLang `--json-model-override-args`), so the keys it leaves out are read from nothing. Each engine
 * module keeps its own table of readers (the source it cites); this file holds the shape and the check.
 */
import type { LaunchEffect } from './launchModel';

export interface ScalingKeyReads {
  /** Who reads them, for messages ("vLLM's DeepSeek-V2/V3 attention (DeepseekV2Attention)"). */
  reader: string;
  /** Keys read with `[...]`: missing, the load stops with a KeyError. */
  indexed: string[];
  /** Keys read with a default, and that default: missing, the engine runs with the default. */
  defaults?: Record<string, number>;
  /**
   * The reader runs only on a scaled model: a scaling object whose type is `default` (or absent) is
   * not read (vLLM's deepseek_v2.py switches to deepseek_yarn only when rope_type is not "default").
   */
  onlyScaled?: boolean;
}

/** Equal as config values are compared here: numbers to a relative 1e-9, booleans as 0/1 (Python's float(False) is 0.0). */
function sameValue(a: unknown, b: number): boolean {
  const n = typeof a === 'boolean' ? Number(a) : a;
  return typeof n === 'number' && Math.abs(n - b) <= 1e-9 * Math.max(1, Math.abs(b));
}

/**
 * What the command's scaling object lacks that `reads` reads: indexed keys (dropped, an error) and
 * defaulted keys whose default differs from the value the model ships (defaulted, a silent change).
 * A defaulted key the model does not ship, or ships at the default, changes nothing and is left out.
 */
export function scalingKeysLacking(
  reads: ScalingKeyReads | undefined,
  scaling: Record<string, unknown> | undefined,
  own: Record<string, unknown>,
): Pick<LaunchEffect, 'droppedScalingKeys' | 'defaultedScalingKeys'> {
  if (!reads || !scaling) return {};
  const type = scaling['rope_type'] ?? scaling['type'];
  if (reads.onlyScaled && (type === undefined || type === 'default')) return {};
  const out: Pick<LaunchEffect, 'droppedScalingKeys' | 'defaultedScalingKeys'> = {};
  const dropped = reads.indexed.filter((k) => !(k in scaling));
  if (dropped.length) out.droppedScalingKeys = { keys: dropped, reader: reads.reader };
  const defaulted = Object.entries(reads.defaults ?? {})
    .filter(([k, d]) => !(k in scaling) && k in own && !sameValue(own[k], d))
    .map(([key, engineDefault]) => ({ key, own: own[key], engineDefault }));
  if (defaulted.length) out.defaultedScalingKeys = { keys: defaulted, reader: reads.reader };
  return out;
}
