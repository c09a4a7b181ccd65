// Placeholder until the kernel micro-benchmark command lands.
import * as vscode from 'vscode';
export function registerKernelBench(_context: vscode.ExtensionContext): void {}
