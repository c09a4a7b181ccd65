/**
 * `rope-lens lsp [--stdio]`: the language server on stdin/stdout, for Neovim, Emacs, Helix and
 * any other LSP client. (`node dist/server.js --stdio` is the same server.)
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { CliIO, parseCliArgs } from './io';
import { startServer } from '../languageServer';
import { connectionOptions } from '../connectionOptions';
import { nodePlatform } from '../nodePlatform';

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCliArgs({
    args: argv,
    options: { stdio: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, clientProcessId: { type: 'string' } },
    strict: true,
  });
  if (values.help) {
    io.out('usage: rope-lens lsp [--stdio]\n\nServes the RoPE Lens language server over stdin/stdout (stdio is the default and only transport here).');
    return 0;
  }
  // Let the library pick stdio from argv: only then does it also route console.log to the client
  // instead of letting it corrupt the JSON-RPC stream on stdout.
  if (!process.argv.includes('--stdio')) process.argv.push('--stdio');
  const connection = createConnection(ProposedFeatures.all, connectionOptions);
  startServer(connection, { platform: nodePlatform() });
  // The connection owns the process from here: it exits on the client's `exit` notification or when stdin closes.
  return new Promise<number>(() => {});
}
