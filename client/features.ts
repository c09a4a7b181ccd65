/**
 * What the extension does once its language client exists, the same on the desktop
 * (client/extension.ts, the server over IPC) and in the browser (client/browserExtension.ts, the
 * server in a web worker): the bound status item, the server's commands, the Hub permission
 * prompt and the Inspector.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { BoundStatusNotification, InspectorDataRequest, InspectorFixRequest, PlanRequest, PlanWriteStageRequest } from '../shared/protocol/messages';
import { BoundStatusItem } from './status';
import { registerServerCommands } from './commands';
import { registerInspector } from './inspector/panel';
import { registerHub } from './hub';

/** Starts the client and registers its features; resolves when the server is ready. */
export function startClientFeatures(context: vscode.ExtensionContext, client: BaseLanguageClient): Promise<void> {
  const status = new BoundStatusItem();
  context.subscriptions.push(status);
  const ready = client.start().then(() => {
    context.subscriptions.push(client.onNotification(BoundStatusNotification, (s) => status.update(s)));
  });
  registerHub(context, client);
  ready.catch((e) => void vscode.window.showErrorMessage(`RoPE Lens: the language server did not start: ${(e as Error)?.message ?? e}`));

  registerServerCommands(context, client, ready);
  registerInspector(context, {
    data: async (params) => {
      await ready;
      return client.sendRequest(InspectorDataRequest, params);
    },
    fix: async (params) => {
      await ready;
      return client.sendRequest(InspectorFixRequest, params);
    },
    plan: async (params) => {
      await ready;
      return client.sendRequest(PlanRequest, params);
    },
    writeStage: async (params) => {
      await ready;
      return client.sendRequest(PlanWriteStageRequest, params);
    },
  });
  return ready;
}
