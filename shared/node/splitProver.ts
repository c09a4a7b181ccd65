/**
 * Neighbourhood proofs split into parts over a pool of worker threads, for asynchronous callers that
 * share the pool (the sharded table job: one caller per rotary dim). Each proof's blocks of m are
 * dealt to `parts` parts (bstar/neighbourhood.ts `part`, the same split as parallelProof.ts), the parts
 * wait in one queue ordered by the caller's priority, and mergeProofParts gives the verdict the
 * single-threaded proof gives (same witness). Unlike parallelProver, nobody blocks: a free thread
 * takes the most urgent part, so a long proof of the first dim fills every core and the others fill
 * the gaps between its proofs. Parts are not pre-empted, so a long part of a later dim would hold a
 * thread the first dim's next proof needs: `laterCap` bounds how many threads parts of priority > 0
 * may hold at once (lifted with setLaterCap when the first dim is done).
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { mergeProofParts, type NeighbourhoodVerdict } from '../bstar/neighbourhood';
import type { ProofPartTask } from './proofWorker';

interface QueuedPart {
  priority: number;
  seq: number;
  task: Omit<ProofPartTask, 'port'>;
  settle: (r: { ok: true; verdict: NeighbourhoodVerdict } | { ok: false; message: string }) => void;
}

export interface PartPool {
  /** Proves candidate's ±10% at (headDim, length) in `parts` parts; lower priority numbers run first. */
  prove(candidate: number, headDim: number, length: number, o: { parts: number; priority: number }): Promise<NeighbourhoodVerdict>;
  /** Parts waiting for a thread (a progress figure). */
  waiting(): number;
  /** At most this many threads for parts of priority > 0 (default: every thread). */
  setLaterCap(n: number): void;
  close(): Promise<void>;
}

/** A pool of `threads` proof workers (script: the bundled shared/node/proofWorker.ts). */
export function partPool(script: string, threads: number, laterCap = threads): PartPool {
  const idle: Worker[] = [];
  let cap = laterCap;
  let laterBusy = 0;
  const all: Worker[] = [];
  const queue: QueuedPart[] = [];
  let seq = 0;
  for (let i = 0; i < Math.max(1, threads); i++) {
    const w = new Worker(script);
    all.push(w);
    idle.push(w);
  }
  const pump = () => {
    while (idle.length > 0) {
      const at = queue.findIndex((q) => q.priority <= 0 || laterBusy < cap);
      if (at < 0) return;
      const job = queue.splice(at, 1)[0];
      const later = job.priority > 0;
      if (later) laterBusy++;
      const w = idle.pop()!;
      const { port1, port2 } = new MessageChannel();
      port1.once('message', (reply) => {
        port1.close();
        idle.push(w);
        if (later) laterBusy--;
        job.settle(reply);
        pump();
      });
      w.postMessage({ ...job.task, port: port2 }, [port2]);
    }
  };
  const enqueue = (job: QueuedPart) => {
    // Stable by (priority, arrival): the parts of one proof stay together.
    let i = queue.length;
    while (i > 0 && (queue[i - 1].priority > job.priority || (queue[i - 1].priority === job.priority && queue[i - 1].seq > job.seq))) i--;
    queue.splice(i, 0, job);
  };
  return {
    async prove(candidate, headDim, length, o) {
      const count = Math.max(1, Math.floor(o.parts));
      const failedAbove = new Int32Array(new SharedArrayBuffer(4));
      const mine = seq++;
      const pending = Array.from(
        { length: count },
        (_, index) =>
          new Promise<{ ok: true; verdict: NeighbourhoodVerdict } | { ok: false; message: string }>((settle) => {
            const done = new Int32Array(new SharedArrayBuffer(4));
            enqueue({ priority: o.priority, seq: mine, task: { candidate, headDim, length, index, count, done, failedAbove }, settle });
          }),
      );
      pump();
      const replies = await Promise.all(pending);
      const verdicts = replies.map((r) => {
        if (!r.ok) throw new Error(r.message);
        return r.verdict;
      });
      return mergeProofParts(verdicts);
    },
    waiting: () => queue.length,
    setLaterCap: (n) => {
      cap = n;
      pump();
    },
    close: async () => {
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
