/**
 * The RoPE Inspector webview panel: one panel per config document. The language server computes the
 * data (ropeLens/inspector/data, exact b* from its one bound engine), the page only draws.
 * Security: strict CSP with a nonce and webview.cspSource, scripts limited to dist/media, every
 * message from the page validated before anything happens. State (document and controls) is kept by
 * the page and restored by a WebviewPanelSerializer, so no retainContextWhenHidden is needed.
 */
import * as vscode from 'vscode';
import { makeNonce, renderInspectorHtml } from '../../shared/inspector/html';
import { parsePageMessage, parseState } from '../../shared/inspector/messages';
import type { HostMessage, InspectorControls, InspectorData } from '../../shared/inspector/types';
import type { InspectorDataParams, InspectorDataResult, InspectorFixParams, InspectorFixResult } from '../../shared/protocol/messages';
import { COMMANDS, VIEW_TYPES } from '../../shared/protocol/commands';

export const INSPECTOR_VIEW_TYPE = VIEW_TYPES.inspector;
export const OPEN_INSPECTOR_COMMAND = COMMANDS.openInspector;

/**
 * The language server computes the panel's data and Apply edits (typed requests): it owns the
 * window's one bound engine and the document's settings, so the panel shows what hovers show.
 */
export interface InspectorServer {
  data(params: InspectorDataParams): Promise<InspectorDataResult>;
  fix(params: InspectorFixParams): Promise<InspectorFixResult>;
}

class InspectorPanel {
  private controls: InspectorControls | undefined;
  private data: InspectorData | undefined;
  private exactJob: AbortController | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly uri: vscode.Uri,
    private readonly host: InspectorHost,
    controls?: InspectorControls,
  ) {
    this.controls = controls;
    panel.webview.options = host.webviewOptions();
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m) => this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === this.uri.toString()) this.scheduleRefresh();
      }),
    );
  }

  private async document(): Promise<vscode.TextDocument> {
    return vscode.workspace.openTextDocument(this.uri);
  }

  private post(msg: HostMessage): void {
    void this.panel.webview.postMessage(msg);
  }

  /** Asks the server for the data; when the exact b* is still computing, asks again once it is in. */
  private async fetch(controls: InspectorControls | undefined): Promise<InspectorData> {
    const d = await this.document();
    const r = await this.host.server.data({ uri: d.uri.toString(), controls, label: vscode.workspace.asRelativePath(d.uri) });
    if (!r.ok) throw new Error(r.message);
    if (r.exactPending) this.refineExact(r.data.controls);
    return r.data;
  }

  /** First render: the whole page with the data embedded (no round trip before the plots show). */
  async render(): Promise<void> {
    const webview = this.panel.webview;
    try {
      this.data = await this.fetch(this.controls);
      this.controls = this.data.controls;
      this.panel.title = `RoPE Inspector · ${this.data.source.label.split('/').pop()}`;
      webview.html = this.host.html(webview, this.data);
    } catch (e) {
      webview.html = this.host.html(webview, undefined);
      this.post({ type: 'error', message: messageOf(e) });
    }
  }

  /** Recomputes after a control change or a document edit and sends the data to the page. */
  private async update(controls?: InspectorControls): Promise<void> {
    try {
      this.data = await this.fetch(controls ?? this.controls);
      this.controls = this.data.controls;
      this.post({ type: 'data', data: this.data });
    } catch (e) {
      this.post({ type: 'error', message: messageOf(e) });
    }
  }

  /** The server is computing the exact b* and threshold: wait for them, then redraw. */
  private refineExact(c: InspectorControls): void {
    this.exactJob?.abort();
    const job = new AbortController();
    this.exactJob = job;
    const L = c.targetLength;
    this.post({ type: 'busy', what: `Computing the exact b* for ${L.toLocaleString('en-US')} tokens…` });
    void this.document().then((d) => this.host.server.data({ uri: d.uri.toString(), controls: c, waitForExact: true, label: vscode.workspace.asRelativePath(d.uri) })).then(
      (r) => {
        if (job.signal.aborted || this.controls?.targetLength !== L) return;
        if (!r.ok) { this.post({ type: 'busy', what: `Exact b* unavailable: ${r.message} (grid estimate shown)` }); return; }
        this.data = r.data;
        this.post({ type: 'data', data: r.data });
      },
      (e) => { if (!job.signal.aborted) this.post({ type: 'busy', what: `Exact b* unavailable: ${messageOf(e)} (grid estimate shown)` }); },
    );
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.update(), 400);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = parsePageMessage(raw);
    if (!parsed.ok) {
      // Not from our page (or a bug): act on nothing, say why.
      this.host.log(`Inspector: ignored a message from the webview: ${parsed.reason}`);
      return;
    }
    const msg = parsed.value;
    switch (msg.type) {
      case 'ready':
        // The data is embedded in the page's HTML; nothing to send.
        return;
      case 'update':
        await this.update(msg.controls);
        return;
      case 'apply':
        await this.apply(msg.controls);
        return;
      case 'export-json':
        await this.exportJson();
        return;
    }
  }

  /** The quick fix's edit for the chosen rewrite (computed by the server), applied to the live document. */
  private async apply(c: InspectorControls): Promise<void> {
    try {
      const d = await this.document();
      const fix = await this.host.server.fix({ uri: d.uri.toString(), controls: c });
      if (!fix.ok) {
        this.post({ type: 'applied', ok: false, message: fix.message });
        return;
      }
      if (fix.version !== d.version) {
        this.post({ type: 'applied', ok: false, message: 'The document changed while the edit was computed; try again.' });
        return;
      }
      const edit = new vscode.WorkspaceEdit();
      for (const e of fix.edits) {
        edit.replace(d.uri, new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), e.newText);
      }
      const ok = await vscode.workspace.applyEdit(edit);
      this.controls = { ...c, method: 'configured' };
      this.post({ type: 'applied', ok, message: ok ? `Applied: ${fix.title}. Save the file to keep it.` : 'The editor refused the edit (is the file read-only?).' });
      if (ok) await this.update(this.controls);
    } catch (e) {
      this.post({ type: 'applied', ok: false, message: messageOf(e) });
    }
  }

  private async exportJson(): Promise<void> {
    if (!this.data) return;
    const base = this.uri.scheme === 'file' ? vscode.Uri.joinPath(this.uri, '..', 'rope-inspector.json') : undefined;
    const target = await vscode.window.showSaveDialog({ defaultUri: base, filters: { JSON: ['json'] } });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(JSON.stringify(this.data, null, 2), 'utf8'));
    this.post({ type: 'applied', ok: true, message: `Saved ${vscode.workspace.asRelativePath(target)}` });
  }

  reveal(targetLength?: number): void {
    this.panel.reveal();
    if (targetLength !== undefined && this.controls) void this.update({ ...this.controls, targetLength });
  }

  dispose(): void {
    this.exactJob?.abort();
    clearTimeout(this.refreshTimer);
    this.host.forget(this);
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

class InspectorHost {
  private readonly panels = new Map<string, InspectorPanel>();
  private readonly output: vscode.OutputChannel;

  constructor(private readonly context: vscode.ExtensionContext, readonly server: InspectorServer) {
    this.output = vscode.window.createOutputChannel('RoPE Lens Inspector');
    context.subscriptions.push(this.output);
  }

  log(line: string): void {
    this.output.appendLine(line);
  }

  private mediaRoot(): vscode.Uri {
    return vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'media');
  }

  webviewOptions(): vscode.WebviewOptions {
    return { enableScripts: true, localResourceRoots: [this.mediaRoot()], enableCommandUris: false };
  }

  html(webview: vscode.Webview, data: InspectorData | undefined): string {
    const media = this.mediaRoot();
    return renderInspectorHtml(
      {
        script: { src: webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.js')).toString() },
        style: { href: webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.css')).toString() },
      },
      { nonce: makeNonce(), cspSource: webview.cspSource, title: 'RoPE Inspector', data, standalone: false },
    );
  }

  async open(arg?: unknown, options?: unknown): Promise<void> {
    const uri = resolveUri(arg);
    if (!uri) {
      void vscode.window.showInformationMessage('RoPE Inspector: open a model config (config.json or YAML) first.');
      return;
    }
    const target = readTarget(options);
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.reveal(target);
      return;
    }
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      // Fails early (no empty panel) when the server cannot read the document as a config.
      const first = await this.server.data({ uri: doc.uri.toString(), controls: target !== undefined ? { targetLength: target } : undefined });
      if (!first.ok) throw new Error(first.message);
      const controls = first.data.controls;
      const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, 'RoPE Inspector', vscode.ViewColumn.Beside, this.webviewOptions());
      const p = new InspectorPanel(panel, uri, this, controls);
      this.panels.set(uri.toString(), p);
      await p.render();
    } catch (e) {
      void vscode.window.showErrorMessage(`RoPE Inspector: ${messageOf(e)}`);
    }
  }

  /** Serializer: the page's saved state names the document and controls; everything is rebuilt. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const s = parseState(state);
    if (!s.uri) {
      panel.webview.options = this.webviewOptions();
      panel.webview.html = this.html(panel.webview, undefined);
      void panel.webview.postMessage({ type: 'error', message: 'Nothing to restore: open the Inspector again from a config file.' } satisfies HostMessage);
      return;
    }
    const uri = vscode.Uri.parse(s.uri, true);
    const p = new InspectorPanel(panel, uri, this, s.controls);
    this.panels.set(uri.toString(), p);
    await p.render();
  }

  forget(p: InspectorPanel): void {
    if (this.panels.get(p.uri.toString()) === p) this.panels.delete(p.uri.toString());
  }
}

function resolveUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg.length > 0 && arg.length < 4096) {
    try { return vscode.Uri.parse(arg, true); } catch { return undefined; }
  }
  if (Array.isArray(arg) && arg.length > 0) return resolveUri(arg[0]);
  return vscode.window.activeTextEditor?.document.uri;
}

function readTarget(options: unknown): number | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const t = (options as { target?: unknown }).target;
  return typeof t === 'number' && Number.isInteger(t) && t >= 16 && t <= 4_194_304 ? t : undefined;
}

/** Registers the command `ropeLens.openInspector` ([uri], [{target}]) and the panel serializer. */
export function registerInspector(context: vscode.ExtensionContext, server: InspectorServer): void {
  const host = new InspectorHost(context, server);
  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_INSPECTOR_COMMAND, (arg?: unknown, options?: unknown) => host.open(arg, options)),
    vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => host.restore(panel, state),
    }),
  );
}
