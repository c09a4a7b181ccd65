/**
 * The numbers hovers, inlay hints, code lenses and `describe` show for a document's RoPE setup,
 * gathered from the analysis (ModelRope), the bound oracle and the frequency core. Nothing is
 * decided here; it only collects and formats.
 */
import type { ModelRope } from '../config/modelRope';
import { toRopeSpec } from '../config/modelConfig';
import { criticalDimension } from '../rope/analysis';
import type { RopeSpec, TransformersVariant, RopeType } from '../rope/spec';
import { computeFrequencies } from '../rope/invFreq';
import type { BoundOracle } from './types';
import { validBaseFigure } from '../core/baseFigure';

export interface RopeFacts {
  base: number;
  rotaryDim: number;
  contextLength: number;
  ropeType: RopeType;
  /** b*(L, d): undefined while computing. */
  bstar: number | undefined;
  /** b* as shown: rounded up to the shortest figure that is itself valid for L (issue 33); undefined while checking. */
  bstarShown: string | undefined;
  threshold: number | undefined;
  /** First invalid position for the configured base (null: none below L). */
  lmax: number | null | undefined;
  /** Liu et al.: dimensions that see a full period within the context, 2⌈(d/2)·log_b(L/2π)⌉. */
  criticalDim: number | undefined;
  attentionFactor: number | undefined;
  /** Why the attention factor is missing (bad scaling parameters), if it is. */
  frequencyError?: string;
  spec: RopeSpec | undefined;
}

export function ropeFacts(rope: ModelRope, oracle: BoundOracle, variant: TransformersVariant): RopeFacts {
  const base = rope.base.value;
  const d = rope.rotaryDim.value;
  const L = rope.contextLength.value;
  const facts: RopeFacts = {
    base,
    rotaryDim: d,
    contextLength: L,
    ropeType: rope.scaling?.type ?? 'default',
    bstar: undefined,
    bstarShown: undefined,
    threshold: undefined,
    lmax: undefined,
    criticalDim: undefined,
    attentionFactor: undefined,
    spec: undefined,
  };
  try {
    facts.criticalDim = criticalDimension(base, d, L);
  } catch {
    /* out of its domain (e.g. L ≤ 2π) */
  }
  if (validBoundInput(base, d, L)) {
    facts.bstar = oracle.bstar(L, d);
    const b = facts.bstar;
    if (b !== undefined) facts.bstarShown = validBaseFigure(b, (x) => oracle.lmax(x, d, L));
    facts.threshold = oracle.threshold(L, d);
    facts.lmax = oracle.lmax(base, d, L);
  }
  try {
    facts.spec = toRopeSpec(rope, { variant });
    facts.attentionFactor = computeFrequencies(facts.spec, { variant }).attentionFactor;
  } catch (e) {
    facts.frequencyError = (e as Error)?.message ?? String(e);
  }
  return facts;
}

function validBoundInput(base: number, d: number, L: number): boolean {
  return Number.isFinite(base) && base > 1 && Number.isInteger(d) && d >= 2 && d % 2 === 0 && Number.isInteger(L) && L >= 1;
}

export { sci, grouped } from '../core/format';
