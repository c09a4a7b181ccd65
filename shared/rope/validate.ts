/**
 * Input checks shared by the frequency core: every bad number becomes a RopeError with a message
 * naming the field and the value, so nothing downstream ever computes with NaN or Infinity.
 */
import { RopeError } from '../core/errors';
import { MAX_HEAD_DIM } from '../core/limits';
import { ROPE_TYPES, RopeSpec } from './spec';

/** A finite base > 0 (and ≠ 1, where log(base) would vanish). */
export function checkBase(base: number, what = 'rope_theta (base)'): number {
  if (typeof base !== 'number' || !Number.isFinite(base) || base <= 0) {
    throw new RopeError('invalid-base', `${what} must be a finite number > 0, got ${String(base)}`);
  }
  if (base === 1) throw new RopeError('invalid-base', `${what} must not be 1 (every frequency would be 1)`);
  return base;
}

/** An even integer rotary dimension ≥ 2, at most MAX_HEAD_DIM (checked before any table is allocated). */
export function checkRotaryDim(dim: number, what = 'rotary dimension'): number {
  if (typeof dim !== 'number' || !Number.isInteger(dim) || dim <= 0) {
    throw new RopeError('invalid-dimension', `${what} must be a positive integer, got ${String(dim)}`);
  }
  if (dim % 2 !== 0) {
    throw new RopeError('invalid-dimension', `${what} must be even (channels rotate in pairs), got ${dim}`);
  }
  if (dim > MAX_HEAD_DIM) {
    throw new RopeError('invalid-dimension', `${what} ${dim} is beyond the largest RoPE Lens computes with (${MAX_HEAD_DIM})`);
  }
  return dim;
}

/** A finite length > 0 (context lengths, sequence lengths). */
export function checkLength(value: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RopeError('invalid-length', `${what} must be a finite number > 0, got ${String(value)}`);
  }
  return value;
}

/** A finite scaling factor ≥ 1. */
export function checkFactor(value: number, what = 'factor'): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RopeError('invalid-factor', `${what} must be a finite number >= 1, got ${String(value)}`);
  }
  if (value < 1) throw new RopeError('invalid-factor', `${what} must be >= 1, got ${value}`);
  return value;
}

/** Any finite number (optionally > 0). */
export function checkNumber(value: number, what: string, positive = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || (positive && value <= 0)) {
    throw new RopeError('invalid-parameter', `${what} must be a finite number${positive ? ' > 0' : ''}, got ${String(value)}`);
  }
  return value;
}

/** A list of finite positive numbers of length rotaryDim / 2 (longrope's short/long factors). */
export function checkFactorList(list: readonly number[] | undefined, dim: number, what: string): readonly number[] {
  if (!Array.isArray(list)) throw new RopeError('invalid-parameter', `${what} must be a list of numbers`);
  if (list.length !== dim / 2) {
    throw new RopeError('length-mismatch', `${what} must have length ${dim / 2} (rotary dimension ${dim} / 2), got ${list.length}`);
  }
  list.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x) || x <= 0) {
      throw new RopeError('invalid-parameter', `${what}[${i}] must be a finite number > 0, got ${String(x)}`);
    }
  });
  return list;
}

/** The checks every rope type needs: known type, base, dimension, context. */
export function checkCommon(spec: RopeSpec): void {
  if (!spec || typeof spec !== 'object') throw new RopeError('invalid-parameter', 'rope spec must be an object');
  if (!ROPE_TYPES.includes(spec.ropeType)) {
    throw new RopeError('unknown-rope-type', `unknown rope type '${String(spec.ropeType)}' (expected one of ${ROPE_TYPES.join(', ')})`);
  }
  checkBase(spec.base);
  checkRotaryDim(spec.rotaryDim);
  checkLength(spec.maxPositionEmbeddings, 'max_position_embeddings');
  if (spec.originalMaxPositionEmbeddings !== undefined) {
    checkLength(spec.originalMaxPositionEmbeddings, 'original_max_position_embeddings');
  }
  if (spec.topLevelOriginalMaxPositionEmbeddings !== undefined) {
    checkLength(spec.topLevelOriginalMaxPositionEmbeddings, 'original_max_position_embeddings (top level)');
  }
}
