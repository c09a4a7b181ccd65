/**
 * One error type for every bad input the core refuses. `code` is stable so front-ends
 * (CLI, server, webview) can branch on it; `message` is written for the user.
 */
export type RopeErrorCode =
  | 'invalid-base'
  | 'invalid-dimension'
  | 'invalid-factor'
  | 'invalid-length'
  | 'length-mismatch'
  | 'invalid-parameter'
  | 'unsupported-length'
  | 'unknown-rope-type'
  | 'parse-error'
  | 'cancelled';

export class RopeError extends Error {
  constructor(public readonly code: RopeErrorCode, message: string) {
    super(message);
    this.name = 'RopeError';
  }
}

/** Throws a RopeError unless `value` is a finite number. */
export function requireFinite(value: number, what: string, code: RopeErrorCode = 'invalid-parameter'): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RopeError(code, `${what} must be a finite number, got ${String(value)}`);
  }
  return value;
}
