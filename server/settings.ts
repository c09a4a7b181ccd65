/**
 * The `ropeLens.*` settings as the server sees them: read per resource through
 * `workspace/configuration`, cached per URI, dropped on `didChangeConfiguration`.
 * Clients without the configuration capability (or with broken values) get the defaults.
 */
import type { Connection } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION, type NormalizeProblem, type RopeLensSettings } from '../shared/protocol/settings';

export { DEFAULT_SETTINGS, normalizeSettings };
export type { RopeLensSettings, RuleSeverity, HintStyle, BoundBackend } from '../shared/protocol/settings';

export class SettingsStore {
  private readonly perUri = new Map<string, Promise<RopeLensSettings>>();
  /** Settings pushed by a client without `workspace/configuration` (didChangeConfiguration payload). */
  private global: RopeLensSettings = DEFAULT_SETTINGS;
  private usePull = false;
  /** Latest resolved settings per URI, for synchronous callers (debounce delay). */
  private readonly resolved = new Map<string, RopeLensSettings>();

  constructor(
    private readonly connection: Connection,
    private readonly log: (line: string) => void = () => {},
  ) {}

  private normalize(raw: unknown): RopeLensSettings {
    const problems: NormalizeProblem[] = [];
    const s = normalizeSettings(raw, problems);
    for (const p of problems) this.log(`settings: ${p.key}: ${p.message}`);
    return s;
  }

  enablePull(on: boolean): void {
    this.usePull = on;
  }

  get(uri: string): Promise<RopeLensSettings> {
    if (!this.usePull) return Promise.resolve(this.global);
    let p = this.perUri.get(uri);
    if (!p) {
      p = this.connection.workspace
        .getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION })
        .then(
          (raw) => this.normalize(raw),
          (e) => {
            this.log(`settings: workspace/configuration failed: ${(e as Error)?.message ?? e}`);
            return DEFAULT_SETTINGS;
          },
        )
        .then((s) => {
          this.resolved.set(uri, s);
          return s;
        });
      this.perUri.set(uri, p);
    }
    return p;
  }

  /** Last known settings for `uri` without a round trip (defaults if never asked). */
  peek(uri: string): RopeLensSettings {
    return this.usePull ? (this.resolved.get(uri) ?? DEFAULT_SETTINGS) : this.global;
  }

  /** didChangeConfiguration: forget everything; a push-style payload replaces the global settings. */
  changed(payload: unknown): void {
    this.perUri.clear();
    this.resolved.clear();
    const section = (payload as { ropeLens?: unknown } | undefined)?.ropeLens;
    if (section !== undefined) this.global = this.normalize(section);
  }

  forget(uri: string): void {
    this.perUri.delete(uri);
    this.resolved.delete(uri);
  }
}
