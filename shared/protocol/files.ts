/**
 * Files the browser language server asks its client for. A web worker has no file system: the
 * client reads through `vscode.workspace.fs`, so virtual file systems (github.dev's vscode-vfs:,
 * vscode.dev's opened folders) answer the same way as a local disk. Paths are what the analysis
 * works with (a document URI's path, server/uri.ts); the client maps them back to URIs.
 */
import { RequestType } from 'vscode-languageserver-protocol';

export interface ReadFileParams {
  path: string;
}
export interface ReadFileResult {
  /** The text (UTF-8), absent when the file is missing, a folder, unreadable or over `maxBytes`. */
  text?: string;
  /** Why there is no text: `missing`, `too-large`, or an error message. */
  problem?: string;
}
export const READ_FILE_METHOD = 'ropeLens/fs/readFile';
export const ReadFileRequest = new RequestType<ReadFileParams, ReadFileResult, void>(READ_FILE_METHOD);

export interface ReadDirectoryParams {
  path: string;
}
export interface ReadDirectoryResult {
  /** Entry names, absent when the path is not a readable folder. */
  entries?: string[];
}
export const READ_DIRECTORY_METHOD = 'ropeLens/fs/readDirectory';
export const ReadDirectoryRequest = new RequestType<ReadDirectoryParams, ReadDirectoryResult, void>(READ_DIRECTORY_METHOD);

/**
 * The global the web client sets in the server's worker before loading it: file name (beside
 * dist/web/server.js) → the URL the browser loads it from. VS Code for the web serves an
 * extension's files at URLs that are not relative to one another (`…/vscode-remote-resource?path=…`).
 */
export const WEB_ASSETS_GLOBAL = 'ropeLensWebAssets';
/** The files the web server loads from beside its bundle. */
export const WEB_ASSETS = ['tree-sitter.wasm', 'tree-sitter-bash.wasm', 'bstarWorker.js'] as const;

/** Files larger than this are not configs, lock files or scripts the analysis reads (the resolver's own cap). */
export const MAX_CLIENT_FILE_BYTES = 4 * 1024 * 1024;
