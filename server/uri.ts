/** File names for analysis and messages, from document URIs of any scheme. */
import { fileURLToPath } from 'node:url';

/** The file-system path of a `file:` URI; for other schemes (untitled:, vscode-remote:) the decoded path part. */
export function fileNameOf(uri: string): string {
  try {
    if (uri.startsWith('file:')) return fileURLToPath(uri);
    const u = new URL(uri);
    return decodeURIComponent(u.pathname) || uri;
  } catch {
    return uri;
  }
}
