// The whole suite as two shards in parallel, each a `node test/run.mjs <files>` of its own: one holds the
// tests that drive other programs (editors, browsers, npm and pre-commit installs, the Hub stub), the other
// everything else. Each shard's output is printed whole when it ends; the closing line sums both.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Files whose time goes mostly to waiting on another process. */
const WAITING = [/[\\/]e2e[\\/]/, /[\\/]integration[\\/](precommit|install|action|hub)\.test\.ts$/];

function runShard(name, files, proofCache) {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      ROPE_LENS_TEST_SHARDS: '1',
      ROPE_LENS_TEST_BUILT: '1',
      // Each shard's servers and CLIs keep their proofs in a cache of their own (never the user's).
      ROPE_LENS_PROOF_CACHE: proofCache ?? join(mkdtempSync(join(tmpdir(), 'rope-lens-proofs-')), 'proofs.json'),
    };
    const child = spawn(process.execPath, ['test/run.mjs', ...files], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('close', (code) => {
      const text = Buffer.concat(out).toString('utf8');
      process.stdout.write(`\n===== shard ${name}: ${files.length} files =====\n${text}`);
      const m = text.match(/(\d+) passed, (\d+) failed, (\d+) skipped\s*$/);
      resolve(m ? { passed: +m[1], failed: +m[2], skipped: +m[3], code } : { passed: 0, failed: 1, skipped: 0, code });
    });
  });
}

export async function runShards(files, proofCache) {
  const waiting = files.filter((f) => WAITING.some((re) => re.test(f)));
  const rest = files.filter((f) => !waiting.includes(f));
  const results = await Promise.all([runShard('editors, browsers and installs', waiting, proofCache), runShard('unit and integration', rest, proofCache)]);
  const sum = (k) => results.reduce((n, r) => n + r[k], 0);
  const failed = sum('failed') + results.filter((r) => r.code !== 0 && r.failed === 0).length;
  console.log(`\n${sum('passed')} passed, ${failed} failed, ${sum('skipped')} skipped`);
  return failed > 0 || sum('passed') === 0 ? 1 : 0;
}
