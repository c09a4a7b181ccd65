/**
 * `serve` and `check` give one answer for a model without RoPE: the same sentence (one code path,
 * shared/config/noRopeModel.ts), on the real tt-xla launch of BAAI/bge-m3. `check` sums it up apart
 * from the models not found offline, and asks for no Hub lookup.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ROPE_LENS_HUB: '' } });
const fixture = 'test/fixtures/launch/recall/tenstorrent__tt-xla__BGE-M3-service.sh';

describe('a model without RoPE: serve and check say the same', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });

  it('`serve BAAI/bge-m3` and `check` on its launch share the sentence; check asks for no --hub', () => {
    const s = run('serve', 'BAAI/bge-m3');
    const said = /(BAAI\/bge-m3 has no rotary position embedding \(.+\)): there is no RoPE to serve/.exec(s.stderr);
    assert.ok(said, s.stderr);
    const c = run('check', fixture);
    assert.equal(c.status, 0, c.stdout + c.stderr);
    assert.ok(c.stderr.includes(`${said[1]}: there is no RoPE to judge.`), c.stderr);
    assert.match(c.stderr, /^1 launch not judged for what it says \(no RoPE, no model named/m);
    assert.doesNotMatch(c.stderr, /not found offline/);
  });
});
