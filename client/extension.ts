/**
 * The RoPE Lens extension: starts the language server over IPC for JSON and YAML documents and
 * launch files (shell scripts, Dockerfiles, Modelfiles)
 * (the server sniffs content and stays silent on files that are not model or training configs),
 * shows a status-bar item while a bound computes, and registers the commands.
 */
import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../shared/protocol/messages';
import { COMMANDS } from '../shared/protocol/commands';
import { registerKernelBench } from './bench/command';
import { startClientFeatures } from './features';

let client: LanguageClient | undefined;

/** Timings of this activation, read by the extension-host tests and the benchmark. */
export interface ActivationStats {
  activateMs: number;
  serverReadyMs?: number;
}
const stats: ActivationStats = { activateMs: NaN };

export { DOCUMENT_SELECTOR } from './documentSelector';
import { DOCUMENT_SELECTOR } from './documentSelector';

export function activate(context: vscode.ExtensionContext): { stats: ActivationStats } {
  const t0 = performance.now();
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    // A 1 MB young generation (the server allocates small, short-lived trees per keystroke) and an
    // explicit collection once bound work goes idle keep its RSS down (npm run bench, server memory).
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: SERVER_NODE_FLAGS, env: { ...process.env, ...SERVER_ENV } } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    // Hovers carry a command link to the Inspector; trust exactly that command.
    markdown: { isTrusted: { enabledCommands: [COMMANDS.openInspector, COMMANDS.planContextExtension] }, supportHtml: false },
    diagnosticCollectionName: 'rope-lens',
    // This client answers ropeLens/hub/permission (client/hub.ts): the server asks before any Hub request.
    initializationOptions: { hubPermission: true },
  };
  client = new LanguageClient('ropeLens', 'RoPE Lens', serverOptions, clientOptions);

  const ready = startClientFeatures(context, client).then(() => {
    stats.serverReadyMs = performance.now() - t0;
  });
  registerKernelBench(context);
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.activationStats, async (waitForServer?: boolean) => {
      if (waitForServer) await ready.catch(() => undefined);
      return { ...stats };
    }),
  );

  stats.activateMs = performance.now() - t0;
  return { stats };
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop().catch(() => undefined);
}
