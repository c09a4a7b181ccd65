/** Which consumer rows the workspace's pins say are in use (shared by the consumer rules). */
import type { ConsumerReading } from '../serving/consumer';
import { inRange } from '../serving/consumer';
import type { ConsumerPin } from '../serving/pins';

/**
 * The pin that puts `row` in use: same package, and a version inside the row's release range.
 * A pin without a version means a current release: it selects the row with no upper bound.
 */
export function pinFor(row: ConsumerReading, pins: readonly ConsumerPin[] | undefined): ConsumerPin | undefined {
  return pins?.find((p) => p.pkg === row.pkg && (p.version === null ? !row.range?.before : inRange(p.version, row.range)));
}
