/**
 * Issue 34, deliverable 3, through the built CLI: a line that looks like a launch but is not judged
 * is said in the summary (apart from models not found offline), listed by --verbose and marked
 * `unread` in --json; the launches read from the new shapes give their findings.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const said = join(root, 'test/fixtures/launch/said');
const cli = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', ...args], { cwd: root, encoding: 'utf8' });

describe('rope-lens check: every launch read or said (issue 34)', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });

  it('RUN vllm serve: one launch/not-read note (issue 40), one summary line that says which line and why', () => {
    const f = join(said, 'Dockerfile.run-serve');
    const r = cli(f);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.replace(f, 'F').split(' ').slice(0, 3).join(' ')),
      ['F:4:1 information launch/not-read'],
    );
    assert.match(
      r.stderr,
      new RegExp(
        `^1 line that looks like a launch not judged: ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:1 RUN vllm serve … runs while the image is built`,
        'm',
      ),
    );
    assert.doesNotMatch(r.stderr, /models? (was )?not found/);
  });

  it('--verbose lists each line not read; --json marks it unread with the reason', () => {
    const f = join(said, 'compose-args/docker-compose.yml');
    const v = cli(f, '--verbose');
    assert.match(v.stderr, /^1 line that looks like a launch not judged:$/m);
    assert.match(
      v.stderr,
      /^ {2}\S+docker-compose\.yml:9:15 Arguments for the image registry\.example\.com\/ml\/llm-api:2\.3, whose entrypoint is unknown, are not read/m,
    );
    const j = JSON.parse(cli(f, '--format', 'json').stdout) as { files: { launches: { unread?: boolean; unjudged?: string; program: string }[] }[] };
    const unread = j.files[0].launches.filter((l) => l.unread);
    assert.equal(unread.length, 1);
    assert.equal(unread[0].program, 'registry.example.com/ml/llm-api:2.3');
  });

  it('the shapes the held-out set missed each give their finding (exit 1 on the errors)', () => {
    const r = cli(...['pm2-serve.sh', 'eval-cmd.sh', 'bash-c-cmd.sh', 'llama-arg-wrapper.sh', 'Dockerfile.sh-c'].map((n) => join(said, n)));
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.split('\n').filter(Boolean);
    for (const [file, code] of [
      ['pm2-serve.sh:6:', 'vllm/max-model-len-exceeds'],
      ['eval-cmd.sh:9:', 'vllm/max-model-len-exceeds'],
      ['bash-c-cmd.sh:2:', 'vllm/max-model-len-exceeds'],
      ['llama-arg-wrapper.sh:3:', 'launch/length-exceeds-derived'],
      ['Dockerfile.sh-c:8:6', 'launch/cmd-after-entrypoint'],
    ])
      assert.ok(
        lines.some((l) => l.includes(`/${file}`) && l.includes(` ${code} `)),
        `${file} ${code}:\n${r.stdout}`,
      );
  });
});
