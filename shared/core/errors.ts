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
  constructor(
    public readonly code: RopeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RopeError';
  }
}
