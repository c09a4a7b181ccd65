/**
 * Wires the RoPE Lens language server onto a connection (IPC from VS Code, stdio from any other
 * editor). Each feature lives in its own module; this file only routes messages to them and
 * keeps the shared state (documents, settings, analyses, bound oracle).
 */
import {
  CancellationToken,
  CodeActionKind,
  CodeActionTriggerKind,
  Connection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  InitializeParams,
  InitializeResult,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  BoundStatusParams,
  CheckAsModelConfigRequest,
  DescribeRequest,
  DescribeResult,
  FIX_ALL_KIND,
  InspectorDataRequest,
  InspectorFixRequest,
  PlanRequest,
  PlanWriteStageRequest,
} from '../shared/protocol/messages';
import { SETTINGS_SECTION } from '../shared/protocol/settings';
import { createRopeLensService, type RopeLensService } from '../shared/service/service';
import { recordingResolver } from '../shared/config/resolve';
import { HubFetcher } from './hub';
import { inspectorData, inspectorFix } from './inspector';
import { planForDocument, planWriteStage } from './plan';
import { AnalysisCache } from './documents';
import { CachedBoundOracle, BoundComputer } from './boundOracle';
import { SettingsStore, BoundBackend, normalizeSettings } from './settings';
import { Validator } from './validation';
import { codeActionsFor } from './codeActions';
import { hoverAt } from './hover';
import { PROJECT_FILE_NAME } from '../shared/service/projectConfig';
import { WATCHED_GLOBS } from '../shared/files/workspaceScans';
import { fileNameOf } from './uri';
import type { ShellParser } from '../shared/launch/types';
import { SERVING_SOURCE_KIND } from './servingActions';
import { inlayHintsFor, codeLensesFor } from './inlayHints';
import { describe } from './describe';
import { BoundProgress, withWorkDone } from './progress';
import { enUS } from '../shared/core/format';
import type { ClientSupport, ServerContext } from './context';
import type { ServerPlatform } from './platform';

export interface ServerOptions {
  /** Where the server runs: Node (server/nodePlatform.ts) or a browser worker (server/web/browserPlatform.ts). */
  platform: ServerPlatform;
  /** The bound engine for a backend; tests inject a double. */
  boundComputer?: (backend: BoundBackend) => BoundComputer;
  /** Observer for bound activity (tests); the client is told through `ropeLens/boundStatus` anyway. */
  onBoundStatus?: (s: BoundStatusParams) => void;
  /** Where swallowed errors go; default: the client's output channel (window/logMessage). */
  log?: (line: string) => void;
}

const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');

/** Documents that never hold a command line: no shell grammar is loaded for them. */
const JSON_OR_BINARY = /\.(jsonc?|gguf)$/i;

/** Rounds of "wait for the bound engine to go idle, re-analyse" before an explicit code-action answer. */
export const MAX_SETTLE_ROUNDS = 8;

/** Runs `fn` once the current turn's messages are handled (setImmediate where there is one: Node). */
const afterThisTurn: (fn: () => void) => void = typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0);

/** Lets a `$/cancelRequest` that arrived with the request be seen, then runs `fn` between two token checks. */
async function runSafe<T>(token: CancellationToken, fn: () => T | Promise<T>): Promise<T> {
  await new Promise((r) => setTimeout(r, 0));
  if (token.isCancellationRequested) throw cancelled();
  const result = await fn();
  if (token.isCancellationRequested) throw cancelled();
  return result;
}

export function startServer(connection: Connection, options: ServerOptions): ServerContext {
  const platform = options.platform;
  const documents = new TextDocuments(TextDocument);
  const log = options.log ?? ((line: string) => connection.console.error(line));
  const settings = new SettingsStore(connection, log);
  const makeComputer = options.boundComputer ?? platform.boundComputer;
  let backend: BoundBackend = 'auto';
  const support: ClientSupport = {
    pullDiagnostics: false,
    diagnosticRefresh: false,
    inlayHintRefresh: false,
    codeLensRefresh: false,
    workDoneProgress: false,
    documentChanges: false,
    configuration: false,
    dynamicConfiguration: false,
    relatedInformation: false,
  };
  const progress = new BoundProgress(connection, () => support.workDoneProgress);
  let settleQueued = false;
  const oracle: CachedBoundOracle = new CachedBoundOracle(
    makeComputer(backend),
    () => {
      // Several answers often land together: re-validate once for all of them.
      if (settleQueued) return;
      settleQueued = true;
      afterThisTurn(() => {
        settleQueued = false;
        validator.answersArrived(cache.waitingForBounds());
        if (support.inlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
        if (support.codeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
      });
    },
    (a) => {
      progress.update(a);
      options.onBoundStatus?.(a);
    },
  );
  // The one service of this window: the same resolver as the CLI (local folders, the HF cache, the
  // catalog), the window's bound oracle; settings come per document.
  // It records the Hub models it misses; the Hub fetcher asks, fetches and re-validates (server/hub.ts).
  const resolver = recordingResolver(platform.resolver);
  // Shell scripts need the tree-sitter grammar (WASM, loaded asynchronously): until it is in,
  // they read as nothing; once it is, every open document is checked again.
  let shell: ShellParser | undefined;
  // The project file (.rope-lens.yaml) is found from each document's path; when it changes on disk
  // (watched below, or after its short cache expires) every open document is checked again.
  const project = platform.project;
  const service: RopeLensService = createRopeLensService({
    oracle,
    resolver,
    log,
    shellParser: () => shell,
    workspace: platform.workspace,
    sourcedFiles: platform.sourcedFiles,
    project,
  });
  let clientAsksHub = false;
  const hub = new HubFetcher({
    connection,
    resolver,
    log,
    backend: platform.hub,
    settingsOf: (uri) => settings.get(uri),
    clientAsks: () => clientAsksHub,
    landed: () => {
      cache.clear();
      validator.revalidateAll();
    },
  });
  // Problems with suppression comments or a project file go to the output channel, once each.
  const saidProblems = new Set<string>();
  const cache = new AnalysisCache(service, oracle, (uri, fileName, analysis) => {
    hub.noticed(uri, fileName);
    for (const p of analysis.configProblems ?? []) {
      const line = p.line === undefined ? p.message : `${fileName}:${p.line + 1}: ${p.message}`;
      if (!saidProblems.has(line)) {
        saidProblems.add(line);
        log(line);
      }
    }
  });
  // The grammar (two WASM modules and their compiled code, several MB) loads with the first document
  // that can hold a command line: a workspace of JSON configs never pays for it.
  let shellAsked = false;
  const needShell = (uri: string) => {
    if (shellAsked || JSON_OR_BINARY.test(uri)) return;
    shellAsked = true;
    platform.loadShellParser().then(
      (p) => {
        shell = p;
        cache.clear();
        validator.revalidateAll();
      },
      (e) => {
        shellAsked = false;
        log(`the shell parser did not load; shell scripts are not checked: ${(e as Error)?.message ?? e}`);
      },
    );
  };
  const ctx: ServerContext = { connection, documents, settings, cache, oracle, service, docsBase: platform.docsBase(), support, hub };
  const validator = new Validator(ctx);
  // Workspace facts (pins, the project file, sourced scripts) are scanned off the request path: an
  // analysis answers with what has landed, and the documents whose lookups a scan served are
  // checked again when it lands or a rescan finds a change, as bound answers are.
  const scans = platform.scans;
  if (scans) {
    scans.log = log;
    const slashes = (p: string) => p.replace(/\\/g, '/');
    scans.openText = (path) => {
      const doc = documents.all().find((d) => slashes(fileNameOf(d.uri)) === slashes(path));
      return doc && { version: doc.version, text: doc.getText() };
    };
    scans.onSettled = (paths) => {
      const landed = new Set(paths);
      const uris = documents
        .all()
        .map((d) => d.uri)
        .filter((uri) => landed.has(fileNameOf(uri)));
      if (!uris.length) return;
      for (const uri of uris) cache.delete(uri);
      validator.answersArrived(uris);
      if (support.inlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
      if (support.codeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    };
  }
  // Files read through the client (the browser) arrive after the first check: check again.
  platform.attach?.(connection, () => {
    cache.clear();
    validator.revalidateAll();
  });
  const known = new Set<string>();
  let watchFiles = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    // The client's trace setting at 'verbose' lets the GPU library's own log lines through (shared/node/adapterProbe.ts).
    if (params.trace === 'verbose') platform.traceVerbose?.();
    const caps = params.capabilities ?? {};
    support.pullDiagnostics = !!caps.textDocument?.diagnostic;
    support.diagnosticRefresh = !!caps.workspace?.diagnostics?.refreshSupport;
    support.inlayHintRefresh = !!caps.workspace?.inlayHint?.refreshSupport;
    support.codeLensRefresh = !!caps.workspace?.codeLens?.refreshSupport;
    support.workDoneProgress = !!caps.window?.workDoneProgress;
    support.documentChanges = !!caps.workspace?.workspaceEdit?.documentChanges;
    support.createFiles = support.documentChanges && !!caps.workspace?.workspaceEdit?.resourceOperations?.includes('create');
    support.configuration = !!caps.workspace?.configuration;
    support.dynamicConfiguration = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    support.relatedInformation = !!caps.textDocument?.publishDiagnostics?.relatedInformation;
    watchFiles = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    settings.enablePull(support.configuration);
    const init = params.initializationOptions as { settings?: unknown; hubPermission?: boolean } | undefined;
    if (init?.settings !== undefined) settings.changed({ ropeLens: init.settings });
    clientAsksHub = init?.hubPermission === true;

    const result: InitializeResult = {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, SERVING_SOURCE_KIND], resolveProvider: false },
        inlayHintProvider: { resolveProvider: false },
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'rope-lens', version: '0.1.0' },
    };
    if (support.pullDiagnostics) {
      result.capabilities.diagnosticProvider = { identifier: 'rope-lens', interFileDependencies: false, workspaceDiagnostics: false };
    }
    return result;
  });

  connection.onInitialized(() => {
    if (support.dynamicConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'ropeLens' }).catch(() => undefined);
    }
    if (watchFiles) {
      // With scans, every file a folder scan reads is watched (sourced scripts, any name, are checked by version on use).
      const globs = scans ? WATCHED_GLOBS : [`**/${PROJECT_FILE_NAME}`];
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: globs.map((globPattern) => ({ globPattern })) })
        .catch(() => undefined);
    }
    void applyBackend();
  });

  /** The engine is process-wide: follow the window-level `ropeLens.bound.backend`. */
  async function applyBackend(): Promise<void> {
    let wanted: BoundBackend = settings.peek('').boundBackend;
    if (support.configuration) {
      const raw = await connection.workspace.getConfiguration(SETTINGS_SECTION).catch((e) => {
        log(`settings: ${(e as Error)?.message ?? e}`);
        return undefined;
      });
      wanted = normalizeSettings(raw).boundBackend;
    }
    if (wanted !== backend) {
      backend = wanted;
      oracle.setComputer(makeComputer(backend));
    }
  }

  /** A project file changed: suppressions, severities and ignored paths may differ for every document. */
  const projectChanged = () => {
    project.invalidate();
    cache.clear();
    validator.revalidateAll();
  };
  connection.onDidChangeWatchedFiles(({ changes }) => {
    // Scans: each changed entry is scanned again, and the documents that read it follow.
    if (scans) for (const c of changes) scans.touched(fileNameOf(c.uri));
    else if (changes.some((c) => c.uri.endsWith(`/${PROJECT_FILE_NAME}`))) projectChanged();
  });
  documents.onDidSave(({ document }) => {
    // Clients that do not watch files still save the project file through the editor.
    if (scans) scans.touched(fileNameOf(document.uri));
    else if (document.uri.endsWith(`/${PROJECT_FILE_NAME}`)) projectChanged();
  });

  connection.onDidChangeConfiguration((change) => {
    settings.changed(change.settings);
    hub.forget();
    cache.clear();
    void applyBackend();
    validator.revalidateAll();
    if (support.inlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
  });

  documents.onDidChangeContent(({ document }) => {
    needShell(document.uri);
    // An open neighbour (requirements.txt, a sourced script) is read from the editor: its dependents follow its edits.
    scans?.touched(fileNameOf(document.uri));
    const first = !known.has(document.uri);
    known.add(document.uri);
    // The first version is checked at once; typing is debounced.
    validator.schedule(document.uri, first);
  });
  documents.onDidClose(({ document }) => {
    // Its lookups no longer matter; as a neighbour, the disk's copy counts again.
    scans?.forget(fileNameOf(document.uri));
    scans?.touched(fileNameOf(document.uri));
    known.delete(document.uri);
    validator.closed(document.uri);
    cache.delete(document.uri);
    settings.forget(document.uri);
  });

  connection.languages.diagnostics.on((params, token) => validator.pull(params, token));

  /** The current analysis of an open document, or undefined. */
  async function analysisOf(uri: string) {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const s = await settings.get(uri);
    const current = documents.get(uri) ?? doc;
    return { doc: current, settings: s, analysis: cache.get(current, s) };
  }

  connection.onHover((params, token) =>
    runSafe(token, async () => {
      const a = await analysisOf(params.textDocument.uri);
      return a ? hoverAt(a.doc, a.analysis, params.position, oracle, a.settings.transformersVersion) : null;
    }),
  );

  connection.onCodeAction((params, token) =>
    runSafe(token, async () => {
      let a = await analysisOf(params.textDocument.uri);
      // An explicit Ctrl+. (or fix-all) answers once the bound findings' fixes exist, instead of
      // "no code actions" while the worker is still computing; the lightbulb's automatic requests
      // answer at once. Each round waits for the engine to go idle; a few rounds cover the follow-up
      // questions an answer raises (b* after L_max, the fixes' own checks).
      const explicit = params.context.triggerKind === CodeActionTriggerKind.Invoked || (params.context.only ?? []).some((k) => FIX_ALL_KIND.startsWith(k));
      for (let round = 0; explicit && a && a.analysis.pendingBounds.length > 0 && oracle.pending > 0 && round < MAX_SETTLE_ROUNDS; round++) {
        await oracle.idle();
        if (token.isCancellationRequested) throw cancelled();
        a = await analysisOf(params.textDocument.uri);
      }
      return a ? codeActionsFor(a.doc, a.analysis, params, a.settings, support, ctx.docsBase) : [];
    }),
  );

  connection.languages.inlayHint.on((params, token) =>
    runSafe(token, async () => {
      const a = await analysisOf(params.textDocument.uri);
      if (!a || a.settings.hints !== 'inlay') return [];
      return inlayHintsFor(a.doc, a.analysis, oracle, a.settings.transformersVersion);
    }),
  );

  connection.onCodeLens((params, token) =>
    runSafe(token, async () => {
      const a = await analysisOf(params.textDocument.uri);
      if (!a || a.settings.hints !== 'codeLens') return [];
      return codeLensesFor(a.doc, a.analysis, oracle, a.settings.transformersVersion);
    }),
  );

  connection.onRequest(DescribeRequest, async (params, token): Promise<DescribeResult | null> => {
    if (!params || typeof params.uri !== 'string') throw new ResponseError(-32602, 'describe: params.uri must be a string');
    return runSafe(token, async () => {
      let a = await analysisOf(params.uri);
      // Complete answers: first the workspace scans the analysis read before they landed.
      for (let round = 0; scans && a && params.waitForBounds && a.analysis.pendingScans?.length && round < MAX_SETTLE_ROUNDS; round++) {
        await scans.idle();
        if (token.isCancellationRequested) throw cancelled();
        a = await analysisOf(params.uri);
      }
      // Keep answering "not yet" until the analysis has every bound it asked for.
      while (a && params.waitForBounds && (a.analysis.pendingBounds.length > 0 || oracle.pending > 0)) {
        await oracle.idle();
        if (token.isCancellationRequested) throw cancelled();
        a = await analysisOf(params.uri);
        if (a && a.analysis.pendingBounds.length > 0 && oracle.pending === 0) break; // failed bounds: answer as is
      }
      if (!a) return null;
      if (params.waitForBounds && a.analysis.rope) {
        // The describe numbers themselves (b*, threshold, L_max of the document's own setup).
        const r = a.analysis.rope;
        oracle.bstar(r.contextLength.value, r.rotaryDim.value);
        oracle.threshold(r.contextLength.value, r.rotaryDim.value);
        oracle.lmax(r.base.value, r.rotaryDim.value, r.contextLength.value);
        await oracle.idle();
        if (token.isCancellationRequested) throw cancelled();
      }
      return describe(a.doc, a.analysis, oracle, a.settings.transformersVersion);
    });
  });

  connection.onRequest(CheckAsModelConfigRequest, async (params) => {
    if (!params || typeof params.uri !== 'string') throw new ResponseError(-32602, 'checkAsModelConfig: params.uri must be a string');
    cache.force(params.uri);
    validator.schedule(params.uri, true);
    const a = await analysisOf(params.uri);
    return { kind: a?.analysis.kind ?? 'other', findings: a?.analysis.diagnostics.length ?? 0 };
  });

  connection.onRequest(InspectorDataRequest, async (params, token) => {
    if (!params || typeof params.uri !== 'string') throw new ResponseError(-32602, 'inspector/data: params.uri must be a string');
    const a = await analysisOf(params.uri);
    if (!a) return { ok: false, message: `${params.uri} is not open` };
    const r = await inspectorData(a.doc, params, service, oracle, a.settings);
    if (token.isCancellationRequested) throw cancelled();
    return r;
  });

  connection.onRequest(InspectorFixRequest, async (params) => {
    if (!params || typeof params.uri !== 'string') throw new ResponseError(-32602, 'inspector/fix: params.uri must be a string');
    const a = await analysisOf(params.uri);
    if (!a) return { ok: false, message: `${params.uri} is not open` };
    return inspectorFix(a.doc, params, service, a.settings);
  });

  connection.onRequest(PlanRequest, async (params, token) => {
    if (!params || typeof params.uri !== 'string') throw new ResponseError(-32602, 'plan: params.uri must be a string');
    const plan = () =>
      runSafe(token, () => {
        const doc = documents.get(params.uri);
        return doc ? planForDocument(doc, params, service, platform.files) : { ok: false as const, message: `${params.uri} is not open` };
      });
    // Only a request with a target builds a plan (and proves its robust bases); the defaults are instant.
    if (typeof params.target !== 'number' || !documents.get(params.uri)) return plan();
    return withWorkDone(connection, support.workDoneProgress, `planning ${enUS(params.target)} tokens: proving robust bases`, plan);
  });

  connection.onRequest(PlanWriteStageRequest, async (params, token) => {
    if (!params || typeof params.uri !== 'string') throw new ResponseError(-32602, 'plan/writeStage: params.uri must be a string');
    return runSafe(token, () => {
      const doc = documents.get(params.uri);
      return doc ? planWriteStage(doc, params, service, platform.files) : { ok: false as const, message: `${params.uri} is not open` };
    });
  });

  connection.onShutdown(async () => {
    for (const doc of documents.all()) validator.cancel(doc.uri);
    await oracle.dispose();
  });

  documents.listen(connection);
  connection.listen();
  return ctx;
}
