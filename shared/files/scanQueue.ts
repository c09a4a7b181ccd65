/**
 * The workspace scans' scheduler (workspaceScans.ts): one job per key (a folder, a file) in flight,
 * a few at once and the rest queued, a job superseded by a change while it runs (it stops at its
 * next await and runs again), and the readers a batch of jobs brought news for told together, once
 * the queue goes idle or SETTLE_MS after the first news, so a climb of several folders re-checks a
 * document once.
 */

/** A running job: it checks `cancelled` after each await and stops, storing nothing. */
export interface ScanJob {
  cancelled: boolean;
}

/** News of a batch is told when the queue goes idle, or after this long at most. */
const SETTLE_MS = 50;

export class ScanQueue {
  private readonly jobs = new Map<string, ScanJob>();
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  /** Keys whose running job was superseded: run again once it stops. */
  private readonly again = new Set<string>();
  private readonly news = new Set<string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private idleWaiters: (() => void)[] = [];
  /** Hears the readers a batch of jobs brought news for. */
  onSettled: (readers: string[]) => void = () => undefined;

  constructor(
    private readonly run: (key: string, job: ScanJob) => Promise<void>,
    private readonly maxConcurrent: number,
    private readonly log: () => (line: string) => void,
  ) {}

  /** Runs the job for `key` unless it runs or waits already; `supersede` stops a running one and runs it again. */
  want(key: string, supersede = false): void {
    const running = this.jobs.get(key);
    if (running) {
      if (supersede) {
        running.cancelled = true;
        this.again.add(key);
      }
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  busy(key: string): boolean {
    return this.jobs.has(key) || this.queued.has(key);
  }

  /** Jobs running or waiting. */
  get pending(): number {
    return this.jobs.size + this.queue.length;
  }

  /** A job found something new for these readers: they are told with the rest of the batch. */
  tell(readers: Iterable<string>): void {
    for (const r of readers) this.news.add(r);
  }

  /** Resolves once no job runs or waits and all news has been told. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.jobs.size < this.maxConcurrent && this.queue.length) {
      const key = this.queue.shift()!;
      this.queued.delete(key);
      const job: ScanJob = { cancelled: false };
      this.jobs.set(key, job);
      this.run(key, job)
        .catch((e) => this.log()(`scanning ${key.slice(key.indexOf(':') + 1)} failed: ${(e as Error)?.message ?? e}`))
        .finally(() => {
          this.jobs.delete(key);
          if (this.again.delete(key)) this.want(key);
          this.pump();
          this.settleSoon();
        });
    }
  }

  private isIdle(): boolean {
    return this.jobs.size === 0 && this.queue.length === 0 && this.news.size === 0;
  }

  private settleSoon(): void {
    if (this.news.size === 0) {
      if (this.isIdle()) this.wakeIdle();
      return;
    }
    if (this.jobs.size === 0 && this.queue.length === 0) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      // Told once the job's own callbacks are done (a microtask), not in the middle of them.
      void Promise.resolve().then(() => this.flush());
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, SETTLE_MS);
  }

  private flush(): void {
    if (this.news.size === 0) return;
    const readers = [...this.news];
    this.news.clear();
    try {
      this.onSettled(readers);
    } finally {
      if (this.isIdle()) this.wakeIdle();
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((w) => w());
  }
}
