/** JSON-RPC options shared by both entry points. */
import { ConnectionOptions, LSPErrorCodes, Message, ResponseMessage } from 'vscode-languageserver/node';

/** Requests whose answer is useless once the client has moved on; cancelled before they run. */
const CANCELLABLE = new Set(['textDocument/hover', 'textDocument/codeAction', 'textDocument/inlayHint', 'textDocument/codeLens', 'textDocument/diagnostic']);

export const connectionOptions: ConnectionOptions = {
  connectionStrategy: {
    cancelUndispatched: (message: Message): ResponseMessage | undefined => {
      const m = message as { id?: number | string; method?: string };
      if (m.id === undefined || m.id === null || !m.method || !CANCELLABLE.has(m.method)) return undefined;
      return { jsonrpc: '2.0', id: m.id, error: { code: LSPErrorCodes.RequestCancelled, message: 'request cancelled' } };
    },
  },
};
