/**
 * dist/web/bstarWorker.js: the browser server's b* worker, started by the server's own worker so
 * that a long sweep never blocks diagnostics. One job at a time; a job is cancelled by ending the
 * worker (boundComputer.ts starts a fresh one for the next question).
 */
import { type BoundJob, type BoundJobMessage, runBoundJob } from './boundJobs';

const scope = globalThis as unknown as { postMessage(m: BoundJobMessage): void; onmessage: ((e: { data: { id: number; job: BoundJob } }) => void) | null };
const never = { aborted: false };

scope.onmessage = ({ data: { id, job } }) => {
  let last = 0;
  try {
    const value = runBoundJob(job, never, (fraction) => {
      const now = Date.now();
      if (now - last > 50 || fraction >= 1) {
        last = now;
        scope.postMessage({ id, type: 'progress', fraction });
      }
    });
    scope.postMessage({ id, type: 'result', value });
  } catch (e) {
    scope.postMessage({ id, type: 'error', message: (e as Error)?.message ?? String(e) });
  }
};
