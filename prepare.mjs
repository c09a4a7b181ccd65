// `npm run prepare`: builds the bundles (esbuild.mjs). npm runs it after `npm install` in a checkout
// and when it installs this repository from git — `npm install -g git+…`, pre-commit's
// `language: node`. For a *global* git install npm prepares the clone with the global settings of
// the outer command, so the clone's devDependencies (esbuild among them) are not installed and the
// build cannot start. Then the devDependencies are installed here, locally in the clone (npm's own
// settings from the outer command removed), and the build runs.
//
// Nothing is written to stdout: `npm pack` (pre-commit installs the hook with it) must print only the
// tarball's name there, so the children's stdout goes to stderr (and .npmrc keeps npm's own script
// banner off stdout under npm 11).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const hasEsbuild = () => {
  try {
    require.resolve('esbuild');
    return true;
  } catch {
    return false;
  }
};

if (!hasEsbuild() && process.env.npm_execpath) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^npm_config_/i.test(k) || /^npm_config_(cache|registry|userconfig|globalconfig|https?_proxy|proxy|noproxy|strict_ssl|cafile|ca)$/i.test(k),
    ),
  );
  console.error('rope-lens prepare: installing the build tools into this clone (npm prepared it without its devDependencies)');
  const r = spawnSync(
    process.execPath,
    [process.env.npm_execpath, 'install', '--include=dev', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', '--prefix', process.cwd()],
    { stdio: ['inherit', 2, 2], env, cwd: process.cwd() },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const build = spawnSync(process.execPath, ['esbuild.mjs', ...process.argv.slice(2)], { stdio: ['inherit', 2, 2] });
process.exit(build.status ?? 1);
