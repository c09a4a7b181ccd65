/**
 * The `ropeLens.*` settings, defined once: the client, the server and the CLI read them through
 * this module, and a test checks it against package.json's `contributes.configuration` (same keys,
 * same defaults, same accepted values), so no value is accepted by one side and unknown to the other.
 */
import type { FixKind, Severity } from '../core/findings';
import type { TransformersVariant } from '../rope/spec';

export const SETTINGS_SECTION = 'ropeLens';

/** Accepted values per setting; `undefined` for non-enum settings. Keys are package.json's, minus `ropeLens.`. */
export const SETTING_VALUES = {
  enable: undefined,
  severity: ['error', 'warning', 'information', 'hint', 'off'],
  preferredRewrite: ['auto', 'ntk', 'yarn', 'linear', 'dynamic', 'llama3', 'raise-base'],
  'bound.backend': ['auto', 'gpu', 'cpu'],
  transformersVersion: ['v4', 'v5'],
  hints: ['inlay', 'codeLens', 'off'],
  'validation.delay': undefined,
  'trace.server': ['off', 'messages', 'verbose'],
  'hub.allowNetwork': ['ask', 'always', 'never'],
  consumers: undefined,
} as const satisfies Record<string, readonly string[] | undefined>;

export type SettingKey = keyof typeof SETTING_VALUES;
type Values<K extends SettingKey> = (typeof SETTING_VALUES)[K] extends readonly (infer V)[] ? V : never;

export type RuleSeverity = Values<'severity'>;
export type HintStyle = Values<'hints'>;
export type BoundBackend = Values<'bound.backend'>;
export type PreferredRewrite = Values<'preferredRewrite'>;
export type TraceLevel = Values<'trace.server'>;
export type HubNetwork = Values<'hub.allowNetwork'>;

/** Validation delay bounds (ms), as package.json declares them. */
export const VALIDATION_DELAY = { min: 0, max: 5000 } as const;

export interface RopeLensSettings {
  enable: boolean;
  /** Per-rule override, keyed by diagnostic code. */
  severity: Record<string, RuleSeverity>;
  /** Which rewrite the quick fixes mark preferred; 'auto' keeps the analysis' own choice. */
  preferredRewrite: PreferredRewrite;
  boundBackend: BoundBackend;
  transformersVersion: TransformersVariant;
  hints: HintStyle;
  /** Debounce between the last edit and validation, in ms (push diagnostics only). */
  validationDelay: number;
  trace: TraceLevel;
  /**
   * May a base model missing offline be fetched from the Hugging Face Hub: `ask` (the editor asks once
   * per workspace), `always`, `never`. Never in an untrusted workspace, whatever the value.
   */
  hubAllowNetwork: HubNetwork;
  /** Consumers that load these files (`transformers==4.42.4`, `vllm`): a refusal by one of them is an error. */
  consumers: string[];
}

/** Each setting's package.json key. */
export const SETTING_KEYS: Record<keyof RopeLensSettings, SettingKey> = {
  enable: 'enable',
  severity: 'severity',
  preferredRewrite: 'preferredRewrite',
  boundBackend: 'bound.backend',
  transformersVersion: 'transformersVersion',
  hints: 'hints',
  validationDelay: 'validation.delay',
  trace: 'trace.server',
  hubAllowNetwork: 'hub.allowNetwork',
  consumers: 'consumers',
};

export const DEFAULT_SETTINGS: RopeLensSettings = {
  enable: true,
  severity: {},
  preferredRewrite: 'auto',
  boundBackend: 'auto',
  transformersVersion: 'v5',
  hints: 'inlay',
  validationDelay: 150,
  trace: 'off',
  hubAllowNetwork: 'ask',
  consumers: [],
};

// The type-level guarantees that the tables above name real severities and fix kinds.
const _severityCheck: readonly (Severity | 'off')[] = SETTING_VALUES.severity;
const _rewriteCheck: readonly ('auto' | FixKind)[] = SETTING_VALUES.preferredRewrite;
void _severityCheck;
void _rewriteCheck;

/** `a.b` read as nested objects ({ a: { b } }, what workspace/configuration sends) or as a flat dotted key. */
function read(raw: Record<string, unknown>, key: string): unknown {
  if (key in raw) return raw[key];
  const [head, ...rest] = key.split('.');
  if (!rest.length) return undefined;
  const inner = raw[head];
  return inner && typeof inner === 'object' ? read(inner as Record<string, unknown>, rest.join('.')) : undefined;
}

function oneOf<K extends SettingKey>(key: K, v: unknown): Values<K> | undefined {
  const allowed = SETTING_VALUES[key] as readonly string[] | undefined;
  return typeof v === 'string' && allowed?.includes(v) ? (v as Values<K>) : undefined;
}

export interface NormalizeProblem {
  key: string;
  message: string;
}

/**
 * Whatever the client sent → settings: defaults for missing values; an invalid value keeps the
 * default and is reported through `problems` (the server logs it) instead of being dropped silently.
 */
export function normalizeSettings(raw: unknown, problems: NormalizeProblem[] = []): RopeLensSettings {
  const s: RopeLensSettings = { ...DEFAULT_SETTINGS, severity: {}, consumers: [] };
  if (!raw || typeof raw !== 'object') return s;
  const r = raw as Record<string, unknown>;
  const bad = (key: SettingKey, v: unknown) => problems.push({ key: `${SETTINGS_SECTION}.${key}`, message: `ignored ${JSON.stringify(v)?.slice(0, 80)}` });
  const pick = <K extends SettingKey>(key: K, apply: (v: Values<K>) => void) => {
    const v = read(r, key);
    if (v === undefined) return;
    const ok = oneOf(key, v);
    if (ok === undefined) bad(key, v);
    else apply(ok);
  };
  const enable = read(r, 'enable');
  if (typeof enable === 'boolean') s.enable = enable;
  else if (enable !== undefined) bad('enable', enable);
  const severity = read(r, 'severity');
  if (severity && typeof severity === 'object' && !Array.isArray(severity)) {
    for (const [code, sev] of Object.entries(severity as Record<string, unknown>)) {
      const ok = oneOf('severity', sev);
      if (ok) s.severity[code] = ok;
      else bad('severity', { [code]: sev });
    }
  } else if (severity !== undefined) bad('severity', severity);
  pick('preferredRewrite', (v) => {
    s.preferredRewrite = v;
  });
  pick('bound.backend', (v) => {
    s.boundBackend = v;
  });
  pick('transformersVersion', (v) => {
    s.transformersVersion = v;
  });
  pick('hints', (v) => {
    s.hints = v;
  });
  pick('trace.server', (v) => {
    s.trace = v;
  });
  pick('hub.allowNetwork', (v) => {
    s.hubAllowNetwork = v;
  });
  const delay = read(r, 'validation.delay');
  if (typeof delay === 'number' && Number.isFinite(delay) && delay >= VALIDATION_DELAY.min) s.validationDelay = Math.min(delay, VALIDATION_DELAY.max);
  else if (delay !== undefined) bad('validation.delay', delay);
  const consumers = read(r, 'consumers');
  if (Array.isArray(consumers) && consumers.every((c) => typeof c === 'string')) s.consumers = consumers as string[];
  else if (consumers !== undefined) bad('consumers', consumers);
  return s;
}
