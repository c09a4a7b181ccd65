/**
 * Commands that talk to the language server. The Inspector and the kernel benchmark register
 * their own commands (client/inspector, client/bench); they reach the server through
 * `ropeLens.describeDocument`, so they never hold the LanguageClient.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { CheckAsModelConfigRequest, DescribeRequest, DescribeResult } from '../shared/protocol/messages';
import { COMMANDS } from '../shared/protocol/commands';

function targetUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string') return vscode.Uri.parse(arg);
  return vscode.window.activeTextEditor?.document.uri;
}

export function registerServerCommands(context: vscode.ExtensionContext, client: LanguageClient, ready: Promise<void>): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.checkAsModelConfig, async (arg?: unknown) => {
      const uri = targetUri(arg);
      if (!uri) {
        void vscode.window.showWarningMessage('RoPE Lens: open a JSON or YAML file first.');
        return undefined;
      }
      await ready;
      const r = await client.sendRequest(CheckAsModelConfigRequest, { uri: uri.toString() });
      void vscode.window.setStatusBarMessage(
        r.findings ? `RoPE Lens: ${r.findings} finding(s) in this file` : 'RoPE Lens: no RoPE findings in this file',
        4000,
      );
      return r;
    }),
    vscode.commands.registerCommand(COMMANDS.describeDocument, async (arg?: unknown, waitForBounds?: boolean): Promise<DescribeResult | null> => {
      const uri = targetUri(arg);
      if (!uri) return null;
      await ready;
      return client.sendRequest(DescribeRequest, { uri: uri.toString(), waitForBounds: waitForBounds === true });
    }),
  );
}
