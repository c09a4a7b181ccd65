/**
 * One thread of a neighbourhood proof split across threads (shared/node/parallelProof.ts): it proves
 * its part of the blocks of m, posts the verdict on the port it was given, and wakes the caller,
 * which is blocked in Atomics.wait.
 */
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { robustNeighbourhood } from '../bstar/index';

export interface ProofPartTask {
  candidate: number;
  headDim: number;
  length: number;
  index: number;
  count: number;
  /** Where the verdict goes (read synchronously by the caller). */
  port: MessagePort;
  /** done[0] is set to 1 and notified when the verdict has been posted. */
  done: Int32Array;
  /** Shared by the parts of one proof: where a part failed (see ProofPart.failedAbove). */
  failedAbove: Int32Array;
}

parentPort?.on('message', (t: ProofPartTask) => {
  let reply: unknown;
  try {
    reply = {
      ok: true,
      verdict: robustNeighbourhood(t.candidate, t.headDim, t.length, { part: { index: t.index, count: t.count, failedAbove: t.failedAbove } }),
    };
  } catch (e) {
    reply = { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  t.port.postMessage(reply);
  Atomics.store(t.done, 0, 1);
  Atomics.notify(t.done, 0);
});
