/**
 * Diagnostics, pushed or pulled depending on the client. Push: validation is debounced per URI,
 * and a result is only published if the document is still at the version that was analysed (a
 * burst of edits publishes the last version only). Pull: the client asks; the request is
 * answered from the per-version cache and honours cancellation.
 */
import {
  CancellationToken,
  DocumentDiagnosticReport,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticParams,
  LSPErrorCodes,
  ResponseError,
} from 'vscode-languageserver';
import type { ServerContext } from './context';
import { diagnosticsOf } from './diagnostics';

export class Validator {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Version (and content) last published per URI; an older version is never sent after a newer one. */
  private readonly published = new Map<string, number>();
  private readonly lastSent = new Map<string, string>();
  private refreshQueued = false;

  constructor(private readonly ctx: ServerContext) {}

  /** A document opened or changed: validate after the debounce delay (at once when `immediate`). */
  schedule(uri: string, immediate = false): void {
    if (this.ctx.support.pullDiagnostics) return; // the client pulls
    this.cancel(uri);
    const delay = immediate ? 0 : this.ctx.settings.peek(uri).validationDelay;
    const timer = setTimeout(() => {
      this.timers.delete(uri);
      void this.validate(uri).catch((e) => this.ctx.connection.console.error(`validation of ${uri} failed: ${(e as Error)?.stack ?? e}`));
    }, delay);
    this.timers.set(uri, timer);
  }

  cancel(uri: string): void {
    const t = this.timers.get(uri);
    if (t) clearTimeout(t);
    this.timers.delete(uri);
  }

  closed(uri: string): void {
    this.cancel(uri);
    this.published.delete(uri);
    this.lastSent.delete(uri);
    if (!this.ctx.support.pullDiagnostics) void this.ctx.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** Every open document is re-checked (settings changed). */
  revalidateAll(): void {
    if (this.ctx.support.pullDiagnostics) return this.refresh();
    for (const doc of this.ctx.documents.all()) this.schedule(doc.uri, true);
  }

  /** Bound answers or workspace scans arrived: re-check the documents that were waiting for them. */
  answersArrived(uris: string[]): void {
    if (this.ctx.support.pullDiagnostics) return this.refresh();
    for (const uri of uris) if (this.ctx.documents.get(uri)) this.schedule(uri, true);
  }

  private refresh(): void {
    if (!this.ctx.support.diagnosticRefresh || this.refreshQueued) return;
    // Coalesce several answers arriving together into one refresh.
    this.refreshQueued = true;
    setTimeout(() => {
      this.refreshQueued = false;
      this.ctx.connection.languages.diagnostics.refresh();
    }, 20);
  }

  private async validate(uri: string): Promise<void> {
    const doc = this.ctx.documents.get(uri);
    if (!doc) return;
    const version = doc.version;
    const settings = await this.ctx.settings.get(uri);
    // The document may have changed or closed while settings were fetched: that change scheduled its own run.
    const now = this.ctx.documents.get(uri);
    if (!now || now.version !== version) return;
    const analysis = this.ctx.cache.get(now, settings);
    const last = this.published.get(uri);
    if (last !== undefined && last > version) return;
    const diagnostics = diagnosticsOf(analysis, uri, settings, this.ctx.docsBase);
    // A bound answer often changes nothing visible (it only let the analysis ask its next question).
    const key = `${version}:${JSON.stringify(diagnostics)}`;
    if (this.lastSent.get(uri) === key) return;
    this.published.set(uri, version);
    this.lastSent.set(uri, key);
    await this.ctx.connection.sendDiagnostics({ uri, version, diagnostics });
  }

  /** textDocument/diagnostic */
  async pull(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const doc = this.ctx.documents.get(params.textDocument.uri);
    if (!doc) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const settings = await this.ctx.settings.get(doc.uri);
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    const current = this.ctx.documents.get(doc.uri) ?? doc;
    const analysis = this.ctx.cache.get(current, settings);
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    return { kind: DocumentDiagnosticReportKind.Full, items: diagnosticsOf(analysis, doc.uri, settings, this.ctx.docsBase) };
  }
}
