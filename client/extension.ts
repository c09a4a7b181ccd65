/**
 * The RoPE Lens extension: starts the language server over IPC for JSON and YAML documents and
 * launch files (shell scripts, Dockerfiles, Modelfiles)
 * (the server sniffs content and stays silent on files that are not model or training configs),
 * shows a status-bar item while a bound computes, and registers the commands.
 */
import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import {
  BoundStatusNotification,
  InspectorDataRequest,
  InspectorFixRequest,
  PlanRequest,
  PlanWriteStageRequest,
  SERVER_NODE_FLAGS,
} from '../shared/protocol/messages';
import { COMMANDS } from '../shared/protocol/commands';
import { BoundStatusItem } from './status';
import { registerServerCommands } from './commands';
import { registerInspector } from './inspector/panel';
import { registerKernelBench } from './bench/command';
import { registerHub } from './hub';

let client: LanguageClient | undefined;

/** Timings of this activation, read by the extension-host tests and the benchmark. */
export interface ActivationStats {
  activateMs: number;
  serverReadyMs?: number;
}
const stats: ActivationStats = { activateMs: NaN };

export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'json' },
  { scheme: 'file', language: 'jsonc' },
  { scheme: 'file', language: 'yaml' },
  { scheme: 'untitled', language: 'json' },
  { scheme: 'untitled', language: 'yaml' },
  // Launch files: the commands that start engines and trainers (the server sniffs for a known
  // program before parsing, so an ordinary build script costs nothing).
  { scheme: 'file', language: 'shellscript' },
  { scheme: 'file', language: 'dockerfile' },
  { scheme: 'file', language: 'ollama-modelfile' },
  { scheme: 'file', language: 'dockercompose' },
  { scheme: 'untitled', language: 'shellscript' },
  // Launch files by name whatever language VS Code gives them (`x-Dockerfile`, `Dockerfile-gpu`,
  // `Modelfile.qwen`, `run.zsh`): the server decides by their text (shared/launch/format.ts).
  { scheme: 'file', pattern: '**/*{Dockerfile,dockerfile,Containerfile,containerfile}*' },
  { scheme: 'file', pattern: '**/{Modelfile,modelfile}*' },
  { scheme: 'file', pattern: '**/*.{sh,bash,zsh}' },
];

export function activate(context: vscode.ExtensionContext): { stats: ActivationStats } {
  const t0 = performance.now();
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    // A 1 MB young generation (the server allocates small, short-lived trees per keystroke) and an
    // explicit collection once bound work goes idle keep its RSS down (npm run bench, server memory).
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: SERVER_NODE_FLAGS } },
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

  const status = new BoundStatusItem();
  context.subscriptions.push(status);
  const ready = client.start().then(() => {
    stats.serverReadyMs = performance.now() - t0;
    context.subscriptions.push(client!.onNotification(BoundStatusNotification, (s) => status.update(s)));
  });
  registerHub(context, client);
  ready.catch((e) => void vscode.window.showErrorMessage(`RoPE Lens: the language server did not start: ${(e as Error)?.message ?? e}`));

  registerServerCommands(context, client, ready);
  const c = client;
  registerInspector(context, {
    data: async (params) => {
      await ready;
      return c.sendRequest(InspectorDataRequest, params);
    },
    fix: async (params) => {
      await ready;
      return c.sendRequest(InspectorFixRequest, params);
    },
    plan: async (params) => {
      await ready;
      return c.sendRequest(PlanRequest, params);
    },
    writeStage: async (params) => {
      await ready;
      return c.sendRequest(PlanWriteStageRequest, params);
    },
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
