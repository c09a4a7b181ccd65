/**
 * The bundles the CLI and server tests start (dist/): built once per test process. `npm test` builds
 * before the tiers start and says so (ROPE_LENS_TEST_BUILT=1): then nothing rebuilds dist/ while the
 * other shard's tests are running its files; a single test file run alone still builds what it needs.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
let built = false;

export function buildOnce(): void {
  if (built || process.env.ROPE_LENS_TEST_BUILT === '1') return;
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  built = true;
}
