/**
 * Tells the user a bound is computing: LSP work-done progress (server-initiated, when the client
 * supports it) plus the `ropeLens/boundStatus` notification the VS Code status-bar item listens to.
 */
import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver';
import { BoundStatusNotification, BoundStatusParams } from '../shared/protocol/messages';
import type { BoundActivity } from './boundOracle';

export class BoundProgress {
  private reporter: Promise<WorkDoneProgressServerReporter | undefined> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly workDoneProgress: () => boolean,
  ) {}

  update(a: BoundActivity): void {
    // Fractions only move the work-done bar; the status item changes when the queue does.
    if (a.fraction === undefined) {
      const status: BoundStatusParams = { pending: a.pending, label: a.label };
      void this.connection.sendNotification(BoundStatusNotification, status).catch(() => undefined);
    }
    if (!this.workDoneProgress()) return;
    if (a.pending > 0 && !this.reporter) {
      this.reporter = this.connection.window.createWorkDoneProgress().then(
        // Begun with a percentage so that clients honour the fractions b* jobs report later.
        (r) => {
          r.begin('RoPE Lens', 0, `computing ${a.label ?? 'bounds'}`, false);
          return r;
        },
        () => undefined,
      );
    } else if (a.pending > 0 && this.reporter) {
      const message = `computing ${a.label ?? 'bounds'} (${a.pending} queued)`;
      const percent = a.fraction === undefined ? undefined : Math.max(0, Math.min(100, Math.floor(100 * a.fraction)));
      void this.reporter.then((r) => (percent === undefined ? r?.report(message) : r?.report(percent, message)));
    } else if (a.pending === 0 && this.reporter) {
      const r = this.reporter;
      this.reporter = undefined;
      void r.then((x) => x?.done());
    }
  }
}

/** How long a plan waits for the client to accept its work-done progress. */
const CREATE_WAIT_MS = 1000;

/**
 * Runs work that blocks this thread (a plan proving robust bases, ~2 s a candidate at 131,072 tokens)
 * inside a work-done progress that is begun, and written out, before the work starts: a client that
 * supports it shows the spinner for as long as the server cannot answer. Without support, just the work.
 */
export async function withWorkDone<T>(connection: Connection, supported: boolean, message: string, work: () => Promise<T>): Promise<T> {
  // A client that never answers the create request must not hold the plan back: after a second, no progress.
  const reporter = supported
    ? await Promise.race([connection.window.createWorkDoneProgress().catch(() => undefined), new Promise<undefined>((r) => setTimeout(r, CREATE_WAIT_MS))])
    : undefined;
  if (!reporter) return work();
  reporter.begin('RoPE Lens', undefined, message, false);
  // The begin is queued on the connection's writer; give it a turn to reach the client before blocking.
  await new Promise((r) => setTimeout(r, 0));
  try {
    return await work();
  } finally {
    reporter.done();
  }
}
