// npm run fuzz: 100,000 inputs per property (ROPE_LENS_FUZZ_RUNS to change; FUZZ_SEED to replay).
import { fuzzSeed } from './harness';
import { serviceProperties } from './properties';

describe('fuzz: analysis service', () => {
  const runs = Number(process.env.ROPE_LENS_FUZZ_RUNS ?? 100_000);
  serviceProperties(runs, fuzzSeed('service fuzz'));
});
