/**
 * Starts the web language server's worker. VS Code for the web refuses `new Worker()` on an
 * extension's own vscode-remote: URI and serves its files at URLs that do not resolve relative
 * to one another; its extension host's `fetch` does map those URIs. So each file's browser URL is
 * learned from a fetch, and the worker starts from a small script that names them and then
 * imports the server (WEB_ASSETS_GLOBAL, read by server/browserServer.ts).
 */
import * as vscode from 'vscode';
import { WEB_ASSETS, WEB_ASSETS_GLOBAL } from '../shared/protocol/files';

async function browserUrlOf(uri: vscode.Uri): Promise<string> {
  // A GET whose body is dropped: some hosts (code-server) answer HEAD with 405.
  const response = await fetch(uri.toString(true));
  void response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw new Error(`${uri.toString(true)}: HTTP ${response.status}`);
  return response.url || uri.toString(true);
}

export async function startServerWorker(extensionUri: vscode.Uri): Promise<Worker> {
  const dir = vscode.Uri.joinPath(extensionUri, 'dist', 'web');
  const server = await browserUrlOf(vscode.Uri.joinPath(dir, 'server.js'));
  const assets: Record<string, string> = {};
  for (const name of WEB_ASSETS) assets[name] = await browserUrlOf(vscode.Uri.joinPath(dir, name));
  const boot = `self[${JSON.stringify(WEB_ASSETS_GLOBAL)}] = ${JSON.stringify(assets)};\nimportScripts(${JSON.stringify(server)});\n`;
  return new Worker(URL.createObjectURL(new Blob([boot], { type: 'application/javascript' })));
}
