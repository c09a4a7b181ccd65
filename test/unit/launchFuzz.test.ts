// The launch fuzz at npm test's size: a fixed seed, small inputs (npm run fuzz runs it large, test/fuzz/launch.test.ts).
import { launchProperties } from '../fuzz/launchProperty';

describe('robustness: hostile launch files and neighbours (fast run)', () => {
  launchProperties({ runs: 60, seed: Number(process.env.FUZZ_SEED ?? 20261128), maxSize: 20_000, growthSize: 2_000, walkSize: 50, walkDepth: 60, repeats: 2 });
});
