/**
 * A live stderr line while the CLI proves a robust base (`check`'s base fix, `plan`'s robust option):
 * "proving base 830,000 over ±10% at 262,144 tokens (rotary dim 128)… 3.2 s", redrawn while the
 * proof runs and cleared when it ends. The proof blocks the thread, so redraws come from the prover's
 * own wait ticks (parallelProof.ts `onWait`), not from a timer. Nothing is drawn without a terminal.
 */
import { enUS } from '../../shared/core/format';
import type { NeighbourhoodProver } from '../../shared/node/parallelProof';

/** From this length on a proof takes about a second or more: its line is drawn as soon as it starts. */
const DRAW_AT_START_FROM = 131072;

export interface ProofLine {
  /** The prover with the line drawn around each proof. */
  around(prove: NeighbourhoodProver): NeighbourhoodProver;
  /** Redraws the line with the elapsed time (pass it as the prover's `onWait`). */
  tick(): void;
}

/** `status`: CliIO.status (absent off a terminal: then the line is never drawn). `now`: a clock, for tests. */
export function proofLine(status: ((text: string) => void) | undefined, now: () => number = Date.now): ProofLine {
  let text = '';
  let since = 0;
  let drawn = false;
  const draw = () => {
    if (!status || !text) return;
    status(`${text}… ${((now() - since) / 1000).toFixed(1)} s`);
    drawn = true;
  };
  return {
    around: (prove) => (candidate, headDim, length) => {
      if (!status) return prove(candidate, headDim, length);
      text = `proving base ${enUS(candidate)} over ±10% at ${enUS(length)} tokens (rotary dim ${headDim})`;
      since = now();
      if (length >= DRAW_AT_START_FROM) draw();
      try {
        return prove(candidate, headDim, length);
      } finally {
        text = '';
        if (drawn) status('');
        drawn = false;
      }
    },
    tick: draw,
  };
}
