/**
 * Node only: reads a GGUF file's header metadata with @huggingface/gguf, which reads a local file
 * in 2 MB chunks until the metadata and tensor infos are parsed and never touches tensor data, so
 * a multi-GB file costs the same as a small one. Kept apart from metadata.ts so the pure core and
 * the webview bundle never import `fs`.
 */
import { gguf } from '@huggingface/gguf';
import { openSync, readSync, closeSync } from 'node:fs';
import type { GgufMetadata } from '../gguf/metadata';

/** True when the file starts with the GGUF magic (whatever its extension). */
export function isGgufFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const b = Buffer.alloc(4);
    return readSync(fd, b, 0, 4, 0) === 4 && b.toString('latin1') === 'GGUF';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The header metadata (keys → values; uint64 as bigint). Throws with a readable message on a malformed file. */
export async function readGgufMetadata(path: string): Promise<GgufMetadata> {
  try {
    const { metadata } = await gguf(path, { allowLocalFile: true });
    return metadata as unknown as GgufMetadata;
  } catch (e) {
    throw new Error(`not a readable GGUF file: ${(e as Error).message}`);
  }
}
