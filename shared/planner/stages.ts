/**
 * Stage lengths and the two base laws applied stage by stage, as Gradient trained Llama-3-8B
 * (65k → 262k → 1048k, each stage's base derived from the previous one). Both laws telescope:
 * the staged value equals the one-step formula from the original base and T (tested to 1e-9).
 */
import { RopeError } from '../core/errors';
import { gradientThetaBase, ntkAwareBase } from '../rope/seedMethods';
import { MAX_LENGTH } from '../bstar/validate';

/** Increasing integer lengths above T ending at the target; just [target] when none are given. */
export function planStages(trained: number, target: number, stages?: readonly number[]): number[] {
  checkStageLength(target, 'target');
  if (!(target > trained)) {
    throw new RopeError('invalid-length', `the target ${target} does not exceed the trained context ${trained}: nothing to extend`);
  }
  const list = stages && stages.length ? [...stages] : [target];
  list.forEach((l) => checkStageLength(l, 'stage length'));
  if (list[list.length - 1] !== target) list.push(target);
  for (let k = 0; k < list.length; k++) {
    const prev = k === 0 ? trained : list[k - 1];
    if (!(list[k] > prev)) {
      throw new RopeError('invalid-length', `stages must increase from the trained context ${trained} to the target ${target}; got ${list.join(', ')}`);
    }
  }
  return list;
}

function checkStageLength(l: number, what: string): void {
  if (!Number.isSafeInteger(l) || l < 2) throw new RopeError('invalid-length', `${what} must be an integer ≥ 2, got ${String(l)}`);
  if (l > MAX_LENGTH) throw new RopeError('unsupported-length', `${what} ${l} is beyond the largest length RoPE Lens checks (${MAX_LENGTH})`);
}

/** NTK-aware base per stage: b_k = b_{k−1}·(L_k/L_{k−1})^(d/(d−2)), from (b, T). */
export function stagedNtkAwareBases(base: number, trained: number, lengths: readonly number[], dim: number): number[] {
  const out: number[] = [];
  let b = base,
    prev = trained;
  for (const L of lengths) {
    b = ntkAwareBase(b, L / prev, dim);
    out.push(b);
    prev = L;
  }
  return out;
}

/** Gradient's law per stage: b_k = b_{k−1}^(ln(L_k/2π)/ln(L_{k−1}/2π)), from (b, T). */
export function stagedGradientBases(base: number, trained: number, lengths: readonly number[]): number[] {
  const out: number[] = [];
  let b = base,
    prev = trained;
  for (const L of lengths) {
    b = gradientThetaBase(b, prev, L);
    out.push(b);
    prev = L;
  }
  return out;
}
