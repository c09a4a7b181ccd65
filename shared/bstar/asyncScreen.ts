/**
 * Runs a synchronous proof (proveNeighbourhood, validityMap) with a screen that answers
 * asynchronously (WebGPU in a browser worker, where no thread can block on another the way the Node
 * worker's Atomics bridge does). Record and replay: the proof runs until it asks the screen something
 * not answered yet, which stops it; the question is answered on the device, and the proof runs again
 * from the start with every answer so far. Both proofs are deterministic, so each run asks the same
 * questions in the same order (checked), and the last run, which needs nothing new, is the answer.
 * The neighbourhood proof asks all its questions before any float64 work, so a rerun costs little.
 */
import type { NeighbourhoodScreen } from './neighbourhood';

/** A screen's answer, computed asynchronously; null: no screen (the proof goes on without it). */
export type AsyncScreen = (bases: Float64Array, headDim: number, length: number, block: number) => Promise<Float64Array | null>;

interface Question {
  bases: Float64Array;
  headDim: number;
  length: number;
  block: number;
}

/** Thrown through the proof to stop it at an unanswered question (never escapes runWithAsyncScreen). */
class Unanswered {
  constructor(readonly question: Question) {}
}

const sameQuestion = (a: Question, b: Question) =>
  a.headDim === b.headDim && a.length === b.length && a.block === b.block && a.bases.length === b.bases.length && a.bases.every((x, i) => x === b.bases[i]);

export async function runWithAsyncScreen<T>(proof: (screen: NeighbourhoodScreen) => T, answer: AsyncScreen): Promise<T> {
  const asked: Question[] = [];
  const answers: (Float64Array | null)[] = [];
  for (;;) {
    let call = 0;
    const screen: NeighbourhoodScreen = (bases, headDim, length, block) => {
      const q = { bases: Float64Array.from(bases), headDim, length, block };
      const i = call++;
      if (i < answers.length) {
        if (!sameQuestion(asked[i], q)) throw new Error(`the proof asked the screen a different question on its rerun (question ${i + 1})`);
        return answers[i];
      }
      throw new Unanswered(q);
    };
    try {
      return proof(screen);
    } catch (e) {
      if (!(e instanceof Unanswered)) throw e;
      asked.push(e.question);
      answers.push(await answer(e.question.bases, e.question.headDim, e.question.length, e.question.block));
    }
  }
}
