/** Status-bar item shown while the server computes a bound (`ropeLens/boundStatus`). */
import * as vscode from 'vscode';
import type { BoundStatusParams } from '../shared/protocol/messages';
import { COMMANDS, STATUS_ITEM_ID } from '../shared/protocol/commands';

export class BoundStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = 'RoPE Lens bound computation';
    this.item.command = COMMANDS.openInspector;
  }

  update(s: BoundStatusParams): void {
    if (s.pending <= 0) {
      this.item.hide();
      return;
    }
    this.item.text = `$(sync~spin) RoPE Lens: ${s.label ?? 'computing bounds'}`;
    this.item.tooltip = s.pending > 1 ? `${s.pending} bound computations queued` : 'Computing an exact bound off-thread; other findings are already shown.';
    this.item.show();
  }

  /** Visible text (for tests); undefined while hidden. */
  get text(): string | undefined {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
