import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Output channels and exit codes shared by every CLI command. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** A transient status line (progress of a long computation); '' clears it. Absent where nobody watches (stderr not a TTY). */
  status?(text: string): void;
}

// A closed pipe (`rope-lens … | head`) is a normal way for a reader to stop: exit quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
}

/** A status writer on `stream` when it is a terminal (carriage return + erase line, then the text); undefined elsewhere. */
export function ttyStatus(stream: { isTTY?: boolean; write(text: string): unknown }): ((text: string) => void) | undefined {
  return stream.isTTY ? (t) => void stream.write(`\r\x1b[K${t}`) : undefined;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  // Rewrites one stderr line in place (carriage return + erase line), only on a terminal.
  status: ttyStatus(process.stderr),
};

/** 0: clean; 1: findings of error severity; 2: usage error or unreadable input. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** A usage or input problem that the CLI reports as one line on stderr with exit code 2. */
export class UsageError extends Error {}

/**
 * node's parseArgs, with its errors turned into the CLI's UsageError: the message, then `usage`
 * on the next line (or after a space with `oneLine`, for commands that promise one stderr line).
 */
export function parseCliArgs<T extends ParseArgsConfig>(config: T, usage?: string, opts: { oneLine?: boolean } = {}): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const message = (e as Error).message;
    if (usage === undefined) throw new UsageError(message);
    throw new UsageError(opts.oneLine ? `${message.split('\n')[0]} ${usage}` : `${message}\n${usage}`);
  }
}
