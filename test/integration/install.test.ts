/**
 * The README's install lines that run offline, for real: `npm pack` of this checkout gives a tarball
 * that `npm install -g` installs with nothing else (no registry: the package has no runtime
 * dependencies, its bundles are in the tarball), and the installed `rope-lens` checks files and
 * prints rule pages from any folder. (The git-URL line runs the same `prepare` build npm runs for
 * any git dependency; the pre-commit test exercises that path.)
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('install from a packed tarball (npm pack → npm install -g ./rope-lens-<version>.tgz)', function () {
  this.timeout(300_000);
  let tmp: string;
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-install-'));
  });
  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('packs the built CLI and installs it globally into a fresh prefix; the installed bin works anywhere', () => {
    const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
    // The bundles are already built (the test run builds them); --ignore-scripts skips a second build.
    const pack = spawnSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root, env, encoding: 'utf8' });
    assert.equal(pack.status, 0, pack.stderr);
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    assert.equal(info.filename, `rope-lens-${version}.tgz`);
    const files = info.files.map((f) => f.path);
    for (const f of [
      'bin/rope-lens.js',
      'dist/cli.js',
      'dist/bstarWorker.js',
      'dist/pinsWorker.js',
      'dist/webgpuWorker.js',
      'dist/webgpuProbe.js',
      'dist/server.js',
      'dist/tree-sitter-bash.wasm',
      'docs/rules.md',
    ])
      assert.ok(files.includes(f), `${f} missing from the tarball`);
    assert.ok(
      !files.some((f) => f.startsWith('shared/') || f.startsWith('test/') || f.endsWith('.map') || f === 'dist/extension.js' || f.startsWith('dist/web/')),
      'sources, tests, sourcemaps and the extension (desktop and web) stay out',
    );

    const prefix = join(tmp, 'prefix');
    const install = spawnSync(npm, ['install', '-g', '--offline', '--prefix', prefix, join(tmp, info.filename)], { cwd: tmp, env, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    const bin = join(prefix, 'bin', 'rope-lens');
    assert.ok(existsSync(bin), `${bin} not installed`);

    const cfg = JSON.parse(readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8'));
    writeFileSync(join(tmp, 'config.json'), JSON.stringify({ ...cfg, max_position_embeddings: 65536 }, null, 2));
    const check = spawnSync(bin, ['check', 'config.json'], { cwd: tmp, env, encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr); // a warning; the default --fail-on is error
    assert.match(check.stdout, /^config\.json:\d+:\d+ warning rope\/context-extended /m);
    const launch = spawnSync(bin, ['check', join(root, 'examples', 'serve-qwen2.5-128k.sh')], { cwd: tmp, env, encoding: 'utf8' });
    assert.match(launch.stdout, /launch\/implicit-linear/, launch.stderr);
    const page = spawnSync(bin, ['rules', 'rope/context-extended'], { cwd: tmp, env, encoding: 'utf8' });
    assert.match(page.stdout, /^# rope\/context-extended\n/);
    assert.equal(spawnSync(bin, ['--version'], { cwd: tmp, env, encoding: 'utf8' }).stdout.trim(), version);
  });
});
