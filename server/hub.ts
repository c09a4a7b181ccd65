/**
 * Base models from the Hugging Face Hub in the language server. The analysis stays synchronous: it
 * reads the HF cache through a recording resolver, and a document whose base (or served) model was
 * missed hands those references here. Then, per `ropeLens.hub.allowNetwork`:
 *   never  → nothing (the finding says the model was not found offline);
 *   ask    → the client is asked (`ropeLens/hub/permission`; it answers from workspace trust, the
 *            setting and the user's answer, remembered per workspace); a client that cannot ask: nothing;
 *   always → fetched (a client that can ask still answers, so an untrusted workspace stays offline).
 * The fetch (shared/node/hubFetch.ts) writes the standard HF cache; when something landed, the
 * resolver forgets its answers and every open document is validated again.
 */
import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver';
import type { RecordingResolver } from '../shared/config/resolve';
import { HubFetchedNotification, HubPermissionRequest } from '../shared/protocol/messages';
import type { RopeLensSettings } from '../shared/protocol/settings';
import type { HubResult, HubSettings } from '../shared/node/hubFetch';
import type { HubBackend } from './platform';

export interface HubFetcherDeps {
  connection: Pick<Connection, 'sendRequest' | 'sendNotification'>;
  resolver: RecordingResolver;
  settingsOf(uri: string): Promise<RopeLensSettings>;
  /** Whether the client answers `ropeLens/hub/permission` (its initializationOptions said so). */
  clientAsks(): boolean;
  /** Something landed in the cache: validate the open documents again. */
  landed(): void;
  log(line: string): void;
  /** How this platform reaches the Hub; absent: it cannot (the misses are logged, nothing is fetched). */
  backend?: HubBackend;
  /** For tests: the Hub settings (default: the backend's, from the server's environment). */
  hub?: () => HubSettings;
}

export class HubFetcher {
  /** References already handled this session (fetched, failed or refused): not asked about again. */
  private readonly handled = new Set<string>();
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly deps: HubFetcherDeps) {}

  /** After an analysis of `uri` (file `fileName`): fetch what it missed, if allowed. Never throws. */
  noticed(uri: string, fileName: string): void {
    const refs = this.deps.resolver.takeMisses(fileName).filter((r) => !this.handled.has(r));
    if (!refs.length) return;
    refs.forEach((r) => this.handled.add(r));
    // One decision and fetch at a time, so two documents never raise two prompts for the same first use.
    this.inFlight = this.inFlight.then(() => this.run(uri, refs)).catch((e) => this.deps.log(`hub: ${(e as Error)?.message ?? e}`));
  }

  /** Settings changed: references refused or failed before may be tried again. */
  forget(): void {
    this.handled.clear();
  }

  /** Resolves when the fetches started so far are over (tests). */
  idle(): Promise<void> {
    return this.inFlight;
  }

  private async run(uri: string, refs: string[]): Promise<void> {
    const mode = (await this.deps.settingsOf(uri)).hubAllowNetwork;
    const backend = this.deps.backend;
    if (!backend) {
      this.deps.log(`hub: ${refs.join(', ')} not found; the Hub is not reachable from this editor`);
      return;
    }
    const hub = (this.deps.hub ?? (() => backend.settings()))();
    if (mode === 'never') {
      this.deps.log(`hub: not fetching ${refs.join(', ')} (ropeLens.hub.allowNetwork is "never")`);
      return;
    }
    let allow = false;
    if (this.deps.clientAsks()) {
      const answer = await this.deps.connection.sendRequest(HubPermissionRequest, { refs, endpoint: hub.endpoint }).catch((e) => {
        this.deps.log(`hub: the permission request failed (${(e as Error)?.message ?? e}); not fetching`);
        return { allow: false };
      });
      allow = answer?.allow === true;
    } else {
      allow = mode === 'always';
      if (!allow) this.deps.log(`hub: ${refs.join(', ')} not found offline; set ropeLens.hub.allowNetwork to "always" to fetch from the Hub`);
    }
    if (!allow) return;
    const results: HubResult[] = await backend.fetchModels(refs, hub, (line) => this.deps.log(`hub: ${line}`));
    for (const r of results) {
      this.deps.log(`hub: ${backend.describe(r)}`);
      // A notification (not window/showMessageRequest), which every LSP client shows.
      if (!r.ok) void this.deps.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `RoPE Lens: ${r.message}` });
    }
    void this.deps.connection.sendNotification(HubFetchedNotification, {
      results: results.map((r) => ({ ref: r.ref, ok: r.ok, message: backend.describe(r) })),
    });
    if (results.some((r) => r.ok)) {
      this.deps.resolver.reset?.();
      this.deps.landed();
    }
  }
}
