/**
 * What a sharded run of the table generator does with a fixed number of cores for a fixed time (the
 * lent device machine: 16 cores, minutes): which dims, up to which rung, in which order of urgency,
 * and whether a row can still finish. Rows of one dim form a chain (each starts from the rung below:
 * b* and the robust base only grow with the length), so a dim is one caller; its proofs are split
 * into parts on a shared pool (splitProver.ts), the most useful dim's first.
 *
 * The cost model was measured on the 2-core development machine (CPU time of one robust proof of the
 * table's own base, one thread): d = 128: 1.09 s at 131,072, 3.3 s at 262,144, 9.9 s at 524,288,
 * 39.2 s at 1,048,576 (×3 to ×4 per doubling, steepening: exponent 1.9 taken above 2²⁰); d = 64 at
 * 262,144 1.4 s, d = 256 at 131,072 2.5 s (≈ d^1.2). A row took 1 to 7 proofs (3 on average above
 * 2¹⁸), failing candidates usually cheaper than a full proof. The job calibrates the model's speed on
 * the machine it runs on with one proof before it starts.
 */
import { LADDER } from '../bstar/table/ladder';
import type { TableRow } from '../bstar/table/rows';
import { PROOF_CODE_VERSION } from '../bstar/table/codeVersion';

/** One dim's share of a run: its rungs (up to maxLength), urgency (0 first) and how finely its proofs split. */
export interface DimPlan {
  dim: number;
  maxLength: number;
  priority: number;
  parts: number;
}

/**
 * The share of threads the later dims may hold while the first is running: about 5 of 16. Budget:
 * d = 128 from 1.25M to 3.5M is about 3,800 core-seconds by the model, 64 and 256 to 1M about 1,000,
 * the other seven dims to 1M about 1,000; 16 cores for ~400 s give 6,400.
 */
export const LATER_SHARE = 5 / 16;

/** The order of issue 42's follow-up: d = 128 to 4M first, then 64 and 256 to 1M, then the others to 1M. */
export const DEVICE_PLAN: readonly DimPlan[] = [
  { dim: 128, maxLength: 4194304, priority: 0, parts: 11 },
  { dim: 64, maxLength: 1048576, priority: 1, parts: 4 },
  { dim: 256, maxLength: 1048576, priority: 1, parts: 4 },
  ...[32, 96, 80, 100, 16, 20, 24].map((dim) => ({ dim, maxLength: 1048576, priority: 2, parts: 2 })),
];

/** The proof a job times first to learn its machine's speed: 1.09 s of CPU on one development-machine core. */
export const CALIBRATION = { candidate: 47_000_000, dim: 128, length: 131072, seconds: 1.09 } as const;

/** Seconds of one proof on one development-machine core (the measured model above). */
export function proofSeconds(length: number, dim: number): number {
  return 39.2 * Math.pow(length / 1048576, 1.9) * Math.pow(dim / 128, 1.2);
}

/** Proofs a row is budgeted for (the table's mean above 2¹⁸ is about 3). */
export const PROOFS_PER_ROW = 3;

/**
 * Wall seconds a row should take when its proofs get `parts` threads, on a machine `speed` times as
 * fast per core as the development machine: what a chain compares with the time it has left.
 */
export function rowSeconds(length: number, dim: number, parts: number, speed: number): number {
  return (PROOFS_PER_ROW * proofSeconds(length, dim)) / Math.max(1, parts) / speed;
}

/** The rungs of `dim` up to `maxLength` the table does not hold (no robust base or no b*), shortest first. */
export function missingRungs(rows: readonly TableRow[], dim: number, maxLength: number, codeVersion = PROOF_CODE_VERSION): number[] {
  const have = new Set(rows.filter((r) => r.dim === dim && r.bstar?.codeVersion === codeVersion && r.robust?.codeVersion === codeVersion).map((r) => r.length));
  return LADDER.filter((L) => L <= maxLength && !have.has(L));
}
