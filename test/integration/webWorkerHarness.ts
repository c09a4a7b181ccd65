/**
 * The built browser language server (dist/web/server.js) in a V8 context that has the globals of
 * a browser's dedicated worker and nothing of Node's: no `require`, `process`, `Buffer`,
 * `setImmediate`, `__dirname`. Its postMessage/onmessage pair is one end of a MessageChannel; this
 * side speaks LSP on the other end with vscode-jsonrpc's browser transport, and plays the client
 * VS Code's web extension is: it answers `ropeLens/fs/*` from the disk (client/fileServer.ts does
 * it through `vscode.workspace.fs`). `fetch` serves only the files beside the bundle, as a browser
 * serves the extension's own folder.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import * as vm from 'node:vm';
import { BrowserMessageReader, BrowserMessageWriter } from 'vscode-jsonrpc/browser';
import {
  createProtocolConnection,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  PublishDiagnosticsNotification,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  LogMessageNotification,
  type InitializeResult,
} from 'vscode-languageserver-protocol/browser';
import { ReadDirectoryRequest, ReadFileRequest, MAX_CLIENT_FILE_BYTES } from '../../shared/protocol/files';
import { ROOT } from './lspHarness';

export const WEB_SERVER = join(ROOT, 'dist', 'web', 'server.js');

export interface WebServer {
  client: ProtocolConnection;
  initialize: InitializeResult;
  /** The latest diagnostics per URI. */
  latest: Map<string, PublishDiagnosticsParams>;
  /** Server log lines (window/logMessage). */
  logs: string[];
  /** Paths the server asked the client to read. */
  reads: string[];
  /** `typeof` of Node's globals inside the worker context, as the bundle sees them. */
  nodeGlobals: Record<string, string>;
  open(path: string, languageId: string): Promise<string>;
  /** Resolves with the diagnostics of `uri` once `accept` says yes; rejects with the last ones after `ms`. */
  diagnosticsWhen(uri: string, accept: (d: PublishDiagnosticsParams) => boolean, ms?: number): Promise<PublishDiagnosticsParams>;
  dispose(): void;
}

/** What a dedicated worker has (the parts the bundle may touch), from Node's web-compatible implementations. */
function workerGlobals(bundle: string): Record<string, unknown> {
  const bundleDir = dirname(bundle);
  return {
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    AbortController,
    AbortSignal,
    Event,
    EventTarget,
    MessageChannel,
    Response,
    Headers,
    Blob,
    console,
    performance,
    queueMicrotask,
    structuredClone,
    atob,
    btoa,
    crypto: globalThis.crypto,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    location: { href: pathToFileURL(bundle).toString() },
    // The extension's folder as a browser serves it: files beside the bundle, nothing else.
    fetch: async (input: string | URL) => {
      const url = new URL(String(input));
      const path = url.protocol === 'file:' ? fileURLToPath(url) : '';
      if (!path || dirname(path) !== bundleDir) return new Response(null, { status: 404 });
      return new Response(readFileSync(path));
    },
  };
}

export async function startWebServer(): Promise<WebServer> {
  const { port1, port2 } = new MessageChannel();
  const globals = workerGlobals(WEB_SERVER);
  const context = vm.createContext(globals);
  // The worker's own postMessage/onmessage/addEventListener: one end of the channel.
  vm.runInContext('globalThis.self = globalThis;', context);
  Object.defineProperty(context, 'postMessage', { value: (m: unknown) => port1.postMessage(m) });
  Object.defineProperty(context, 'addEventListener', { value: (type: string, fn: (e: unknown) => void) => port1.addEventListener(type, fn as never) });
  // Node's MessagePort has the web's onmessage (its types do not say so).
  const webPort1 = port1 as unknown as { onmessage: ((e: unknown) => void) | null };
  Object.defineProperty(context, 'onmessage', {
    set: (fn: ((e: unknown) => void) | null) => {
      webPort1.onmessage = fn;
    },
    get: () => webPort1.onmessage,
  });
  const nodeGlobals = vm.runInContext(
    `({ require: typeof require, process: typeof process, Buffer: typeof Buffer, setImmediate: typeof setImmediate, __dirname: typeof __dirname, module: typeof module })`,
    context,
  ) as Record<string, string>;
  vm.runInContext(readFileSync(WEB_SERVER, 'utf8'), context, { filename: WEB_SERVER });

  const client = createProtocolConnection(new BrowserMessageReader(port2 as never), new BrowserMessageWriter(port2 as never));
  const latest = new Map<string, PublishDiagnosticsParams>();
  const logs: string[] = [];
  const reads: string[] = [];
  const listeners = new Set<() => void>();
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    latest.set(p.uri, p);
    listeners.forEach((l) => l());
  });
  client.onNotification(LogMessageNotification.type, (p) => logs.push(p.message));
  client.onRequest(ReadFileRequest, ({ path }) => {
    reads.push(path);
    try {
      const st = statSync(path);
      if (!st.isFile()) return { problem: 'missing' };
      if (st.size > MAX_CLIENT_FILE_BYTES) return { problem: 'too-large' };
      return { text: readFileSync(path, 'utf8') };
    } catch {
      return { problem: 'missing' };
    }
  });
  client.onRequest(ReadDirectoryRequest, ({ path }) => {
    reads.push(`${path}/`);
    try {
      return { entries: readdirSync(path) };
    } catch {
      return {};
    }
  });
  client.listen();
  const initialize = await client.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: pathToFileURL(ROOT).toString(),
    capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true } } },
    workspaceFolders: [{ uri: pathToFileURL(ROOT).toString(), name: 'rope-lens' }],
  });
  await client.sendNotification(InitializedNotification.type, {});
  return {
    client,
    initialize,
    latest,
    logs,
    reads,
    nodeGlobals,
    async open(path, languageId) {
      const uri = pathToFileURL(path).toString();
      await client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text: readFileSync(path, 'utf8') } });
      return uri;
    },
    diagnosticsWhen(uri, accept, ms = 20000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const d = latest.get(uri);
          if (d && accept(d)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(d);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(Object.assign(new Error(`no accepted diagnostics for ${uri} in ${ms} ms`), { last: latest.get(uri) }));
        }, ms);
        listeners.add(check);
        check();
      });
    },
    dispose() {
      client.dispose();
      port1.close();
      port2.close();
    },
  };
}
