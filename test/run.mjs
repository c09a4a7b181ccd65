// Runs the mocha suites and ends with the plain closing line CI reads: "N passed, N failed".
// `--fuzz` runs the long property runs (npm run fuzz) instead of the fast ones.
// The whole suite runs as two shards side by side (test/runShards.mjs): the editors, browsers and installs
// of one spend most of their time waiting on other processes, so the second core runs the other tiers.
import Mocha from 'mocha';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('tsx/cjs');

const fuzz = process.argv.includes('--fuzz');
const grepArg = process.argv.indexOf('--grep');
process.env.ROPE_LENS_FUZZ = fuzz ? '1' : '';
const userProofCache = process.env.ROPE_LENS_PROOF_CACHE;
// The persistent proof cache of every CLI and server the tests start lives in a fresh folder, never the user's.
process.env.ROPE_LENS_PROOF_CACHE ??= join(mkdtempSync(join(tmpdir(), 'rope-lens-proofs-')), 'proofs.json');

const mocha = new Mocha({ timeout: 60000, reporter: 'spec', color: false });
if (grepArg > 0) mocha.grep(process.argv[grepArg + 1]);
/** All *.test.ts files below the given folders (Node 20 has no fs.globSync). */
function testFiles(dirs) {
  const out = [];
  const walk = (d) => {
    let names;
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.test.ts')) out.push(p);
    }
  };
  dirs.forEach(walk);
  return out.sort();
}
const explicit = process.argv.slice(2).filter((a) => a.endsWith('.test.ts'));
const files = explicit.length ? explicit : testFiles(fuzz ? ['test/fuzz'] : ['test/unit', 'test/integration', 'test/e2e']);
if (!explicit.length && !fuzz && grepArg < 0 && process.env.ROPE_LENS_TEST_SHARDS !== '1') {
  const { runShards } = await import('./runShards.mjs');
  // Built once here, before either shard starts: no test rebuilds dist/ while the other shard runs its bundles.
  if (process.env.ROPE_LENS_TEST_BUILT !== '1') {
    const built = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
    if (built.status !== 0) process.exit(1);
  }
  process.exitCode = await runShards(files, userProofCache);
} else {
  runMocha();
}

function runMocha() {
  for (const f of files) mocha.addFile(f);

  // ROPE_LENS_TEST_TIMES=1 prints the slowest test files (wall time of each file's top-level suites, hooks included).
  const fileTimes = new Map();
  const runner = mocha.run((failures) => {
    const s = runner.stats ?? { passes: 0, failures, pending: 0 };
    if (process.env.ROPE_LENS_TEST_TIMES) {
      const rows = [...fileTimes].sort((a, b) => b[1] - a[1]).slice(0, 30);
      console.log('\nslowest files (s):');
      for (const [f, ms] of rows) console.log(`${(ms / 1000).toFixed(1).padStart(7)}  ${f}`);
    }
    console.log(`\n${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
    process.exitCode = s.failures > 0 || s.passes === 0 ? 1 : 0;
  });

  const suiteStarts = new Map();
  runner.on('suite', (suite) => {
    if (suite.file && suite.parent?.root) suiteStarts.set(suite, performance.now());
  });
  runner.on('suite end', (suite) => {
    const t0 = suiteStarts.get(suite);
    if (t0 !== undefined) fileTimes.set(suite.file, (fileTimes.get(suite.file) ?? 0) + performance.now() - t0);
  });
}
