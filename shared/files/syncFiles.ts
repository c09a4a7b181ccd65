/**
 * Workspace files read synchronously by the analysis, wherever they come from: the browser
 * worker's copy of what the client read through `vscode.workspace.fs` (server/web/clientFiles.ts).
 * The pure sources below (pins, project file, sourced scripts) climb folders the way the Node ones
 * in shared/node/ do with `fs`, so both front-ends find the same files.
 */
import type { FileReader } from '../config/resolve';

export interface SyncFiles extends FileReader {
  /** Whether `name` is an entry of folder `dir` (`.git`, to stop climbing at a repository's root). */
  hasEntry(dir: string, name: string): boolean;
}
