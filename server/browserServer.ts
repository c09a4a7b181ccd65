/**
 * dist/web/server.js: the language server in a browser web worker, started by the web extension
 * (client/browserExtension.ts). The same server core and service as dist/server.js; only the
 * platform differs (server/web/browserPlatform.ts). Messages come and go through the worker's
 * postMessage/onmessage.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { startServer } from './languageServer';
import { browserPlatform } from './web/browserPlatform';

// The worker's global scope (typed as a MessagePort: the same postMessage/onmessage pair; lib.webworker is not in this tsconfig).
const scope = globalThis as unknown as MessagePort & { location: { href: string } };
const connection = createConnection(new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
const log = (line: string) => connection.console.error(line);
startServer(connection, { platform: browserPlatform(new URL(scope.location.href), log), log });
