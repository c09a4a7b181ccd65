/** Input checks shared by every b* entry point: bad input is a RopeError, never NaN or a hang. */
import { RopeError } from '../core/errors';
import { MAX_HEAD_DIM, MAX_LENGTH } from '../core/limits';

// The caps live in core/limits (one place for every reader and validator); re-exported for the engine's callers.
export { MAX_HEAD_DIM, MAX_LENGTH };

export function checkLength(length: number): number {
  if (typeof length !== 'number' || !Number.isFinite(length)) {
    throw new RopeError('invalid-length', `length must be a finite number, got ${String(length)}`);
  }
  if (!Number.isInteger(length) || length < 1) {
    throw new RopeError('invalid-length', `length must be an integer ≥ 1, got ${length}`);
  }
  if (length > MAX_LENGTH) {
    throw new RopeError('unsupported-length', `length ${length} is beyond the supported maximum ${MAX_LENGTH} (2^24)`);
  }
  return length;
}

export function checkHeadDim(headDim: number): number {
  if (typeof headDim !== 'number' || !Number.isFinite(headDim)) {
    throw new RopeError('invalid-dimension', `head dimension must be a finite number, got ${String(headDim)}`);
  }
  if (!Number.isInteger(headDim) || headDim < 2 || headDim % 2 !== 0) {
    throw new RopeError('invalid-dimension', `head dimension must be a positive even integer, got ${headDim}`);
  }
  if (headDim > MAX_HEAD_DIM) {
    throw new RopeError('invalid-dimension', `head dimension ${headDim} is beyond the supported maximum ${MAX_HEAD_DIM}`);
  }
  return headDim;
}

export function checkBase(base: number): number {
  if (typeof base !== 'number' || !Number.isFinite(base)) {
    throw new RopeError('invalid-base', `base must be a finite number, got ${String(base)}`);
  }
  if (base <= 1) throw new RopeError('invalid-base', `base must be greater than 1, got ${base}`);
  return base;
}
