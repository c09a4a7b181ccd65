/**
 * The minified bundles (what `npm run package` puts in the VSIX) name their backends: a minifier
 * renames classes, so a name read from `constructor.name` came out as `n` or `eE` there. Builds the
 * production bundles into .tmp/ (or uses ROPE_LENS_PRODUCTION_DIST, e.g. an unpacked VSIX's dist/),
 * then greps them and runs the minified CLI.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('production (minified) bundles name their backends', function () {
  this.timeout(300_000);
  let dist: string;
  let built = false;
  before(() => {
    dist = process.env.ROPE_LENS_PRODUCTION_DIST ?? join(ROOT, '.tmp', 'dist-production');
    if (!process.env.ROPE_LENS_PRODUCTION_DIST) {
      rmSync(dist, { recursive: true, force: true });
      execFileSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', dist], { cwd: ROOT, stdio: 'pipe' });
      built = true;
    }
  });
  after(() => {
    if (built) rmSync(dist, { recursive: true, force: true });
  });

  it('the bundles are minified and carry the backend names as data', () => {
    for (const f of ['extension.js', 'cli.js', 'server.js', 'media/inspector.js', 'media/kernels.js']) {
      const text = readFileSync(join(dist, f), 'utf8');
      assert.ok(!existsSync(join(dist, `${f}.map`)), `${f}.map shipped`);
      for (const name of ['WebGL2Kernel', 'WebAssemblyKernel', 'CPUKernel', 'WebGPUKernel']) {
        if (f === 'extension.js' || f === 'server.js') continue; // gpu.js runs in the CLI, the bench and the webviews
        assert.ok(text.includes(`"${name}"`), `${f} lacks the name ${name}`);
      }
    }
    assert.match(readFileSync(join(dist, 'cli.js'), 'utf8'), /WebGPU on /);
  });

  it('the minified CLI reports gpu.js kernels by class name (WebAssemblyKernel, CPUKernel), not a mangled one', () => {
    const out = execFileSync(
      process.execPath,
      [join(dist, 'cli.js'), 'bench', '--kernels', '--only', 'rope-rotate-half-gpu.js', '--repeats', '1', '--warmup', '1', '--json'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, ROPE_LENS_WEBGPU: '0' },
        maxBuffer: 1 << 26,
      },
    );
    const run = JSON.parse(out) as { results: { id: string; backend: string }[] };
    const backends = new Map(run.results.map((r) => [r.id, r.backend]));
    assert.equal(backends.get('rope-rotate-half-gpu.js (cpu mode)'), 'CPUKernel');
    // gpu.js's default mode in Node without headless-gl falls back to WebAssembly (a GPU class where one exists).
    assert.match(backends.get('rope-rotate-half-gpu.js (default mode)') ?? '', /^(WebAssemblyKernel|HeadlessGLKernel)$/);
  });
});
