/**
 * The built browser language server (dist/web/server.js), loaded with a web worker's globals
 * only, answers `initialize` and `didOpen` with the same diagnostics (codes and ranges) as
 * `rope-lens check --json` on the same files: model configs, training and serving YAML, and launch
 * files of every kind (shell through tree-sitter's wasm, Dockerfiles, compose, Kubernetes,
 * Modelfiles). Also: the web bundles contain no Node built-ins.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { CLI, ROOT } from './lspHarness';
import { startWebServer, WEB_SERVER, type WebServer } from './webWorkerHarness';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const WEB_DIR = join(ROOT, 'dist', 'web');

/** The language VS Code gives each file (the CLI decides by name and text alone). */
function languageOf(path: string): string {
  const name = basename(path);
  if (/\.jsonc?$/.test(name)) return 'json';
  if (/compose.*\.ya?ml$/.test(name)) return 'dockercompose';
  if (/\.ya?ml$/.test(name)) return 'yaml';
  if (/\.(sh|bash)$/.test(name)) return 'shellscript';
  if (/Dockerfile/i.test(name)) return 'dockerfile';
  if (/Modelfile/i.test(name)) return 'ollama-modelfile';
  return 'plaintext';
}

const FILES = [
  ...['configs', 'training', 'serving'].flatMap((d) => readdirSync(join(FIXTURES, d)).map((n) => join(FIXTURES, d, n))),
  ...readdirSync(join(FIXTURES, 'launch', 'adapters')).map((n) => join(FIXTURES, 'launch', 'adapters', n)),
  ...readdirSync(join(ROOT, 'examples'))
    .filter((n) => /\.(json|ya?ml|sh)$/.test(n))
    .map((n) => join(ROOT, 'examples', n)),
]
  .filter((p) => statSync(p).isFile())
  .sort();

type Shape = { code?: string | number; range: { start: { line: number; character: number }; end: { line: number; character: number } } };
const shape = (d: Shape): string => `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`;

describe('the web build', function () {
  this.timeout(300000);
  before(function () {
    if (!existsSync(WEB_SERVER)) this.skip();
  });

  describe('bundles', () => {
    // A Node built-in in a web bundle is an import the browser cannot satisfy: the extension would not load.
    const NODE_ONLY = [
      /\brequire\(\s*["'](node:)?(fs|path|os|url|child_process|worker_threads|module|crypto|util|stream|net|http|https|zlib|perf_hooks|fs\/promises)["']\s*\)/,
      /\bimport\(\s*["'](node:)?[a-z_/]+["']\s*\)/,
      /\bfrom\s*["']node:/,
      /["']node:[a-z_/]+["']/,
      /\b__dirname\b/,
    ];
    // Buffer is Node's unless the bundle brings its own (server/web/bufferShim.ts, injected by esbuild.mjs).
    const NODE_BUFFER = /\bBuffer\.(from|alloc)\b/;
    const OWN_BUFFER = /\b(var|let|const)\s+Buffer\d*\b/;
    for (const bundle of ['server.js', 'bstarWorker.js', 'extension.js']) {
      it(`${bundle} has no Node built-in`, function () {
        const path = join(WEB_DIR, bundle);
        if (!existsSync(path)) this.skip();
        const text = readFileSync(path, 'utf8');
        for (const re of NODE_ONLY) {
          const m = re.exec(text);
          assert.equal(m, null, `${bundle} contains ${m?.[0]} (near: ${m ? text.slice(Math.max(0, m.index - 80), m.index + 80) : ''})`);
        }
        if (NODE_BUFFER.test(text)) assert.ok(OWN_BUFFER.test(text), `${bundle} uses Node's Buffer`);
        // `process` only behind a `typeof process` test in the same expression (libraries that also run on Node).
        for (const m of text.matchAll(/\bprocess\.(argv|env|exit|cwd|platform|versions)\b/g)) {
          const before = text.slice(Math.max(0, m.index - 120), m.index);
          assert.match(
            before,
            /typeof process\b/,
            `${bundle} reads ${m[0]} without testing for process (near: ${text.slice(Math.max(0, m.index - 80), m.index + 40)})`,
          );
        }
      });
    }
    it('the scan finds a Node built-in where there is one (the Node server bundle)', () => {
      const text = readFileSync(join(ROOT, 'dist', 'server.js'), 'utf8');
      assert.ok(/\brequire\(\s*["'](node:)?(fs|path|worker_threads)["']\s*\)/.test(text));
    });
  });

  describe('server in a worker context without Node', () => {
    let server: WebServer;
    let cli: Map<string, Shape[]>;
    let hfHome: string;
    before(async () => {
      // The CLI would also read a Hugging Face cache on this machine, which a browser has not got.
      hfHome = mkdtempSync(join(tmpdir(), 'rope-lens-web-hf-'));
      // Exit status 1 means "found errors": the JSON is on stdout either way.
      const run = spawnSync(process.execPath, [CLI, 'check', '--json', ...FILES], {
        env: { ...process.env, HF_HOME: hfHome, HF_HUB_CACHE: '', HUGGINGFACE_HUB_CACHE: '', HF_HUB_OFFLINE: '1' },
        maxBuffer: 64 << 20,
        cwd: ROOT,
      });
      const out = run.stdout.toString();
      assert.ok(out.startsWith('{'), `check --json printed no report (status ${run.status}): ${run.stderr}`);
      cli = new Map((JSON.parse(out).files as { path: string; diagnostics: Shape[] }[]).map((f) => [resolve(ROOT, f.path), f.diagnostics]));
      server = await startWebServer();
    });
    after(() => {
      server?.dispose();
      if (hfHome) rmSync(hfHome, { recursive: true, force: true });
    });

    it('has no require, process, Buffer, setImmediate or __dirname', () => {
      assert.deepEqual(
        { ...server.nodeGlobals },
        { require: 'undefined', process: 'undefined', Buffer: 'undefined', setImmediate: 'undefined', __dirname: 'undefined', module: 'undefined' },
      );
    });

    it('answers initialize with the desktop server capabilities', () => {
      const caps = server.initialize.capabilities;
      assert.ok(caps.hoverProvider && caps.codeActionProvider && caps.textDocumentSync);
      assert.equal(server.initialize.serverInfo?.name, 'rope-lens');
    });

    it(`publishes the CLI's diagnostics, codes and ranges, for ${FILES.length} files of every kind`, async () => {
      assert.ok(FILES.length >= 30, `${FILES.length} files`);
      const uris = new Map<string, string>();
      for (const f of FILES) uris.set(f, await server.open(f, languageOf(f)));
      const mismatches: string[] = [];
      // Bounds arrive after the first diagnostics, as on the desktop: wait for each file's final
      // state, all files within one deadline (a slow shared machine computes them in tens of seconds).
      const deadline = Date.now() + 150000;
      let withFindings = 0;
      for (const f of FILES) {
        const want = (cli.get(f) ?? []).map(shape).sort();
        if (want.length) withFindings++;
        const same = (d: { diagnostics: readonly Shape[] }) => JSON.stringify(d.diagnostics.map(shape).sort()) === JSON.stringify(want);
        try {
          await server.diagnosticsWhen(uris.get(f)!, same, Math.max(1, deadline - Date.now()));
        } catch (e) {
          const last = (e as { last?: { diagnostics: Shape[] } }).last;
          mismatches.push(
            `${f}\n  cli: ${want.join(', ') || '(none)'}\n  web: ${last ? last.diagnostics.map(shape).sort().join(', ') || '(none)' : '(nothing published)'}`,
          );
        }
      }
      assert.deepEqual(mismatches, [], `${mismatches.length} files differ; server log:\n${server.logs.join('\n')}`);
      // Not a vacuous match: most of these files have findings, and the launch files among them too.
      assert.ok(withFindings >= 20, `only ${withFindings} files have findings`);
      assert.ok(
        server.logs.every((l) => !/shell parser did not load/.test(l)),
        server.logs.join('\n'),
      );
    });

    it('reads workspace files through the client, never on its own', () => {
      assert.ok(
        server.reads.some((p) => p.endsWith('.rope-lens.yaml')),
        'the project file was looked up through the client',
      );
    });
  });
});
