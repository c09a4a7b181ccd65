/**
 * The config-override option that vLLM (`--hf-overrides`) and SGLang (`--json-model-override-args`)
 * both take: a JSON object their json.loads parses and config.update sets on the config key by key.
 * One reader for both engine modules; each says only its flag and how it applies the object.
 */
import type { LaunchRequest, OptionUse } from '../launch/request';
import { ignoredOverrideKeys, readJsonObject } from './argv';

/** How an engine's override option is named in its problems. */
export interface OverrideWords {
  /** The flag as messages write it (`--hf-overrides`). */
  flag: string;
  /** What the engine does with a key nothing reads ("is set on the config as is and nothing reads it (…)"). */
  applied: string;
}

/**
 * The option's JSON read into `req.overrides` (its object, or the error): a value json.loads refuses,
 * or one that is not an object, is a `bad-value` error on the value token, since the launch fails.
 * Returns the object, if any.
 */
export function readOverrideOption(req: LaunchRequest, use: OptionUse, w: OverrideWords): Record<string, unknown> | undefined {
  const parsed = readJsonObject(use);
  req.overrides = { option: use, ...parsed };
  if (parsed.error && use.value)
    req.problems.push({
      token: use.value,
      kind: 'bad-value',
      severity: 'error',
      message: `${w.flag}: ${parsed.error}; the launch fails.`,
    });
  return parsed.value;
}

/**
 * An `ignored-key` warning for each top-level key of the override object that the engine sets on the
 * config but nothing reads (`rope-scaling`, `rope_scalling`), on the override's value (else its flag).
 */
export function flagIgnoredOverrideKeys(req: LaunchRequest, overrides: Record<string, unknown>, w: OverrideWords): void {
  const opt = req.overrides?.option;
  if (!opt) return;
  for (const { key, meant } of ignoredOverrideKeys(overrides)) {
    req.problems.push({
      token: opt.value ?? opt.flag,
      kind: 'ignored-key',
      severity: 'warning',
      keyPath: [key],
      message: `${w.flag} key ${JSON.stringify(key)} ${w.applied}: the ${meant} it was meant to be keeps the model's value. Write ${JSON.stringify(meant)}.`,
    });
  }
}
