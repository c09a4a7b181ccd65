/**
 * How far the threshold (every base above it valid) is proven. `certifiedAbove` (threshold.ts) is
 * proven but loose; the estimate is tight but only checked on a grid. Between them, ±10%
 * neighbourhood proofs (neighbourhood.ts) chain downward: a candidate c proves every real base in
 * [0.9c, 1.1c], so candidates c_k = certifiedAbove/1.1 · (0.9/1.1)^k cover [0.9·c_k, certifiedAbove]
 * without gaps. The chain aims just above the largest invalid base known (the estimate is one: the
 * grid found it invalid); a neighbourhood that fails gives a larger invalid base (its witness), and
 * the chain resumes just above it. When the rung just above the largest invalid base is proven, the
 * threshold is located between the two. Pure; the prover is passed in so the engine can run each
 * proof on its backend.
 */
import { NEIGHBOURHOOD_MARGIN } from './neighbourhood';

/**
 * Longest L whose threshold is proven by neighbourhood chains: ~30 proofs, so half the plan's
 * PLAN_PROOF_MAX_LENGTH (one proof at 131,072 takes 5-10 s on one core; the chain at 32,768 took 5-13 s).
 */
export const THRESHOLD_PROOF_MAX_LENGTH = 65536;

export interface ProofOutcome {
  robust: boolean;
  /** When not robust: a base in the neighbourhood and the m where f < −tol (or the least value, when undecided). */
  witness?: { base: number; m: number; f: number };
  /** The proof could not decide a cell (the witness is then not an invalid base). */
  undecided?: boolean;
}

export interface ProvenThreshold {
  /** Every base ≥ this is proven valid (≤ certifiedAbove). */
  provenAbove: number;
  /** The largest base known to be invalid (the estimate, or a larger witness a proof found) and why. */
  invalidAt: { base: number; m?: number; f?: number; from: 'estimate' | 'proof' };
  /** True when provenAbove is just above invalidAt (1e-9 relative): the threshold is located. */
  located: boolean;
  /** Why the chain stopped short of invalidAt (a cell it could not decide, or the proof budget). */
  stopped?: string;
  proofs: number;
}

/** Neighbourhoods to chain from certifiedAbove down to the estimate (the work a caller can budget for). */
export function chainLength(estimate: number, certifiedAbove: number): number {
  if (certifiedAbove <= estimate) return 0;
  const ratio = (1 + NEIGHBOURHOOD_MARGIN) / (1 - NEIGHBOURHOOD_MARGIN);
  return Math.ceil(Math.log(certifiedAbove / estimate) / Math.log(ratio));
}

/** Relative gap above an invalid base where the chain's last rung starts, and the rungs' overlap. */
const HAIR = 1e-9;
/** Failed rungs the chain may resume from before it stops. */
const MAX_RESUMES = 16;

/** Grid bases between a witness and the proven end searched for the largest invalid one (then bisected). */
const RESUME_GRID = 64;
const BISECTIONS = 40;

/**
 * The largest invalid base the map finds in [from, to]: a log grid scanned downward, then bisected
 * between the top invalid grid base and the valid one above it. Bases between grid points are left to
 * the proof that follows.
 */
async function largestInvalid(from: number, to: number, isValid: (base: number) => boolean | Promise<boolean>): Promise<number> {
  const r = Math.log(to / from);
  for (let k = RESUME_GRID - 1; k >= 0; k--) {
    const b = k === 0 ? from : from * Math.exp((r * k) / RESUME_GRID);
    // `from` is a witness (invalid): reached, the bisection runs between it and the grid base above it.
    if (k > 0 && (await isValid(b))) continue;
    let bad = b;
    let good = from * Math.exp((r * (k + 1)) / RESUME_GRID);
    for (let i = 0; i < BISECTIONS && good / bad - 1 > HAIR; i++) {
      const mid = Math.sqrt(bad * good);
      if (await isValid(mid)) good = mid;
      else bad = mid;
    }
    return bad;
  }
  return from;
}

export async function proveThreshold(
  estimate: number,
  certifiedAbove: number,
  prove: (candidate: number) => ProofOutcome | Promise<ProofOutcome>,
  isValid: (base: number) => boolean | Promise<boolean>,
): Promise<ProvenThreshold> {
  const lo = 1 - NEIGHBOURHOOD_MARGIN;
  const hi = 1 + NEIGHBOURHOOD_MARGIN;
  let invalidAt: ProvenThreshold['invalidAt'] = { base: estimate, from: 'estimate' };
  let floor = estimate * (1 + HAIR);
  if (certifiedAbove <= floor) return { provenAbove: certifiedAbove, invalidAt, located: false, proofs: 0 };
  let provenAbove = certifiedAbove;
  let proofs = 0;
  let resumes = 0;
  // Each rung's upper end (1.1c) reaches past the previous rung's lower end, so the proven set stays one interval.
  let c = Math.max(certifiedAbove / hi, floor / lo);
  for (;;) {
    const v = await prove(c);
    proofs++;
    if (v.robust) {
      provenAbove = Math.min(provenAbove, lo * c);
      if (provenAbove <= floor * (1 + 1e-12)) return { provenAbove, invalidAt, located: true, proofs };
      c = Math.max(c * (lo / hi) * (1 + HAIR), floor / lo);
      continue;
    }
    if (!v.witness || v.undecided)
      return { provenAbove, invalidAt, located: false, stopped: `a cell of the neighbourhood of ${c} could not be decided`, proofs };
    if (++resumes > MAX_RESUMES) return { provenAbove, invalidAt, located: false, stopped: `${MAX_RESUMES} neighbourhoods failed`, proofs };
    // The witness is an invalid base above the last one known (the rung lay above it); the map looks for
    // the largest invalid base between it and the proven end, and the chain resumes just above that.
    const top = await largestInvalid(v.witness.base, provenAbove, isValid);
    invalidAt = top > v.witness.base ? { base: top, from: 'proof' } : { base: v.witness.base, m: v.witness.m, f: v.witness.f, from: 'proof' };
    floor = invalidAt.base * (1 + HAIR);
    c = floor / lo;
  }
}
