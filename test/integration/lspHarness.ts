/**
 * A real LSP client for the protocol tests: spawns `node bin/rope-lens.js lsp --stdio` and talks
 * JSON-RPC to it over the child's stdio with vscode-languageserver-protocol, answering the
 * server's own requests (configuration, progress, registrations) the way an editor would.
 */
import { spawn, ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createProtocolConnection,
  ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  ClientCapabilities,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  TextDocumentContentChangeEvent,
  ShutdownRequest,
  ExitNotification,
  ConfigurationRequest,
  RegistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressEnd,
  WorkDoneProgressReport,
  Diagnostic,
  TextEdit,
  DiagnosticRefreshRequest,
  InlayHintRefreshRequest,
  InitializeResult,
  LogMessageNotification,
} from 'vscode-languageserver-protocol/node';
import { BOUND_STATUS_METHOD, BoundStatusParams } from '../../shared/protocol/messages';

/** The repo root: two levels above this file, or the working directory when bundled into dist/ (the bench). */
export const ROOT = existsSync(join(__dirname, '..', '..', 'package.json')) ? join(__dirname, '..', '..') : process.cwd();
export const CLI = join(ROOT, 'bin', 'rope-lens.js');
export const BUILT = existsSync(join(ROOT, 'dist', 'cli.js'));

export const BASE_CAPABILITIES: ClientCapabilities = {
  workspace: { configuration: true, workspaceEdit: { documentChanges: true }, didChangeConfiguration: { dynamicRegistration: true } },
  window: { workDoneProgress: true },
  textDocument: {
    synchronization: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source.fixAll'] } }, isPreferredSupport: true },
  },
};

export interface HarnessOptions {
  capabilities?: ClientCapabilities;
  /** What `workspace/configuration` answers for section `ropeLens`. */
  settings?: Record<string, unknown>;
  /** Server command line (defaults to the CLI's `lsp --stdio`). */
  args?: string[];
  /** The server's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  initializationOptions?: unknown;
}

export class LspHarness {
  readonly published: PublishDiagnosticsParams[] = [];
  readonly progress: { token: string | number; value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd }[] = [];
  readonly boundStatus: BoundStatusParams[] = [];
  readonly stderr: string[] = [];
  /** Capabilities the server registered dynamically (client/registerCapability). */
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  /** The server's window/logMessage lines (where it reports a validation that threw), the last 50. */
  readonly logs: string[] = [];
  settings: Record<string, unknown>;
  refreshes = 0;
  initResult!: InitializeResult;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly conn: ProtocolConnection,
    opts: HarnessOptions,
  ) {
    this.settings = opts.settings ?? {};
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.published.push(p);
      this.wake();
    });
    conn.onNotification(LogMessageNotification.type, (p) => {
      this.logs.push(p.message);
      if (this.logs.length > 50) this.logs.shift();
    });
    conn.onNotification(BOUND_STATUS_METHOD, (p: BoundStatusParams) => {
      this.boundStatus.push(p);
      this.wake();
    });
    conn.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'ropeLens' ? this.settings : null)));
    conn.onRequest(RegistrationRequest.type, (p) => {
      this.registrations.push(...p.registrations);
      this.wake();
      return null;
    });
    conn.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      conn.onProgress(WorkDoneProgress.type, token, (value) => {
        this.progress.push({ token, value });
        this.wake();
      });
      return null;
    });
    conn.onRequest(DiagnosticRefreshRequest.type, () => {
      this.refreshes++;
      this.wake();
      return null;
    });
    conn.onRequest(InlayHintRefreshRequest.type, () => null);
    conn.onRequest('workspace/codeLens/refresh', () => null);
  }

  static async start(opts: HarnessOptions = {}): Promise<LspHarness> {
    const child = spawn(process.execPath, opts.args ?? [CLI, 'lsp', '--stdio'], { cwd: ROOT, stdio: 'pipe', env: opts.env ?? process.env });
    const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const h = new LspHarness(child, conn, opts);
    child.stderr.on('data', (d) => h.stderr.push(String(d)));
    conn.listen();
    h.initResult = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: null,
      capabilities: opts.capabilities ?? BASE_CAPABILITIES,
      ...(opts.initializationOptions !== undefined ? { initializationOptions: opts.initializationOptions } : {}),
    });
    await conn.sendNotification(InitializedNotification.type, {});
    return h;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  }

  /** Resolves once `predicate` holds (re-checked on every message), or rejects after `timeoutMs`. */
  async until<T>(predicate: () => T | undefined | false, what: string, timeoutMs = 10000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = predicate();
      if (v) return v;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; server stderr: ${this.stderr.join('').slice(-2000)}; last server log lines: ${this.logs.slice(-5).join(' | ').slice(-2000)}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The latest diagnostics published for `uri` at `version` (waits for them). */
  diagnosticsFor(uri: string, version: number, timeoutMs?: number): Promise<Diagnostic[]> {
    return this.until(
      () => {
        for (let i = this.published.length - 1; i >= 0; i--) {
          const p = this.published[i];
          if (p.uri === uri && p.version === version) return p.diagnostics;
        }
        return undefined;
      },
      `diagnostics of ${uri} v${version}`,
      timeoutMs,
    );
  }

  async open(uri: string, text: string, languageId = 'json', version = 1): Promise<void> {
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
  }

  async change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
  }

  async close(uri: string): Promise<void> {
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Shuts the server down the polite way; kills it if it does not exit within 2 s. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    try {
      await Promise.race([this.conn.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.conn.sendNotification(ExitNotification.type);
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    const code = this.child.exitCode ?? (await exited);
    clearTimeout(timer);
    this.conn.dispose();
    return code;
  }
}

/** Applies LSP text edits to a text (edits must not overlap), as an editor does. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p: { line: number; character: number }) => Math.min(text.length, (starts[p.line] ?? text.length) + p.character);
  const sorted = edits.map((e) => ({ s: offset(e.range.start), e: offset(e.range.end), t: e.newText })).sort((a, b) => b.s - a.s);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.s) + e.t + out.slice(e.e);
  return out;
}
