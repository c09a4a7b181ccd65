/** Typed read access to the extension's `ropeLens.*` settings (the server reads its own per resource). */
import * as vscode from 'vscode';

export const SECTION = 'ropeLens';

export class Config {
  private get raw(): vscode.WorkspaceConfiguration { return vscode.workspace.getConfiguration(SECTION); }
  get enable(): boolean { return this.raw.get<boolean>('enable', true); }
  get trace(): 'off' | 'messages' | 'verbose' { return this.raw.get('trace.server', 'off'); }
  get hints(): 'inlay' | 'codeLens' | 'off' { return this.raw.get('hints', 'inlay'); }
}
