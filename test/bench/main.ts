/**
 * `npm run bench`: every speed and size target, as ratios against baselines measured in the same run.
 * `--only bstar|bstar-long|server|kernels|plan|gguf|launch|repo-scan|neighbours|hover-neighbours|proven-table` runs one suite; `--json FILE` also writes the rows as JSON;
 * `--quick` leaves out b* at 2^24 (the long suite alone takes a few minutes).
 */
import { writeFileSync } from 'node:fs';
import { BenchReport } from './report';
import * as bstar from './bstar';
import * as server from './server';
import * as kernels from './kernels';
import * as plan from './plan';
import * as gguf from './gguf';
import * as launch from './launch';
import * as repoScan from './repoScan';
import * as neighbours from './neighbours';
import * as hoverNeighbours from './hoverNeighbours';
import * as provenTable from './provenTable';

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
  const quick = args.includes('--quick');
  const SUITES: Record<string, { runBench(r: BenchReport): Promise<void> }> = {
    bstar,
    'bstar-long': { runBench: (r) => bstar.runLongBench(r, quick) },
    server,
    kernels,
    plan,
    gguf,
    launch,
    'repo-scan': repoScan,
    neighbours,
    'hover-neighbours': hoverNeighbours,
    'proven-table': provenTable,
  };
  const report = new BenchReport();
  for (const [name, suite] of Object.entries(SUITES)) {
    if (only && only !== name) continue;
    await suite.runBench(report);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report.toJSON(), null, 2));
}

main().catch((e) => {
  console.error(`bench: ${e?.message ?? e}`);
  process.exitCode = 1;
});
