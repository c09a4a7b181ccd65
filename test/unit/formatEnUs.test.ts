import { strict as assert } from 'node:assert';
import { enUS, type EnUsOptions } from '../../shared/core/format';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const OPTIONS: (EnUsOptions | undefined)[] = [
  undefined,
  { maximumFractionDigits: 0 },
  { maximumFractionDigits: 1 },
  { maximumFractionDigits: 2 },
  { maximumFractionDigits: 3 },
  { maximumFractionDigits: 4 },
  { maximumSignificantDigits: 7, useGrouping: false },
  { maximumSignificantDigits: 3 },
];

describe('enUS: toLocaleString("en-US") without ICU', () => {
  it('writes what Intl writes, for integers, decimals, ties and edge values', () => {
    const r = rng(36);
    const values: number[] = [
      0,
      -0,
      1,
      -1,
      0.5,
      1.5,
      2.5,
      -0.5,
      0.05,
      0.005,
      1.005,
      1.0005,
      9.9995,
      99.995,
      999.9995,
      0.0004,
      -0.0004,
      1e20,
      123456789012345680000,
      1e-6,
      1e-7,
      5e-7,
      Infinity,
      -Infinity,
      NaN,
      Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      131072,
      1e6,
      10000,
      40889.94,
      0.1 + 0.2,
      1 / 3,
      2 / 3,
    ];
    for (let i = 0; i < 1000; i++) {
      const mag = 10 ** Math.floor(r() * 26 - 8);
      values.push(
        r() * mag,
        -r() * mag,
        Math.round(r() * mag),
        Math.round(r() * 1e5) / 1000 + 0.0005,
        Math.round(r() * 1e4) / 100 + 0.005,
        Math.round(r() * 1e3) + 0.5,
      );
    }
    for (const v of values) {
      for (const o of OPTIONS) assert.equal(enUS(v, o), v.toLocaleString('en-US', o), `${v} ${JSON.stringify(o)}`);
    }
  });
});
