/**
 * The web extension (package.json `browser`, dist/web/extension.js): VS Code for the web
 * (vscode.dev, github.dev, code-server's web worker host) runs it in a web worker and gives it no
 * Node. The language server runs in a worker of its own (dist/web/server.js) with the same server
 * core and findings as the desktop; it reads workspace files through this client (fileServer.ts).
 */
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { COMMANDS } from '../shared/protocol/commands';
import { DOCUMENT_SELECTOR_ANY_SCHEME } from './documentSelector';
import { startClientFeatures } from './features';
import { serveFiles } from './fileServer';
import { startServerWorker } from './serverWorker';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const clientOptions: LanguageClientOptions = {
    // Virtual file systems (vscode-vfs:, vscode-remote:, …) as well as file: and untitled:.
    documentSelector: DOCUMENT_SELECTOR_ANY_SCHEME,
    markdown: { isTrusted: { enabledCommands: [COMMANDS.openInspector, COMMANDS.planContextExtension] }, supportHtml: false },
    diagnosticCollectionName: 'rope-lens',
    initializationOptions: { hubPermission: true },
  };
  const c = (client = new LanguageClient('ropeLens', 'RoPE Lens', clientOptions, await startServerWorker(context.extensionUri)));
  serveFiles(context, c);
  startClientFeatures(context, c);
  // The kernel micro-benchmarks run WebGPU through Node's Dawn; the web extension says so instead of failing.
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.runKernelBenchmarks, () =>
      vscode.window.showInformationMessage('RoPE Lens: the kernel micro-benchmarks run in the desktop extension only.'),
    ),
  );
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop().catch(() => undefined);
}
