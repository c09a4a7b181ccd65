/** Cooperative cancellation shared by the b* sweep, its witness search and the threshold scan. */
import { RopeError } from '../core/errors';

export interface Cancellable {
  aborted: boolean;
}

export function throwIfAborted(signal: Cancellable | undefined): void {
  if (signal?.aborted) throw new RopeError('cancelled', 'b* computation was cancelled');
}
