// Placeholder until the RoPE Inspector panel lands.
import * as vscode from 'vscode';
export function registerInspector(_context: vscode.ExtensionContext): void {}
