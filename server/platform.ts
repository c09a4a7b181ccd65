/**
 * What the language server needs from where it runs. The server core (languageServer.ts) is the
 * same on the desktop (a Node process, server/nodePlatform.ts) and in the browser (a web worker,
 * server/web/browserPlatform.ts); only these differ: how files are read, how the shell grammar
 * loads, where bounds are computed, where the rule pages live and how the Hub is reached.
 */
import type { BaseModelResolver, FileReader } from '../shared/config/resolve';
import type { ShellParser, SourcedFile } from '../shared/launch/types';
import type { WorkspaceFacts } from '../shared/service/types';
import type { ProjectConfigSource } from '../shared/service/projectConfig';
import type { HubResult, HubSettings } from '../shared/node/hubFetch';
import type { WorkspaceScans } from '../shared/files/workspaceScans';
import type { BoundComputer } from './boundOracle';
import type { BoundBackend } from './settings';

/** Fetches base models' configs from the Hugging Face Hub into wherever the resolver reads them. */
export interface HubBackend {
  settings(): HubSettings;
  fetchModels(refs: readonly string[], s: HubSettings, log: (line: string) => void): Promise<HubResult[]>;
  /** One line on where a model came from. */
  describe(r: HubResult): string;
}

export interface ServerPlatform {
  /** Files the planner reads (a training YAML's base model folder). */
  files: FileReader;
  /** Base models: local folders, the HF cache where there is one, the catalog. */
  resolver: BaseModelResolver;
  /** Consumer pins in requirements and lock files near a config. */
  workspace: WorkspaceFacts;
  /** Files a shell script sources. */
  sourcedFiles: (scriptPath: string, name: string) => SourcedFile | undefined;
  /** `.rope-lens.yaml` lookup; `invalidate()` when the file changed. */
  project: ProjectConfigSource & { invalidate(): void };
  /**
   * Where `workspace`, `project` and `sourcedFiles` come from when they are scanned off the request
   * path (Node): the server tells it the editor's copies and changed files, and hears what landed.
   * Absent in the browser, whose files come through the client (`attach`).
   */
  scans?: WorkspaceScans;
  /** The shell grammar (tree-sitter's wasm), loaded once. */
  loadShellParser(): Promise<ShellParser>;
  /** The bound engine for a backend setting. */
  boundComputer(backend: BoundBackend): BoundComputer;
  /** Base URI of the rule pages (`<base>/<code>.md`). */
  docsBase(): string;
  /** Absent: the Hub is not reachable from this platform (said once in the log). */
  hub?: HubBackend;
  /**
   * Called once the server has a connection, so a platform whose files come from the client
   * (the browser) can ask for them; `changed` re-checks the open documents when files arrive.
   */
  /** The client asked for a verbose trace: native libraries' own log lines may show (Node only). */
  traceVerbose?(): void;
  attach?(connection: import('vscode-languageserver').Connection, changed: () => void): void;
}
