/** Output channels and exit codes shared by every CLI command. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

// A closed pipe (`rope-lens … | head`) is a normal way for a reader to stop: exit quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
};

/** 0: clean; 1: findings of error severity; 2: usage error or unreadable input. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** A usage or input problem that the CLI reports as one line on stderr with exit code 2. */
export class UsageError extends Error {}
