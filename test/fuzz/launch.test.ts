// npm run fuzz: hostile launch files (ROPE_LENS_FUZZ_RUNS inputs, default 2,000; FUZZ_SEED to replay).
import { fuzzSeed } from './harness';
import { launchProperties } from './launchProperty';

describe('fuzz: launch readers and the workspace walk', () => {
  launchProperties({
    runs: Number(process.env.ROPE_LENS_FUZZ_RUNS ?? 2000),
    seed: fuzzSeed('launch fuzz'),
    maxSize: 200_000,
    growthSize: 10_000,
    walkSize: 300,
    walkDepth: 150,
    repeats: 5,
  });
});
