/**
 * A neighbourhood proof on every core, for a synchronous caller (the CLI's bound oracle): the blocks
 * of m are dealt to worker threads (bstar/neighbourhood.ts `part`), the caller blocks in Atomics.wait
 * until each part has answered, and mergeProofParts gives the verdict the single-threaded proof gives
 * (same witness). Short proofs stay on the calling thread, where starting threads would cost more
 * than they save. Threads are started on first use, kept for the next proof and never keep the
 * process alive.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { mergeProofParts, type NeighbourhoodVerdict } from '../bstar/neighbourhood';
import { robustNeighbourhood } from '../bstar/index';
import type { ProofPartTask } from './proofWorker';

/** Below this length a proof takes well under a second on one core: no threads. */
export const PARALLEL_PROOF_MIN_LENGTH = 65536;
/** At most this many threads (the work splits evenly; more threads mostly add memory). */
const MAX_THREADS = 8;

/**
 * ROPE_LENS_PROOF_MAX_LENGTH: the longest length whose robust bases the CLI proves (default: every
 * length). A proof at 1,048,576 tokens takes about a minute on two cores; a quick run (a test, a
 * pre-commit hook on a long pretraining config) can stop earlier, and the base fix then says it was
 * checked at 41 points only, and a plan leaves the robust base out.
 */
export function proofMaxLengthFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ROPE_LENS_PROOF_MAX_LENGTH;
  const n = raw === undefined || raw === '' ? Number.NaN : Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : Number.POSITIVE_INFINITY;
}

export type NeighbourhoodProver = (candidate: number, headDim: number, length: number) => NeighbourhoodVerdict;

function defaultScript(): string {
  const candidates = [join(__dirname, 'proofWorker.js'), resolve(__dirname, '../../dist/proofWorker.js')];
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

export interface ParallelProverOptions {
  /** Threads to use (default: the machine's available parallelism, at most 8). */
  threads?: number;
  minLength?: number;
  script?: string;
  /**
   * Called every `waitTickMs` while the caller blocks on the threads: the caller's only chance to run
   * (its timers cannot fire inside Atomics.wait), used by the CLI to redraw a live progress line.
   */
  onWait?: () => void;
  /** Interval of `onWait` calls (default 250 ms). */
  waitTickMs?: number;
}

const WAIT_TICK_MS = 250;

/** A prover that splits long proofs across threads; falls back to the calling thread when it cannot. */
export function parallelProver(opts: ParallelProverOptions = {}): NeighbourhoodProver {
  const threads = Math.max(1, Math.min(MAX_THREADS, opts.threads ?? availableParallelism()));
  const minLength = opts.minLength ?? PARALLEL_PROOF_MIN_LENGTH;
  const script = opts.script ?? defaultScript();
  const tickMs = opts.waitTickMs ?? WAIT_TICK_MS;
  const onWait = opts.onWait;
  let pool: Worker[] | undefined;
  return (candidate, headDim, length) => {
    if (threads < 2 || length < minLength || !existsSync(script)) return robustNeighbourhood(candidate, headDim, length);
    pool ??= Array.from({ length: threads }, () => {
      const w = new Worker(script);
      w.unref();
      return w;
    });
    const failedAbove = new Int32Array(new SharedArrayBuffer(4));
    const parts = pool.map((w, index) => {
      const { port1, port2 } = new MessageChannel();
      const done = new Int32Array(new SharedArrayBuffer(4));
      const task: ProofPartTask = { candidate, headDim, length, index, count: pool!.length, port: port2, done, failedAbove };
      w.postMessage(task, [port2]);
      return { port: port1, done };
    });
    const verdicts = parts.map(({ port, done }) => {
      if (!onWait) Atomics.wait(done, 0, 0);
      else while (Atomics.wait(done, 0, 0, tickMs) === 'timed-out') onWait();
      const reply = receiveMessageOnPort(port)?.message as { ok: true; verdict: NeighbourhoodVerdict } | { ok: false; message: string } | undefined;
      port.close();
      if (!reply) throw new Error('a proof thread answered nothing');
      if (!reply.ok) throw new Error(reply.message);
      return reply.verdict;
    });
    return mergeProofParts(verdicts);
  };
}
