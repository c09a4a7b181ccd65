/**
 * Answers the browser server's file reads (shared/protocol/files.ts) through `vscode.workspace.fs`,
 * which reads whatever file system the workspace is on: github.dev's repository, vscode.dev's
 * opened folder, code-server's remote disk. The server names paths; they are mapped back to URIs
 * of the open document or workspace folder they fall under, else of the first folder's scheme.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { MAX_CLIENT_FILE_BYTES, ReadDirectoryRequest, ReadFileRequest, type ReadFileResult } from '../shared/protocol/files';

/** The URI a server-side path stands for. */
export function uriOfPath(path: string): vscode.Uri {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.path === path);
  if (doc) return doc.uri;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const under = folders.find((f) => path === f.uri.path || path.startsWith(f.uri.path.endsWith('/') ? f.uri.path : `${f.uri.path}/`));
  const base = under ?? folders[0];
  return base ? base.uri.with({ path }) : vscode.Uri.file(path);
}

const problemOf = (e: unknown) => (e instanceof vscode.FileSystemError && e.code === 'FileNotFound' ? 'missing' : ((e as Error)?.message ?? String(e)));

export function serveFiles(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  const decoder = new TextDecoder('utf-8');
  context.subscriptions.push(
    client.onRequest(ReadFileRequest, async ({ path }): Promise<ReadFileResult> => {
      if (typeof path !== 'string') return { problem: 'path must be a string' };
      const uri = uriOfPath(path);
      try {
        const st = await vscode.workspace.fs.stat(uri);
        if (st.type & vscode.FileType.Directory) return { problem: 'missing' };
        if (st.size > MAX_CLIENT_FILE_BYTES) return { problem: 'too-large' };
        return { text: decoder.decode(await vscode.workspace.fs.readFile(uri)) };
      } catch (e) {
        return { problem: problemOf(e) };
      }
    }),
    client.onRequest(ReadDirectoryRequest, async ({ path }) => {
      if (typeof path !== 'string') return {};
      try {
        return { entries: (await vscode.workspace.fs.readDirectory(uriOfPath(path))).map(([name]) => name) };
      } catch {
        return {};
      }
    }),
  );
}
