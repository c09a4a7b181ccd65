/** What every server feature module needs: the connection, documents, settings, analyses. */
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalysisCache } from './documents';
import type { CachedBoundOracle } from './boundOracle';
import type { SettingsStore } from './settings';
import type { RopeLensService } from '../shared/service/service';
import type { HubFetcher } from './hub';

export interface ClientSupport {
  /** textDocument/diagnostic (pull) instead of publishDiagnostics (push). */
  pullDiagnostics: boolean;
  diagnosticRefresh: boolean;
  inlayHintRefresh: boolean;
  codeLensRefresh: boolean;
  workDoneProgress: boolean;
  /** Versioned `documentChanges` in workspace edits (rejected by the client when stale). */
  documentChanges: boolean;
  /** CreateFile resource operations in workspace edits (the serving source actions write new files). */
  createFiles?: boolean;
  configuration: boolean;
  dynamicConfiguration: boolean;
  relatedInformation: boolean;
}

export interface ServerContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  settings: SettingsStore;
  cache: AnalysisCache;
  oracle: CachedBoundOracle;
  /** The analysis service every feature reads through. */
  service: RopeLensService;
  docsBase: string;
  support: ClientSupport;
  /** Fetches base models missed offline from the Hub (per ropeLens.hub.allowNetwork). */
  hub?: HubFetcher;
}
