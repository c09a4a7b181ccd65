/**
 * One dim's chain of the sharded table job (a worker thread of test/device/table.ts): the generator
 * (shared/node/provenTableGen.ts) over this dim's rungs, on its own copy of the table, with its proofs
 * sent to the job's shared pool of proof threads. Rows go to the job as they are finished; a row that
 * cannot finish before the deadline (tablePlan.ts's model) is not started.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ProofOutcome } from '../../shared/bstar/provenThreshold';
import type { NeighbourhoodVerdict } from '../../shared/bstar/neighbourhood';
import type { TableRow } from '../../shared/bstar/table/rows';
import { type TableProver, type Task, generateTable } from '../../shared/node/provenTableGen';
import { rowSeconds } from '../../shared/node/tablePlan';

export interface ChainData {
  file: string;
  dim: number;
  maxLength: number;
  maxThresholdLength: number;
  parts: number;
  /** Epoch ms after which nothing may still be running. */
  deadline: number;
  /** Per-core speed relative to the development machine (calibrated by the job). */
  speed: number;
  machine: string;
}

/** Messages a chain posts to the job. */
export type ChainMessage =
  | { type: 'prove'; id: number; candidate: number; dim: number; length: number }
  | { type: 'row'; row: TableRow; task: Task }
  | { type: 'log'; line: string }
  | { type: 'done'; done: number; left: Task[]; gaveUp: Task[] }
  | { type: 'failed'; message: string };

/** The job's answer to a `prove`. */
export interface ProvedMessage {
  type: 'proved';
  id: number;
  verdict?: NeighbourhoodVerdict;
  error?: string;
}

const data = workerData as ChainData;
const port = parentPort!;
const post = (m: ChainMessage) => port.postMessage(m);
const waiting = new Map<number, (m: ProvedMessage) => void>();
let nextId = 0;
port.on('message', (m: ProvedMessage) => waiting.get(m.id)?.(m));

const prover: TableProver = {
  backend: 'cpu-float64',
  prove: (candidate, dim, length) =>
    new Promise<ProofOutcome>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (m) => {
        waiting.delete(id);
        const v = m.verdict;
        if (!v) reject(new Error(m.error ?? 'no verdict'));
        else resolve(v.robust ? { robust: true } : { robust: false, witness: v.witness, undecided: v.undecided });
      });
      post({ type: 'prove', id, candidate, dim, length });
    }),
};

// A threshold task is about 30 proofs at its (short) rung.
const taskSeconds = (t: Task) => (t.kind === 'threshold' ? 10 : 1) * rowSeconds(t.length, t.dim, data.parts, data.speed);

generateTable({
  file: data.file,
  dims: [data.dim],
  maxLength: data.maxLength,
  maxThresholdLength: data.maxThresholdLength,
  prover,
  machine: data.machine,
  fits: (t) => {
    const est = taskSeconds(t);
    const ok = Date.now() + est * 1000 < data.deadline;
    post({ type: 'log', line: `${ok ? 'start' : 'skip (cannot finish)'} ${t.kind} L=${t.length} d=${t.dim}, estimate ${est.toFixed(1)} s` });
    return ok;
  },
  onRow: (row, task) => post({ type: 'row', row, task }),
  log: (line) => post({ type: 'log', line }),
})
  .then((r) => post({ type: 'done', done: r.done, left: r.left, gaveUp: r.gaveUp }))
  .catch((e) => post({ type: 'failed', message: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
