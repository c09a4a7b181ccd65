// npm run fuzz: the server property over stdio with many inputs (ROPE_LENS_FUZZ_RUNS, default
// 10,000 here since each input is a round trip through the server process; FUZZ_SEED to replay).
import { BUILT } from '../integration/lspHarness';
import { fuzzSeed } from './harness';
import { serverProperty } from './serverProperty';

describe('fuzz: language server over stdio', function () {
  before(function () {
    if (!BUILT) this.skip();
  }); // skipped: dist/cli.js not built
  const runs = Number(process.env.ROPE_LENS_FUZZ_RUNS ?? 10_000);
  serverProperty(runs, fuzzSeed('server fuzz'));
});
