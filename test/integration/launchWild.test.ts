/**
 * Issue 27 through the CLI: `rope-lens check --json` over test/fixtures/launch/wild (real public launch files
 * with sourced wrappers, Dockerfiles on ordinary images, compose, KubeAI and GKE manifests, llama-cpp-python
 * and Megatron launches, and the issue's own examples), held to that folder's manifest.json: every launch
 * read with its program, model and length; every deserved finding on the token the user wrote; nothing
 * loud on files that deserve nothing. The folder is also checked as a folder, as a repository scan finds it.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const WILD = join(ROOT, 'test', 'fixtures', 'launch', 'wild');
const CLI = join(ROOT, 'bin', 'rope-lens.js');

interface Pos {
  line: number;
  character: number;
}
interface Range {
  start: Pos;
  end: Pos;
}
interface Launch {
  program: string;
  model: string | null;
  requestedLength: number | null;
  overrides: unknown;
  range: Range;
  notes: string[];
}
interface Diag {
  code: string;
  severity: string;
  message: string;
  range: Range;
}
interface FileOut {
  path: string;
  kind: string;
  launches?: Launch[];
  diagnostics: Diag[];
}
interface Entry {
  file: string;
  launches: { program: string; model: string | null; requestedLength: number | null; overrides: unknown; line: number }[];
  expectFindings: 'none' | { severity: string; line: number; token: string; why: string }[];
}

const manifest: Entry[] = JSON.parse(readFileSync(join(WILD, 'manifest.json'), 'utf8')).files;
const abs = (f: string) => join(WILD, ...f.split('/'));

function textAt(t: string, r: Range): string {
  const lines = t.split('\n');
  if (r.start.line !== r.end.line) return '';
  return (lines[r.start.line] ?? '').slice(r.start.character, r.end.character);
}

describe('issue 27 launches: rope-lens check --json over test/fixtures/launch/wild', function () {
  this.timeout(120000);
  const byFile = new Map<string, FileOut>();
  let folderRun: FileOut[] = [];

  before(() => {
    assert.ok(existsSync(join(ROOT, 'dist', 'cli.js')), 'dist/cli.js is missing: build first (node esbuild.mjs)');
    const r = spawnSync(process.execPath, [CLI, 'check', '--json', '--fail-on', 'never', ...manifest.map((e) => abs(e.file))], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    assert.equal(r.status, 0, r.stderr);
    for (const f of (JSON.parse(r.stdout) as { files: FileOut[] }).files) {
      const e = manifest.find((m) => abs(m.file) === f.path);
      if (e) byFile.set(e.file, f);
    }
    const folder = spawnSync(process.execPath, [CLI, 'check', '--json', '--fail-on', 'never', WILD], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(folder.status, 0, folder.stderr);
    folderRun = (JSON.parse(folder.stdout) as { files: FileOut[] }).files;
  });

  it('a folder scan finds every file by its name and content (Containerfile, x-Dockerfile, *.zsh, compose.override.yaml, k8s YAML)', () => {
    const found = new Set(folderRun.map((f) => f.path));
    const missing = manifest.map((e) => abs(e.file)).filter((p) => !found.has(p));
    assert.deepEqual(missing, []);
  });

  for (const e of manifest) {
    describe(e.file, () => {
      const report = () => {
        const r = byFile.get(e.file);
        assert.ok(r, `${e.file}: no report`);
        return r!;
      };
      it(e.launches.length ? `reads ${e.launches.length} launch(es)` : 'launches nothing and gets no finding', () => {
        const r = report();
        const got = r.launches ?? [];
        const show = got.map((l) => `${l.program}@${l.range.start.line + 1} ${l.model} ${l.requestedLength}`).join('; ');
        if (!e.launches.length) {
          assert.equal(r.kind, 'other', `kind ${r.kind}: ${show}`);
          assert.deepEqual(
            r.diagnostics.map((d) => d.code),
            [],
          );
          return;
        }
        assert.equal(got.length, e.launches.length, show);
        for (const want of e.launches) {
          const l = got.find((x) => x.range.start.line <= want.line - 1 && want.line - 1 <= x.range.end.line);
          assert.ok(l, `no launch spans line ${want.line}: ${show}`);
          assert.equal(l!.program, want.program, `line ${want.line}: program`);
          const modelOk = want.model === null ? l!.model === null || (l!.model ?? '').includes('$') : l!.model === want.model;
          assert.ok(modelOk, `line ${want.line}: model ${l!.model}, expected ${want.model}`);
          assert.equal(l!.requestedLength, want.requestedLength, `line ${want.line}: requestedLength`);
        }
      });
      if (e.expectFindings === 'none') {
        it('no error or warning', () => {
          const loud = report().diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
          assert.deepEqual(
            loud.map((d) => `${d.severity} ${d.code} @${d.range.start.line + 1}: ${d.message}`),
            [],
          );
        });
      } else {
        for (const f of e.expectFindings) {
          it(`${f.severity} on ${JSON.stringify(f.token)} at line ${f.line}: ${f.why}`, () => {
            const r = report();
            const t = readFileSync(abs(e.file), 'utf8');
            const on = r.diagnostics.filter((d) => d.range.start.line === f.line - 1 && [f.token, `"${f.token}"`].includes(textAt(t, d.range)));
            assert.ok(
              on.some((d) => d.severity === f.severity),
              `no ${f.severity} on ${f.token}; on that token: [${on.map((d) => `${d.severity} ${d.code}`).join(', ')}]; all: [${r.diagnostics.map((d) => `${d.severity} ${d.code} @${d.range.start.line + 1}:${d.range.start.character + 1} ${JSON.stringify(textAt(t, d.range))}`).join('; ')}]`,
            );
          });
        }
      }
    });
  }
});
