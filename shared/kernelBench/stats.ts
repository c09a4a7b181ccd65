/** Order statistics for benchmark samples (pure). */
import { RopeError } from '../core/errors';

/** Linear-interpolated quantile (q in [0, 1]) of unsorted samples, as numpy's default. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new RopeError('invalid-parameter', 'no samples');
  if (!(q >= 0 && q <= 1)) throw new RopeError('invalid-parameter', `quantile must be in [0, 1], got ${q}`);
  const s = [...samples].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

export interface SampleSummary {
  median: number;
  min: number;
  max: number;
  p25: number;
  p75: number;
  /** Interquartile range relative to the median, in percent: the spread reported beside the median. */
  iqrPct: number;
}

export function summarize(samples: readonly number[]): SampleSummary {
  const med = median(samples);
  const p25 = quantile(samples, 0.25);
  const p75 = quantile(samples, 0.75);
  return {
    median: med,
    min: Math.min(...samples),
    max: Math.max(...samples),
    p25,
    p75,
    iqrPct: med > 0 ? ((p75 - p25) / med) * 100 : 0,
  };
}
