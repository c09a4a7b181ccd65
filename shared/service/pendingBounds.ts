/** Bound questions asked more than once in one analysis are asked once. */
import type { PendingBound } from '../core/findings';

export function dedupePending(p: PendingBound[]): PendingBound[] {
  const seen = new Set<string>();
  return p.filter((x) => {
    const k = `${x.length}/${x.headDim}/${x.base ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
