/**
 * Launch-file conformance: `rope-lens check --json` over a corpus of real public launch files
 * (shell scripts, Dockerfiles, compose files, Kubernetes manifests, Ollama Modelfiles; sources in
 * test/fixtures/launch/corpus/SOURCES.md) and constructed mistakes, held to manifest.json — written
 * by reading each file against the engines' own behaviour, never produced by rope-lens.
 *
 * Builds nothing: `npm test` builds dist first. A missing build is a failure, not a skip.
 * Every failure message names the file, the launch (by manifest line) and the field that differs.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CORPUS = join(ROOT, 'test', 'fixtures', 'launch', 'corpus');
const CLI = join(ROOT, 'bin', 'rope-lens.js');
const NOT_CORPUS = new Set(['manifest.json', 'SOURCES.md', 'README.md']);

type Severity = 'error' | 'warning' | 'information';
interface ManifestLaunch {
  program: string;
  model: string | null;
  requestedLength: number | null;
  overrides: Record<string, unknown> | null;
  line: number;
}
interface ManifestFinding {
  severity: Severity;
  line: number;
  token: string;
  why: string;
}
interface ManifestEntry {
  file: string;
  launches: ManifestLaunch[];
  expectFindings: 'none' | ManifestFinding[];
  note?: string;
}

interface Pos {
  line: number;
  character: number;
}
interface Range {
  start: Pos;
  end: Pos;
}
interface Edit {
  range: Range;
  newText: string;
}
interface Fix {
  title: string;
  edits: Edit[];
}
interface Diag {
  code: string;
  severity: string;
  message: string;
  range: Range;
  fixes?: Fix[];
}
interface LaunchOut {
  program: string;
  role: string;
  source: string;
  model: string | null;
  resolvedFrom: string | null;
  requestedLength: number | null;
  lengthOption: string | null;
  derivedMaxLen: number | null;
  trainedContext: number | null;
  ropeOptions: Record<string, string>;
  overrides: Record<string, unknown> | null;
  env: Record<string, string>;
  range: Range;
  notes: string[];
}
interface FileOut {
  path: string;
  kind: string;
  launches?: LaunchOut[];
  diagnostics: Diag[];
}

const manifest: ManifestEntry[] = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')).files;
const abs = (file: string) => join(CORPUS, ...file.split('/'));
const text = (file: string) => readFileSync(abs(file), 'utf8');

/** Every file under the corpus folder (relative, '/'-separated), README/SOURCES/manifest aside. */
function corpusFiles(dir = CORPUS): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...corpusFiles(p));
    else if (!(dir === CORPUS && NOT_CORPUS.has(n))) out.push(relative(CORPUS, p).split(sep).join('/'));
  }
  return out.sort();
}

/** Offset of an LSP position (0-based line, UTF-16 character) in `t`; -1 when it is not in the text. */
function offsetOf(t: string, p: Pos): number {
  let off = 0;
  for (let l = 0; l < p.line; l++) {
    const nl = t.indexOf('\n', off);
    if (nl < 0) return -1;
    off = nl + 1;
  }
  const lineEnd = t.indexOf('\n', off) < 0 ? t.length : t.indexOf('\n', off);
  const lineText = t.slice(off, lineEnd).replace(/\r$/, '');
  return p.character <= lineText.length ? off + p.character : -1;
}

function rangeText(t: string, r: Range): string | undefined {
  const a = offsetOf(t, r.start);
  const b = offsetOf(t, r.end);
  return a < 0 || b < a ? undefined : t.slice(a, b);
}

const show = (l: LaunchOut) => `${l.program}@${l.range.start.line + 1}-${l.range.end.line + 1} model=${JSON.stringify(l.model)} len=${l.requestedLength}`;
const showDiag = (d: Diag) => `${d.severity} ${d.code} @${d.range.start.line + 1}:${d.range.start.character + 1} ${JSON.stringify(d.message)}`;

/** The launch whose line span contains 0-based `line`; the narrowest when several do. */
function launchAt(launches: LaunchOut[], line: number): LaunchOut | undefined {
  return launches
    .filter((l) => l.range.start.line <= line && line <= l.range.end.line)
    .sort((a, b) => a.range.end.line - a.range.start.line - (b.range.end.line - b.range.start.line))[0];
}

/**
 * A manifest `model: null` means no model the file names statically; a product that prints the
 * value as written, unknown variable left in (`$1`, `/media/$USER/…`), says the same thing.
 */
function sameModel(expected: string | null, got: string | null | undefined): boolean {
  if (expected === null) return got === null || (typeof got === 'string' && got.includes('$'));
  return got === expected;
}

/** Apply a fix's edits (LSP ranges in the original text) back to front; throws on overlap or a bad range. */
function applyEdits(t: string, edits: Edit[]): string {
  const spans = edits.map((e) => ({ a: offsetOf(t, e.range.start), b: offsetOf(t, e.range.end), text: e.newText, e }));
  for (const s of spans) if (s.a < 0 || s.b < s.a) throw new Error(`edit range outside the file: ${JSON.stringify(s.e.range)}`);
  spans.sort((x, y) => y.a - x.a || y.b - x.b);
  for (let i = 1; i < spans.length; i++)
    if (spans[i].b > spans[i - 1].a) throw new Error(`overlapping edits: ${JSON.stringify(spans[i].e.range)} and ${JSON.stringify(spans[i - 1].e.range)}`);
  let out = t;
  for (const s of spans) out = out.slice(0, s.a) + s.text + out.slice(s.b);
  return out;
}

/** Text before line `first` (0-based) and from the line after `last` on, as the original has them. */
function outside(t: string, first: number, last: number): { before: string; after: string } {
  const startOfLine = (n: number) => {
    const o = offsetOf(t, { line: n, character: 0 });
    return o < 0 ? t.length : o;
  };
  return { before: t.slice(0, startOfLine(first)), after: last + 1 > t.split('\n').length - 1 ? '' : t.slice(startOfLine(last + 1)) };
}

function runCli(paths: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'check', '--json', ...paths], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

describe('launch corpus: manifest sanity (no build needed)', () => {
  it('every corpus file has a manifest entry and every entry a file', () => {
    const listed = manifest.map((e) => e.file).sort();
    assert.deepEqual(
      corpusFiles().filter((f) => !listed.includes(f)),
      [],
      'corpus files missing from manifest.json',
    );
    assert.deepEqual(
      listed.filter((f) => !existsSync(abs(f))),
      [],
      'manifest entries with no file',
    );
    assert.equal(new Set(listed).size, listed.length, 'a file is listed twice in manifest.json');
  });

  it('every manifest line is in its file, and every expected token is on its line', () => {
    const problems: string[] = [];
    for (const e of manifest) {
      const lines = text(e.file).split('\n');
      for (const l of e.launches)
        if (!(l.line >= 1 && l.line <= lines.length)) problems.push(`${e.file}: launch line ${l.line} is outside the file (${lines.length} lines)`);
      if (e.expectFindings !== 'none') {
        for (const f of e.expectFindings) {
          if (!lines[f.line - 1]?.includes(f.token)) problems.push(`${e.file}:${f.line}: token ${JSON.stringify(f.token)} is not on that line`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});

describe('launch corpus: rope-lens check --json against manifest.json (built CLI)', function () {
  this.timeout(300000);
  const byFile = new Map<string, FileOut>();
  const cliErrors = new Map<string, string>();

  before(function () {
    assert.ok(existsSync(join(ROOT, 'dist', 'cli.js')), 'dist/cli.js is missing: `npm test` builds it first (or run `npm run build`)');
    const paths = manifest.map((e) => abs(e.file));
    const all = runCli(paths);
    let parsed: { files: FileOut[] } | undefined;
    try {
      parsed = JSON.parse(all.stdout);
    } catch {
      parsed = undefined;
    }
    if (parsed && all.status !== 2 && parsed.files.length === paths.length) {
      for (const e of manifest) {
        const hit = parsed.files.find((f) => f.path === abs(e.file)) ?? parsed.files.find((f) => f.path.split(sep).join('/').endsWith(`/${e.file}`));
        if (hit) byFile.set(e.file, hit);
        else
          cliErrors.set(
            e.file,
            `no entry for this path in the --json output (paths: ${parsed.files
              .map((f) => f.path)
              .slice(0, 3)
              .join(', ')}…)`,
          );
      }
      return;
    }
    // The batch run failed as a whole: run file by file so each test says which file breaks the CLI.
    for (const e of manifest) {
      const r = runCli([abs(e.file)]);
      try {
        const out = JSON.parse(r.stdout) as { files: FileOut[] };
        if (r.status === 2 || out.files.length !== 1) cliErrors.set(e.file, `exit ${r.status}; stderr: ${r.stderr.slice(0, 500)}`);
        else byFile.set(e.file, out.files[0]);
      } catch {
        cliErrors.set(e.file, `exit ${r.status}; stdout is not JSON: ${r.stdout.slice(0, 300)}; stderr: ${r.stderr.slice(0, 500)}`);
      }
    }
  });

  const report = (file: string): FileOut => {
    const err = cliErrors.get(file);
    assert.ok(!err, `${file}: rope-lens check --json failed: ${err}`);
    const r = byFile.get(file);
    assert.ok(r, `${file}: no report from rope-lens check --json`);
    return r!;
  };

  for (const entry of manifest) {
    const file = entry.file;
    const launching = entry.launches.length > 0;

    describe(file, () => {
      it(
        launching ? `kind launch, ${entry.launches.length} launch(es) at lines ${entry.launches.map((l) => l.line).join(', ')}` : 'kind other, no diagnostics',
        () => {
          const r = report(file);
          if (!launching) {
            assert.equal(
              r.kind,
              'other',
              `${file}: kind ${r.kind}, expected other (no launch in this file); launches: ${(r.launches ?? []).map(show).join('; ')}`,
            );
            assert.deepEqual(r.diagnostics.map(showDiag), [], `${file}: a file that launches nothing must get no finding`);
            return;
          }
          assert.equal(r.kind, 'launch', `${file}: kind ${r.kind}, expected launch`);
          const got = r.launches ?? [];
          assert.equal(
            got.length,
            entry.launches.length,
            `${file}: ${got.length} launch(es) reported [${got.map(show).join('; ')}], manifest has ${entry.launches.length} at lines ${entry.launches.map((l) => l.line).join(', ')}`,
          );
        },
      );

      for (const want of entry.launches) {
        it(`launch at line ${want.line}: ${want.program} ${want.model ?? '(no model)'} ${want.requestedLength ?? ''}`.trim(), () => {
          const r = report(file);
          const got = r.launches ?? [];
          const l = launchAt(got, want.line - 1);
          assert.ok(l, `${file}:${want.line}: no reported launch spans this line; reported: [${got.map(show).join('; ')}]`);
          const others = entry.launches.filter((w) => w !== want && launchAt(got, w.line - 1) === l);
          assert.deepEqual(
            others.map((w) => w.line),
            [],
            `${file}:${want.line}: the launch ${show(l!)} also covers other manifest launches`,
          );
          const where = `${file}:${want.line} (${show(l!)})`;
          assert.equal(l!.program, want.program, `${where}: program`);
          assert.ok(sameModel(want.model, l!.model), `${where}: model ${JSON.stringify(l!.model)}, expected ${JSON.stringify(want.model)}`);
          assert.equal(l!.requestedLength, want.requestedLength, `${where}: requestedLength`);
          assert.deepEqual(l!.overrides ?? null, want.overrides, `${where}: overrides`);
        });
      }

      if (entry.expectFindings === 'none') {
        if (launching) {
          it('no error or warning', () => {
            const r = report(file);
            const loud = r.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
            assert.deepEqual(loud.map(showDiag), [], `${file}: expected no error or warning`);
          });
        }
      } else {
        for (const f of entry.expectFindings) {
          it(`${f.severity} at ${f.line} on ${JSON.stringify(f.token)}: ${f.why}`, () => {
            const r = report(file);
            const t = text(file);
            const onToken = (d: Diag) => {
              if (d.range.start.line !== f.line - 1) return false;
              const s = rangeText(t, d.range);
              return s === f.token || s === `"${f.token}"`;
            };
            const hit = r.diagnostics.find((d) => onToken(d) && d.severity === f.severity);
            if (!hit) {
              const near = r.diagnostics.filter((d) => d.range.start.line === f.line - 1);
              const sameToken = near.filter(onToken);
              assert.fail(
                sameToken.length
                  ? `${file}:${f.line}: finding on ${JSON.stringify(f.token)} has severity ${sameToken.map((d) => d.severity).join('/')}, expected ${f.severity} (${f.why}): ${sameToken.map(showDiag).join('; ')}`
                  : `${file}:${f.line}: no ${f.severity} on ${JSON.stringify(f.token)} (${f.why}); on this line: [${near.map((d) => `${showDiag(d)} text=${JSON.stringify(rangeText(t, d.range))}`).join('; ')}]; all: [${r.diagnostics.map(showDiag).join('; ')}]`,
              );
            }
          });
        }
      }

      if (launching) {
        it("every offered fix edits only its command's own lines", () => {
          const r = report(file);
          const t = text(file);
          const got = r.launches ?? [];
          const problems: string[] = [];
          for (const d of r.diagnostics) {
            for (const fix of d.fixes ?? []) {
              const where = `${file}: fix ${JSON.stringify(fix.title)} of ${showDiag(d)}`;
              const l = launchAt(got, d.range.start.line);
              if (!l) {
                problems.push(`${where}: the finding is not inside any reported launch, so its command's span is unknown`);
                continue;
              }
              if (!fix.edits?.length) {
                problems.push(`${where}: no edits`);
                continue;
              }
              let next: string;
              try {
                next = applyEdits(t, fix.edits);
              } catch (e) {
                problems.push(`${where}: ${(e as Error).message}`);
                continue;
              }
              if (next === t) {
                problems.push(`${where}: applying it changes nothing`);
                continue;
              }
              const { before, after } = outside(t, l.range.start.line, l.range.end.line);
              if (!next.startsWith(before)) problems.push(`${where}: changes text before line ${l.range.start.line + 1} (the command starts there)`);
              if (!next.endsWith(after) || next.length < before.length + after.length)
                problems.push(`${where}: changes text after line ${l.range.end.line + 1} (the command ends there)`);
            }
          }
          assert.deepEqual(problems, []);
        });
      }
    });
  }
});
