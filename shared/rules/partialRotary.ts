/** rope/partial-rotary-range (error): vLLM raises unless 0 < partial_rotary_factor ≤ 1. */
import { Rule, finding, rangeFor } from './context';

export const PARTIAL_ROTARY_RANGE = 'rope/partial-rotary-range';

export const partialRotaryRule: Rule = {
  codes: [PARTIAL_ROTARY_RANGE],
  check(ctx) {
    const p = ctx.model?.partialRotaryFactor;
    if (!p?.node || (p.value > 0 && p.value <= 1)) return [];
    return [
      finding(
        PARTIAL_ROTARY_RANGE,
        'error',
        `${p.key ?? 'partial_rotary_factor'}=${p.value} must be between 0.0 and 1.0: it is the fraction of each head's channels that rotate.`,
        rangeFor(ctx.doc, p),
      ),
    ];
  },
};
