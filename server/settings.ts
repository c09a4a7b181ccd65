/**
 * The `ropeLens.*` settings as the server sees them: read per resource through
 * `workspace/configuration`, cached per URI, dropped on `didChangeConfiguration`.
 * Clients without the configuration capability (or with broken values) get the defaults.
 */
import type { Connection } from 'vscode-languageserver';
import type { Severity, FixKind } from '../shared/service/types';
import type { TransformersVariant } from '../shared/rope/spec';

export type RuleSeverity = Severity | 'off';
export type HintStyle = 'inlay' | 'codeLens' | 'off';
export type BoundBackend = 'auto' | 'gpu' | 'cpu';

export interface RopeLensSettings {
  enable: boolean;
  /** Per-rule override, keyed by diagnostic code. */
  severity: Record<string, RuleSeverity>;
  /** Which rewrite the quick fixes mark preferred; 'auto' keeps the analysis' own choice. */
  preferredRewrite: 'auto' | FixKind;
  boundBackend: BoundBackend;
  transformersVersion: TransformersVariant;
  hints: HintStyle;
  /** Debounce between the last edit and validation, in ms (push diagnostics only). */
  validationDelay: number;
}

export const DEFAULT_SETTINGS: RopeLensSettings = {
  enable: true,
  severity: {},
  preferredRewrite: 'auto',
  boundBackend: 'auto',
  transformersVersion: 'v5',
  hints: 'inlay',
  validationDelay: 150,
};

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint', 'off']);
const REWRITES = new Set(['auto', 'ntk', 'yarn', 'linear', 'dynamic', 'llama3', 'raise-base', 'other']);

/** Turns whatever the client sent into settings, keeping defaults for missing or invalid values. */
export function normalizeSettings(raw: unknown): RopeLensSettings {
  const s: RopeLensSettings = { ...DEFAULT_SETTINGS, severity: {} };
  if (!raw || typeof raw !== 'object') return s;
  const r = raw as Record<string, unknown>;
  if (typeof r.enable === 'boolean') s.enable = r.enable;
  if (r.severity && typeof r.severity === 'object') {
    for (const [code, sev] of Object.entries(r.severity as Record<string, unknown>)) {
      if (typeof sev === 'string' && SEVERITIES.has(sev)) s.severity[code] = sev as RuleSeverity;
    }
  }
  if (typeof r.preferredRewrite === 'string' && REWRITES.has(r.preferredRewrite)) s.preferredRewrite = r.preferredRewrite as RopeLensSettings['preferredRewrite'];
  const backend = (r.bound as Record<string, unknown> | undefined)?.backend ?? r.boundBackend;
  if (backend === 'auto' || backend === 'gpu' || backend === 'cpu') s.boundBackend = backend;
  if (r.transformersVersion === 'v4' || r.transformersVersion === 'v5') s.transformersVersion = r.transformersVersion;
  if (r.hints === 'inlay' || r.hints === 'codeLens' || r.hints === 'off') s.hints = r.hints;
  const delay = (r.validation as Record<string, unknown> | undefined)?.delay ?? r.validationDelay;
  if (typeof delay === 'number' && Number.isFinite(delay) && delay >= 0) s.validationDelay = Math.min(delay, 5000);
  return s;
}

export class SettingsStore {
  private readonly perUri = new Map<string, Promise<RopeLensSettings>>();
  /** Settings pushed by a client without `workspace/configuration` (didChangeConfiguration payload). */
  private global: RopeLensSettings = DEFAULT_SETTINGS;
  private usePull = false;
  /** Latest resolved settings per URI, for synchronous callers (debounce delay). */
  private readonly resolved = new Map<string, RopeLensSettings>();

  constructor(private readonly connection: Connection) {}

  enablePull(on: boolean): void { this.usePull = on; }

  get(uri: string): Promise<RopeLensSettings> {
    if (!this.usePull) return Promise.resolve(this.global);
    let p = this.perUri.get(uri);
    if (!p) {
      p = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'ropeLens' })
        .then(normalizeSettings, () => DEFAULT_SETTINGS)
        .then((s) => { this.resolved.set(uri, s); return s; });
      this.perUri.set(uri, p);
    }
    return p;
  }

  /** Last known settings for `uri` without a round trip (defaults if never asked). */
  peek(uri: string): RopeLensSettings {
    return this.usePull ? this.resolved.get(uri) ?? DEFAULT_SETTINGS : this.global;
  }

  /** didChangeConfiguration: forget everything; a push-style payload replaces the global settings. */
  changed(payload: unknown): void {
    this.perUri.clear();
    this.resolved.clear();
    const section = (payload as { ropeLens?: unknown } | undefined)?.ropeLens;
    if (section !== undefined) this.global = normalizeSettings(section);
  }

  forget(uri: string): void {
    this.perUri.delete(uri);
    this.resolved.delete(uri);
  }
}
