/**
 * The client's side of fetching base models from the Hugging Face Hub: the server asks
 * (`ropeLens/hub/permission`) before any request, and this answers from workspace trust, the
 * `ropeLens.hub.allowNetwork` setting and, for `ask`, the user's answer, remembered for this
 * workspace. An untrusted workspace is never allowed the network, whatever the setting says.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { HubFetchedNotification, HubPermissionParams, HubPermissionRequest, HubPermissionResult } from '../shared/protocol/messages';
import { SETTINGS_SECTION, normalizeSettings } from '../shared/protocol/settings';
import { hubDecision } from '../shared/protocol/hubPermission';

/** workspaceState key of the user's answer to the first prompt in this workspace. */
export const HUB_ANSWER_KEY = 'ropeLens.hub.answer';
const ALLOW = 'Allow in This Workspace';
const NEVER = 'Never in This Workspace';

export async function hubPermission(context: vscode.ExtensionContext, params: HubPermissionParams): Promise<HubPermissionResult> {
  const mode = normalizeSettings({ 'hub.allowNetwork': vscode.workspace.getConfiguration(SETTINGS_SECTION).get('hub.allowNetwork') }).hubAllowNetwork;
  const decision = hubDecision({ trusted: vscode.workspace.isTrusted, mode, remembered: context.workspaceState.get<'allow' | 'never'>(HUB_ANSWER_KEY) });
  if (decision !== 'ask') return { allow: decision === 'allow' };
  const models = params.refs.length === 1 ? params.refs[0] : `${params.refs.length} models (${params.refs.join(', ')})`;
  const pick = await vscode.window.showInformationMessage(
    `RoPE Lens: ${models} is not in the Hugging Face cache or the built-in catalog. Fetch its config.json from ${params.endpoint} into the Hugging Face cache?`,
    ALLOW,
    NEVER,
  );
  if (pick === ALLOW || pick === NEVER) await context.workspaceState.update(HUB_ANSWER_KEY, pick === ALLOW ? 'allow' : 'never');
  // Dismissed: not now (the server asks again after a settings change or a restart).
  return { allow: pick === ALLOW };
}

/** Registers the permission handler and shows where fetched models came from in the output channel. */
export function registerHub(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(
    client.onRequest(HubPermissionRequest, (params) => hubPermission(context, params)),
    client.onNotification(HubFetchedNotification, (p) => {
      for (const r of p.results) client.outputChannel.appendLine(`Hub: ${r.message}`);
    }),
  );
}
