/**
 * dist/web/bstarWorker.js: the browser server's b* worker, started by the server's own worker so
 * that a long sweep never blocks diagnostics. Neighbourhood proofs are screened on `navigator.gpu`
 * where the backend setting and the adapter allow (boundJobs.ts). One job at a time; a job is cancelled by ending the
 * worker (boundComputer.ts starts a fresh one for the next question).
 */
import { type BoundJob, type BoundJobMessage, runBoundJobWithGpu } from './boundJobs';
import { type BrowserGpu, openBrowserGpu } from './browserGpu';

const scope = globalThis as unknown as { postMessage(m: BoundJobMessage): void; onmessage: ((e: { data: { id: number; job: BoundJob } }) => void) | null };
const never = { aborted: false };
/** The browser's GPU, opened on the first job that may use it, for the worker's lifetime. */
let gpu: Promise<BrowserGpu> | undefined;
/** Each log line once per worker: every proof would say the same. */
const said = new Set<string>();

async function handle({ id, job }: { id: number; job: BoundJob }): Promise<void> {
  let last = 0;
  const log = (line: string) => {
    if (said.has(line)) return;
    said.add(line);
    scope.postMessage({ id, type: 'log', line });
  };
  try {
    const value = await runBoundJobWithGpu(
      job,
      never,
      () => (gpu ??= openBrowserGpu()),
      log,
      (fraction) => {
        const now = Date.now();
        if (now - last > 50 || fraction >= 1) {
          last = now;
          scope.postMessage({ id, type: 'progress', fraction });
        }
      },
    );
    scope.postMessage({ id, type: 'result', value });
  } catch (e) {
    scope.postMessage({ id, type: 'error', message: (e as Error)?.message ?? String(e) });
  }
}

// One job at a time, in order: a proof awaiting the GPU must not interleave with the next one (they share the device's buffers).
let queue = Promise.resolve();
scope.onmessage = ({ data }) => {
  queue = queue.then(() => handle(data));
};
