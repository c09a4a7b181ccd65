/**
 * Neighbourhood proofs already made, shared by everything in this process that asks (the CLI's bound
 * oracle, the planner): a proof at 262,144 tokens costs seconds, and `check` then `plan`, a fix's
 * verification and every file of a folder ask the same rungs. The answer is a fact of (candidate, d, L),
 * whichever thread or backend proved it. Bounded; oldest first out.
 */
import type { NeighbourhoodVerdict } from './neighbourhood';

const CAPACITY = 1024;
const answers = new Map<string, number | null>();

/** null when every base within ±10% of `candidate` is valid at `length`, else a base there that is not. */
export function provenOnce(
  candidate: number,
  headDim: number,
  length: number,
  prove: (candidate: number, headDim: number, length: number) => NeighbourhoodVerdict,
): number | null {
  const k = `${candidate}/${headDim}/${length}`;
  const hit = answers.get(k);
  if (hit !== undefined) return hit;
  const v = prove(candidate, headDim, length);
  const answer = v.robust ? null : v.witness.base;
  if (answers.size >= CAPACITY) answers.delete(answers.keys().next().value as string);
  answers.set(k, answer);
  return answer;
}
