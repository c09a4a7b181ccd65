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
import type { PlanViewData, PlanViewRequest } from '../../shared/inspector/planTypes';
import type {
  InspectorDataParams,
  InspectorDataResult,
  InspectorFixParams,
  InspectorFixResult,
  PlanParams,
  PlanResult,
  PlanWriteStageParams,
  PlanWriteStageResult,
} from '../../shared/protocol/messages';
import { COMMANDS, VIEW_TYPES } from '../../shared/protocol/commands';
import { askPlanRequest, readPlanOptions } from './planInput';

export const INSPECTOR_VIEW_TYPE = VIEW_TYPES.inspector;
export const OPEN_INSPECTOR_COMMAND = COMMANDS.openInspector;

/**
 * The language server computes the panel's data and Apply edits (typed requests): it owns the
 * window's one bound engine and the document's settings, so the panel shows what hovers show.
 */
export interface InspectorServer {
  data(params: InspectorDataParams): Promise<InspectorDataResult>;
  fix(params: InspectorFixParams): Promise<InspectorFixResult>;
  /** The context-extension plan (defaults only without a target). */
  plan(params: PlanParams): Promise<PlanResult>;
  writeStage(params: PlanWriteStageParams): Promise<PlanWriteStageResult>;
}

class InspectorPanel {
  private controls: InspectorControls | undefined;
  private data: InspectorData | undefined;
  /** The plan on show (the page's plan view), asked again after edits and reloads. */
  planRequest: PlanViewRequest | undefined;
  private planView: PlanViewData | undefined;
  private loaded = false;
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

  /** The plan for `planRequest`, computed by the server. */
  private async fetchPlan(req: PlanViewRequest): Promise<PlanViewData> {
    const d = await this.document();
    const r = await this.host.server.plan({ uri: d.uri.toString(), target: req.target, stages: req.stages, label: vscode.workspace.asRelativePath(d.uri) });
    if (!r.ok) throw new Error(r.message);
    if (!r.view) throw new Error('the server answered no plan');
    return r.view;
  }

  /** First render: the whole page with the data (and the plan, when one is on show) embedded. */
  async render(): Promise<void> {
    const webview = this.panel.webview;
    let error: string | undefined;
    try {
      this.data = await this.fetch(this.controls);
      this.controls = this.data.controls;
      this.panel.title = `RoPE Inspector · ${this.data.source.label.split('/').pop()}`;
    } catch (e) {
      this.data = undefined;
      error = messageOf(e);
    }
    if (this.planRequest) {
      try {
        this.planView = await this.fetchPlan(this.planRequest);
        this.panel.title = `RoPE Plan · ${this.planView.source.label.split('/').pop()}`;
        error = undefined; // the plan view is what the page shows
      } catch (e) {
        error = `Plan: ${messageOf(e)}`;
      }
    }
    webview.html = this.host.html(webview, this.data, this.planRequest ? this.planView : undefined);
    this.loaded = true;
    if (error) this.post({ type: 'error', message: error });
  }

  /** Shows the plan for `req` in this panel's plan view. */
  async showPlan(req: PlanViewRequest): Promise<void> {
    this.planRequest = req;
    this.panel.reveal();
    if (!this.loaded) {
      await this.render();
      return;
    }
    await this.updatePlan();
  }

  private async updatePlan(): Promise<void> {
    if (!this.planRequest) return;
    try {
      this.planView = await this.fetchPlan(this.planRequest);
      this.post({ type: 'plan', plan: this.planView });
    } catch (e) {
      this.post({ type: 'error', message: `Plan: ${messageOf(e)}` });
    }
  }

  /** "Write this stage into <file>": the server's edits for the stage, applied as one undoable edit. */
  private async writeStage(stage: number): Promise<void> {
    const req = this.planRequest;
    if (!req) {
      this.post({ type: 'applied', ok: false, message: 'No plan on show.' });
      return;
    }
    try {
      const d = await this.document();
      const r = await this.host.server.writeStage({ uri: d.uri.toString(), target: req.target, stages: req.stages, stage });
      if (!r.ok) {
        this.post({ type: 'applied', ok: false, message: r.message });
        return;
      }
      if (r.version !== d.version) {
        this.post({ type: 'applied', ok: false, message: 'The document changed while the edit was computed; try again.' });
        return;
      }
      const edit = new vscode.WorkspaceEdit();
      for (const e of r.edits) {
        edit.replace(d.uri, new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), e.newText);
      }
      const ok = await vscode.workspace.applyEdit(edit);
      this.post({
        type: 'applied',
        ok,
        message: ok ? `${r.title}: done. Undo reverts it; save the file to keep it.` : 'The editor refused the edit (is the file read-only?).',
      });
    } catch (e) {
      this.post({ type: 'applied', ok: false, message: messageOf(e) });
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
    void this.document()
      .then((d) => this.host.server.data({ uri: d.uri.toString(), controls: c, waitForExact: true, label: vscode.workspace.asRelativePath(d.uri) }))
      .then(
        (r) => {
          if (job.signal.aborted || this.controls?.targetLength !== L) return;
          if (!r.ok) {
            this.post({ type: 'busy', what: `Exact b* unavailable: ${r.message} (grid estimate shown)` });
            return;
          }
          this.data = r.data;
          this.post({ type: 'data', data: r.data });
        },
        (e) => {
          if (!job.signal.aborted) this.post({ type: 'busy', what: `Exact b* unavailable: ${messageOf(e)} (grid estimate shown)` });
        },
      );
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      void this.update();
      void this.updatePlan();
    }, 400);
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
      case 'plan-write':
        await this.writeStage(msg.stage);
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
      this.post({
        type: 'applied',
        ok,
        message: ok ? `Applied: ${fix.title}. Save the file to keep it.` : 'The editor refused the edit (is the file read-only?).',
      });
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

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly server: InspectorServer,
  ) {
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

  html(webview: vscode.Webview, data: InspectorData | undefined, plan?: PlanViewData): string {
    const media = this.mediaRoot();
    return renderInspectorHtml(
      {
        script: { src: webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.js')).toString() },
        style: { href: webview.asWebviewUri(vscode.Uri.joinPath(media, 'inspector.css')).toString() },
      },
      { nonce: makeNonce(), cspSource: webview.cspSource, title: 'RoPE Inspector', data, plan, standalone: false },
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

  /**
   * The plan view for `uri` (a new panel, or the document's open one). Fails early, with the
   * server's reason, when no plan can be made, so no empty panel opens.
   */
  async openPlan(uri: vscode.Uri, req: PlanViewRequest): Promise<void> {
    const existing = this.panels.get(uri.toString());
    if (existing) {
      await existing.showPlan(req);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const first = await this.server.plan({ uri: doc.uri.toString(), target: req.target, stages: req.stages });
    if (!first.ok) throw new Error(first.message);
    const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, 'RoPE Plan', vscode.ViewColumn.Beside, this.webviewOptions());
    const p = new InspectorPanel(panel, uri, this);
    p.planRequest = req;
    this.panels.set(uri.toString(), p);
    await p.render();
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
    if (s.view === 'plan') p.planRequest = s.plan;
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
    try {
      return vscode.Uri.parse(arg, true);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(arg) && arg.length > 0) return resolveUri(arg[0]);
  return vscode.window.activeTextEditor?.document.uri;
}

function readTarget(options: unknown): number | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const t = (options as { target?: unknown }).target;
  return typeof t === 'number' && Number.isInteger(t) && t >= 16 && t <= 4_194_304 ? t : undefined;
}

/**
 * Registers the commands `ropeLens.openInspector` ([uri], [{target}]) and
 * `ropeLens.planContextExtension` ([uri], [{target, stages}]) and the panel serializer.
 */
export function registerInspector(context: vscode.ExtensionContext, server: InspectorServer): void {
  const host = new InspectorHost(context, server);
  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_INSPECTOR_COMMAND, (arg?: unknown, options?: unknown) => host.open(arg, options)),
    vscode.commands.registerCommand(COMMANDS.planContextExtension, (arg?: unknown, options?: unknown) => planContextExtension(host, resolveUri(arg), options)),
    vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => host.restore(panel, state),
    }),
  );
}

/** "Plan context extension…": the target (and optional stages) from input boxes, then the plan view. */
async function planContextExtension(host: InspectorHost, uri: vscode.Uri | undefined, options: unknown): Promise<void> {
  if (!uri) {
    void vscode.window.showInformationMessage('RoPE Lens: open a model config or a training YAML first.');
    return;
  }
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    const given = readPlanOptions(options);
    let req = given;
    if (!req) {
      const d = await host.server.plan({ uri: doc.uri.toString() });
      if (!d.ok) throw new Error(d.message);
      req = await askPlanRequest(d.defaults);
      if (!req) return; // cancelled
    }
    await host.openPlan(uri, req);
  } catch (e) {
    void vscode.window.showErrorMessage(`RoPE Lens plan: ${messageOf(e)}`);
  }
}
