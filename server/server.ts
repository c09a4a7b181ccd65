/**
 * dist/server.js: the language server process. `createConnection` picks the transport from the
 * command line (`--node-ipc` from the VS Code extension, `--stdio` from other editors).
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './languageServer';
import { connectionOptions } from './connectionOptions';
import { nodePlatform } from './nodePlatform';

startServer(createConnection(ProposedFeatures.all, connectionOptions), { platform: nodePlatform() });
