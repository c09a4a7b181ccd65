/**
 * dist/web/server.js: the language server in a browser web worker, started by the web extension
 * (client/browserExtension.ts). The same server core and service as dist/server.js; only the
 * platform differs (server/web/browserPlatform.ts). Messages come and go through the worker's
 * postMessage/onmessage.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { startServer } from './languageServer';
import { browserPlatform } from './web/browserPlatform';
import { WEB_ASSETS_GLOBAL } from '../shared/protocol/files';

// The worker's global scope (typed as a MessagePort: the same postMessage/onmessage pair; lib.webworker is not in this tsconfig).
const scope = globalThis as unknown as MessagePort & { location?: { href: string }; [WEB_ASSETS_GLOBAL]?: Record<string, string> };
// VS Code's web extension host starts workers from a blob that imports this script, so the
// worker's location is not this bundle's: the client names where each shipped file is served.
const named = scope[WEB_ASSETS_GLOBAL];
const assetUrl = (name: string) => {
  const base = scope.location?.href;
  if (!named?.[name] && !base) throw new Error(`no URL for ${name}: the worker has no location and the client named none`);
  return new URL(named?.[name] ?? name, base);
};
const connection = createConnection(new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
const log = (line: string) => connection.console.error(line);
startServer(connection, { platform: browserPlatform(assetUrl, log), log });
