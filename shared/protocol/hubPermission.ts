/**
 * Whether the editor may use the network for the Hub, before any prompt: the rule the VS Code client
 * applies to `ropeLens/hub/permission` (client/hub.ts), kept here so it is tested without an editor.
 */
import type { HubNetwork } from './settings';

/** `allow` / `deny` without asking; `ask`: prompt the user (and remember the answer for the workspace). */
export type HubDecision = 'allow' | 'deny' | 'ask';

export function hubDecision(input: { trusted: boolean; mode: HubNetwork; remembered?: 'allow' | 'never' }): HubDecision {
  // An untrusted workspace never reaches the network, whatever the setting or an earlier answer says.
  if (!input.trusted || input.mode === 'never') return 'deny';
  if (input.mode === 'always') return 'allow';
  if (input.remembered) return input.remembered === 'allow' ? 'allow' : 'deny';
  return 'ask';
}
