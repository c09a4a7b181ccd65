/**
 * The language server in this process, over in-memory streams, with a bound engine whose answers
 * the test releases (deterministic: counters and explicit releases, no timers), and a minimal
 * client that answers `workspace/configuration` from `settings`.
 */
import { PassThrough } from 'node:stream';
import { createConnection } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  ConfigurationRequest,
  RegistrationRequest,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  DidOpenTextDocumentNotification,
  DidChangeConfigurationNotification,
  ClientCapabilities,
  WorkDoneProgressCreateRequest,
  InlayHintRefreshRequest,
} from 'vscode-languageserver-protocol/node';
import { startServer } from '../../../server/languageServer';
import { nodePlatform } from '../../../server/nodePlatform';
import type { BoundComputer } from '../../../server/boundOracle';
import type { ServerPlatform } from '../../../server/platform';
import { bstar, lmax, robustNeighbourhood, threshold } from '../../../shared/bstar/index';

/** Answers computed synchronously but handed back only when the test calls `release()`. */
export class GatedComputer implements BoundComputer {
  asked = 0;
  private waiting: (() => void)[] = [];
  private gate<T>(f: () => T): Promise<T> {
    this.asked++;
    return new Promise<T>((resolve) => this.waiting.push(() => resolve(f())));
  }
  bstar(length: number, headDim: number) {
    return this.gate(() => bstar(length, headDim).bstar);
  }
  threshold(length: number, headDim: number) {
    return this.gate(() => threshold(length, headDim).threshold);
  }
  lmax(base: number, headDim: number, length: number) {
    return this.gate(() => lmax(base, headDim, length));
  }
  robust(candidate: number, headDim: number, length: number) {
    return this.gate(() => {
      const v = robustNeighbourhood(candidate, headDim, length);
      return v.robust ? null : v.witness.base;
    });
  }
  get queued(): number {
    return this.waiting.length;
  }
  /** Answers every question asked so far; returns how many. */
  release(): number {
    const w = this.waiting;
    this.waiting = [];
    w.forEach((f) => f());
    return w.length;
  }
}

export interface InProcess {
  client: ProtocolConnection;
  computer: GatedComputer;
  settings: Record<string, unknown>;
  published: PublishDiagnosticsParams[];
  logs: string[];
  open(uri: string, text: string, languageId?: string): Promise<void>;
  setSettings(s: Record<string, unknown>): Promise<void>;
  /** Releases bound answers until `done` resolves (each round lets the server ask its next questions). */
  settle<T>(done: Promise<T>, maxRounds?: number): Promise<T>;
  dispose(): void;
}

const CAPABILITIES: ClientCapabilities = {
  workspace: { configuration: true, workspaceEdit: { documentChanges: true } },
  textDocument: {
    publishDiagnostics: { relatedInformation: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source.fixAll'] } }, isPreferredSupport: true },
    hover: { contentFormat: ['markdown'] },
  },
};

/** `platform`: where the server runs (default: Node's, with real workspace scans). */
export async function startInProcess(settings: Record<string, unknown> = {}, platform: ServerPlatform = nodePlatform()): Promise<InProcess> {
  const toServer = new PassThrough(),
    toClient = new PassThrough();
  const computer = new GatedComputer();
  const logs: string[] = [];
  const serverConn = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(serverConn, { platform, boundComputer: () => computer, log: (l) => logs.push(l) });
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const published: PublishDiagnosticsParams[] = [];
  const h: InProcess = {
    client,
    computer,
    settings,
    published,
    logs,
    async open(uri, text, languageId = 'json') {
      await client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    },
    async setSettings(s) {
      h.settings = s;
      await client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    },
    async settle(done, maxRounds = 50) {
      let finished = false;
      const result = done.finally(() => {
        finished = true;
      });
      for (let round = 0; round < maxRounds && !finished; round++) {
        // Let the server run its queued work (analysis, new questions), then answer what it asked.
        await new Promise((r) => setTimeout(r, 5));
        computer.release();
      }
      return result;
    },
    dispose() {
      client.dispose();
      serverConn.dispose();
      toServer.destroy();
      toClient.destroy();
    },
  };
  client.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'ropeLens' ? h.settings : null)));
  client.onRequest(RegistrationRequest.type, () => null);
  client.onRequest(WorkDoneProgressCreateRequest.type, () => null);
  client.onRequest(InlayHintRefreshRequest.type, () => null);
  client.onRequest('workspace/codeLens/refresh', () => null);
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
  });
  client.onNotification('window/logMessage', (m: { message: string }) => {
    logs.push(m.message);
  });
  client.listen();
  await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, workspaceFolders: null, capabilities: CAPABILITIES });
  await client.sendNotification(InitializedNotification.type, {});
  return h;
}
