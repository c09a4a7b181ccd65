/**
 * File names for analysis and messages, from document URIs of any scheme. No `node:url`: the same
 * module serves the Node server and the browser worker.
 */

/** Windows reads `file:///C:/x` as `C:\x`; elsewhere (and in a browser) the path stays as written. */
const windowsPaths = (globalThis as { process?: { platform?: string } }).process?.platform === 'win32';

/** The file-system path of a `file:` URI; for other schemes (untitled:, vscode-remote:, vscode-vfs:) the decoded path part. */
export function fileNameOf(uri: string): string {
  try {
    const u = new URL(uri);
    const path = decodeURIComponent(u.pathname);
    if (u.protocol !== 'file:') return path || uri;
    // A file URI with a host (file://server/share) names a network share: only Windows reads it as a path.
    if (u.host && u.host !== 'localhost') return windowsPaths ? `\\\\${u.host}${path.replace(/\//g, '\\')}` : uri;
    if (path.includes('\0')) return uri;
    return windowsPaths && /^\/[A-Za-z]:/.test(path) ? path.slice(1).replace(/\//g, '\\') : path;
  } catch {
    return uri;
  }
}
