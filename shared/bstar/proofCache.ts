/**
 * Neighbourhood proofs already made, shared by everything in this process that asks (the CLI's bound
 * oracle, the planner): a proof at 262,144 tokens costs seconds, and `check` then `plan`, a fix's
 * verification and every file of a folder ask the same rungs. The answer is a fact of (candidate, d, L)
 * and the proof code, whichever thread or backend proved it. Bounded; oldest first out.
 *
 * Behind the in-process map, a front-end may plug a persistent store (shared/node/proofStore.ts: one
 * file per user, shared by the CLI, the hook and the language server), so a proof is paid once per
 * machine, not once per run.
 */
import type { NeighbourhoodVerdict } from './neighbourhood';
import { PROOF_CODE_VERSION } from './table/codeVersion';

const CAPACITY = 1024;
const answers = new Map<string, number | null>();

/** A persistent home for proof answers (null: robust; a number: a base of the neighbourhood that is not). */
export interface ProofStore {
  get(key: string): number | null | undefined;
  set(key: string, answer: number | null): void;
}

let store: ProofStore | undefined;

/** Plug (or, with undefined, unplug) the persistent store behind provenOnce. */
export function useProofStore(s: ProofStore | undefined): void {
  store = s;
}

/** The key of one proof: the proof code's version, then (L, d, candidate). */
export function proofKey(candidate: number, headDim: number, length: number): string {
  return `${PROOF_CODE_VERSION}/${length}/${headDim}/${candidate}`;
}

/** A stored answer (memory, then the persistent store), without proving. */
export function knownProof(candidate: number, headDim: number, length: number): number | null | undefined {
  const k = proofKey(candidate, headDim, length);
  const hit = answers.get(k);
  if (hit !== undefined) return hit;
  const kept = store?.get(k);
  if (kept !== undefined) remember(k, kept);
  return kept;
}

/** Record an answer proven elsewhere (the language server's engine) in memory and the persistent store. */
export function recordProof(candidate: number, headDim: number, length: number, answer: number | null): void {
  const k = proofKey(candidate, headDim, length);
  remember(k, answer);
  store?.set(k, answer);
}

/** null when every base within ±10% of `candidate` is valid at `length`, else a base there that is not. */
export function provenOnce(
  candidate: number,
  headDim: number,
  length: number,
  prove: (candidate: number, headDim: number, length: number) => NeighbourhoodVerdict,
): number | null {
  const known = knownProof(candidate, headDim, length);
  if (known !== undefined) return known;
  const v = prove(candidate, headDim, length);
  const answer = v.robust ? null : v.witness.base;
  recordProof(candidate, headDim, length, answer);
  return answer;
}

/** The key of one search's answer: the smallest robust round base from `start` (a fact of the code, L, d and start). */
function choiceKey(start: number, headDim: number, length: number): string {
  return `${PROOF_CODE_VERSION}/${length}/${headDim}/from:${start}`;
}

/**
 * A robust-base search already made (memory, then the persistent store): a warm run skips the search's
 * 41-point grids as well as its proofs. undefined when not known.
 */
export function knownChoice(start: number, headDim: number, length: number): number | undefined {
  const k = choiceKey(start, headDim, length);
  const hit = answers.get(k) ?? store?.get(k) ?? undefined;
  return typeof hit === 'number' ? hit : undefined;
}

export function recordChoice(start: number, headDim: number, length: number, base: number): void {
  const k = choiceKey(start, headDim, length);
  remember(k, base);
  store?.set(k, base);
}

function remember(k: string, answer: number | null): void {
  if (answers.size >= CAPACITY) answers.delete(answers.keys().next().value as string);
  answers.set(k, answer);
}
