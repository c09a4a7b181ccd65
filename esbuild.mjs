// Bundles every entry point into dist/. Entries whose source does not exist yet are skipped,
// so a partial tree still builds. `--production` minifies and drops sourcemaps.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { readFileSync, statSync } from 'node:fs';

const production = process.argv.includes('--production');
// `--outdir DIR` builds into DIR instead of dist/ (e.g. a minified build beside the development one).
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt > 0 ? process.argv[outdirAt + 1] : 'dist';
const at = (p) => outdir + p.slice('dist'.length);

// A production build ships without sourcemaps: remove those a development build left behind.
function removeSourcemaps(dir) {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) removeSourcemaps(p);
    else if (e.name.endsWith('.map')) rmSync(p);
  }
}
if (production) removeSourcemaps(outdir);

const nodeEntries = [
  ['client/extension.ts', 'dist/extension.js'],
  ['server/server.ts', 'dist/server.js'],
  ['server/cli/main.ts', 'dist/cli.js'],
  ['shared/node/worker.ts', 'dist/bstarWorker.js'],
  ['shared/node/webgpuWorker.ts', 'dist/webgpuWorker.js'],
  ['shared/node/webgpuProbeChild.ts', 'dist/webgpuProbe.js'],
  ['shared/node/proofWorker.ts', 'dist/proofWorker.js'],
  ['shared/node/pinsWorker.ts', 'dist/pinsWorker.js'],
  ['test/bench/main.ts', 'dist/bench.js'],
];
const browserEntries = [
  ['media/src/inspector.ts', 'dist/media/inspector.js'],
  ['media/src/kernels.ts', 'dist/media/kernels.js'],
];

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  target: 'es2022',
  logLevel: 'warning',
  legalComments: 'none',
};

// The rule pages (docs/rules/<code>.md), built into the bundles: `rope-lens rules CODE` and SARIF's
// rule help read them from here, never from docs/ at run time (server/cli/rulePages.ts).
function rulePages(dir) {
  const out = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out[relative(dir, p).split(sep).join('/').replace(/\.md$/, '')] = readFileSync(p, 'utf8');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}
const pagesDefine = { ROPE_LENS_RULE_PAGES: JSON.stringify(rulePages('docs/rules')) };

const builds = [];
for (const [src, out] of nodeEntries) {
  if (!existsSync(src)) continue;
  builds.push(
    esbuild.build({
      ...common,
      entryPoints: [src],
      outfile: at(out),
      platform: 'node',
      format: 'cjs',
      // vscode is provided by the host; gl is headless-gl's native module, which must stay a real
      // require() (a bundled copy cannot find webgl.node and gpu.js would silently fall back).
      external: ['vscode', 'gl', 'webgpu'],
      // jsonc-parser's UMD "main" requires its modules dynamically (esbuild cannot follow that); its ESM build bundles.
      mainFields: ['module', 'main'],
      define: pagesDefine,
    }),
  );
}
for (const [src, out] of browserEntries) {
  if (!existsSync(src)) continue;
  builds.push(
    esbuild.build({
      ...common,
      entryPoints: [src],
      outfile: at(out),
      platform: 'browser',
      format: 'iife',
    }),
  );
}
// The web extension (vscode.dev, github.dev): the client in VS Code's web worker extension host
// (CommonJS, `vscode` from the host) and the language server in its own web worker, plus the b*
// worker it starts. No Node built-in may reach these bundles: an import of one fails the build
// (test/integration/webBundle.test.ts scans the output as well). web-tree-sitter's Emscripten glue
// probes for Node at run time and then requires fs, path, url and module; in the web build those
// probes are the constant false, so those branches are dropped instead of shipped.
const builtins = new Set(builtinModules);
const NODE_PROBES = [
  'typeof process == "object" && typeof process.versions == "object" && typeof process.versions.node == "string" && process.type != "renderer"',
  'globalThis.process?.versions.node',
];
const webOnly = {
  name: 'web-only',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!builtins.has(name) && !builtins.has(name.split('/')[0])) return undefined;
      return { errors: [{ text: `the web build cannot use the Node built-in "${args.path}" (imported by ${relative('.', args.importer)})` }] };
    });
    b.onLoad({ filter: /[\\/]web-tree-sitter[\\/]tree-sitter\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      for (const probe of NODE_PROBES) {
        if (!text.includes(probe)) return { errors: [{ text: `${args.path}: its Node probe changed; update esbuild.mjs` }] };
        text = text.replaceAll(`if (${probe})`, 'if (false)').replaceAll(probe, 'false');
      }
      return { contents: text.replaceAll('if (ENVIRONMENT_IS_NODE) {', 'if (false) {'), loader: 'js' };
    });
  },
};
const webEntries = [
  ['client/browserExtension.ts', 'dist/web/extension.js', 'cjs'],
  ['server/browserServer.ts', 'dist/web/server.js', 'iife'],
  ['server/web/boundWorker.ts', 'dist/web/bstarWorker.js', 'iife'],
];
for (const [src, out, format] of webEntries) {
  if (!existsSync(src)) continue;
  builds.push(
    esbuild.build({
      ...common,
      entryPoints: [src],
      outfile: at(out),
      platform: 'browser',
      format,
      external: ['vscode'],
      mainFields: ['browser', 'module', 'main'],
      // web-tree-sitter's ESM build reads import.meta.url only to find its wasm, which the server passes in.
      define: { ...pagesDefine, 'import.meta.url': 'undefined' },
      // Syntax minification drops the `if (false)` branches above; names and layout stay readable.
      minifySyntax: true,
      plugins: [webOnly],
      inject: ['server/web/bufferShim.ts'],
    }),
  );
}
await Promise.all(builds);

// Node reads a bundle into one JavaScript string and keeps it for lazy compilation: one non-Latin-1
// character anywhere makes V8 store all of it two bytes per character (dist/server.js: 5 MB instead
// of 2.5 MB of the language server's heap). esbuild already escapes every such character in strings,
// regular expressions and names (charset 'ascii'), so those left are in comments (→, —, …): write
// each UTF-16 unit of them as '?', which keeps every column the sourcemap points at.
for (const [src, out] of nodeEntries) {
  if (!existsSync(src)) continue;
  const file = at(out);
  const text = readFileSync(file, 'utf8');
  const nonAscii = /[\u0080-\uffff]/g;
  if (nonAscii.test(text)) writeFileSync(file, text.replace(nonAscii, '?'));
}

// The shell grammar for launch files: web-tree-sitter's runtime and tree-sitter-bash, loaded at run
// time from next to the bundle (shared/node/shellParser.ts looks there first).
const require = createRequire(import.meta.url);
mkdirSync(outdir, { recursive: true });
for (const wasm of ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  const from = require.resolve(wasm);
  copyFileSync(from, join(outdir, wasm.slice(wasm.indexOf('/') + 1)));
  // The web server fetches them from beside its own bundle (server/web/shellParser.ts).
  if (existsSync(join(outdir, 'web'))) copyFileSync(from, join(outdir, 'web', wasm.slice(wasm.indexOf('/') + 1)));
}
