/**
 * Node's file system for the language server's workspace scans (shared/files/workspaceScans.ts):
 * fs.promises only, so a slow disk or network share delays a scan, never a request. A file is read
 * through one handle, and not at all when it is over the cap by then (it may have grown since its stat).
 */
import { promises as fs } from 'node:fs';
import type { AsyncFiles } from '../files/workspaceScans';

export const nodeAsyncFiles: AsyncFiles = {
  async stat(path) {
    try {
      const st = await fs.stat(path);
      return { isFile: st.isFile(), mtimeMs: st.mtimeMs, size: st.size };
    } catch {
      return undefined;
    }
  },
  async readDir(path) {
    try {
      return await fs.readdir(path);
    } catch {
      return undefined;
    }
  },
  async readText(path, maxBytes) {
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(path, 'r');
      const { size } = await handle.stat();
      if (size > maxBytes) return undefined;
      const buffer = Buffer.alloc(size);
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.toString('utf8', 0, filled);
    } catch {
      return undefined;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  },
};
