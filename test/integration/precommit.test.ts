/**
 * `.pre-commit-hooks.yaml`, run by the real `pre-commit` tool as a user would meet it: a fresh git
 * repository whose `.pre-commit-config.yaml` points at this repository (a local path, at a commit),
 * with nothing installed globally — no `rope-lens` on PATH. pre-commit sets the hook up itself
 * (`language: node`: `npm install` of the hook repository, which builds the CLI, then a packed
 * install into the hook's environment) and runs it: a config, a compose file and a shell launch script
 * each fail with their finding, then pass once fixed.
 *
 * The hook repository is a temporary git repository holding this working tree's files (tracked and
 * untracked, not ignored), so the test runs what is here, committed or not. Setting the hook up
 * needs node, npm and the npm registry (CI has them). Skipped, with the reason, when pre-commit is
 * not installed (`apt-get install pre-commit`, or `pip install pre-commit`; .ci/run installs it).
 *
 * The hook's whole flow runs with the npm on PATH; `npm pack` runs again under the other major version
 * (10 or 11), installed into a private prefix by the test. pre-commit reads all of `npm pack`'s stdout
 * as the tarball's name, so under either npm that stdout must be the name alone (npm 11 prints a
 * script's banner there unless scripts run in the background: .npmrc) — the one step of the hook's
 * install that has differed between the two. (The whole flow under the other npm passed too when this
 * was written; it costs another ~35 s of CI.)
 */
import { strict as assert } from 'node:assert';
import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

const root = join(__dirname, '../..');

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeout = 120_000): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout });
}

const git = (cwd: string, ...args: string[]) => {
  const r = sh(
    'git',
    ['-c', 'user.name=RoPE Lens test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args],
    cwd,
  );
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** PATH without any folder that holds a `rope-lens` executable: nothing installed globally counts. */
function pathWithoutRopeLens(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d && !existsSync(join(d, 'rope-lens')))
    .join(delimiter);
}

/** LSP edits (0-based) applied to a text, last first. */
function applyEdits(
  text: string,
  edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[],
): string {
  const starts = [0];
  for (let m, re = /\r\n|\r|\n/g; (m = re.exec(text)); ) starts.push(m.index + m[0].length);
  const at = (p: { line: number; character: number }) => starts[p.line] + p.character;
  for (const e of [...edits].sort((a, b) => at(b.range.start) - at(a.range.start)))
    text = text.slice(0, at(e.range.start)) + e.newText + text.slice(at(e.range.end));
  return text;
}

/** The major version of the npm on PATH (undefined if there is none). */
function npmMajor(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const r = spawnSync('npm', ['--version'], { encoding: 'utf8', env });
  return r.status === 0 ? Number(r.stdout.trim().split('.')[0]) : undefined;
}

/** The npm on PATH, and the other of npm 10 and 11 (installed into a private prefix by `setUp`). */
const PATH_NPM = npmMajor();
const OTHER_NPM = PATH_NPM === 10 ? 11 : 10;

for (const npm of [
  { major: PATH_NPM, own: false },
  { major: OTHER_NPM, own: true },
])
  hookSuite(npm.major, npm.own);

function hookSuite(major: number | undefined, own: boolean): void {
  describe(`pre-commit hook under npm ${major ?? '?'}${own ? ' (private prefix)' : ' (on PATH)'} (.pre-commit-hooks.yaml, real pre-commit, nothing installed globally)`, function () {
    this.timeout(900_000);
    let tmp: string;
    let env: NodeJS.ProcessEnv;
    let project: string;
    let hooks: string;

    before(function () {
      const v = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
      if (v.status !== 0) {
        console.log('    skipped: pre-commit is not installed (apt-get install -y pre-commit or pip install pre-commit; .ci/run installs it)');
        this.skip();
      }
      tmp = mkdtempSync(join(tmpdir(), 'rope-lens-pre-commit-'));
      // The other npm, in a folder of its own put first on PATH: pre-commit and the hook's scripts run it.
      let npmPath = pathWithoutRopeLens();
      if (own) {
        const prefix = join(tmp, 'npm');
        const r = sh('npm', ['install', '--prefix', prefix, `npm@${major}`, '--no-audit', '--no-fund', '--loglevel', 'error'], tmp, process.env, 300_000);
        assert.equal(r.status, 0, `npm install npm@${major}: ${r.stderr}`);
        npmPath = join(prefix, 'node_modules', '.bin') + delimiter + npmPath;
      }

      // The hook repository: this working tree's files (not node_modules, not dist: pre-commit builds them), committed.
      hooks = join(tmp, 'hooks');
      mkdirSync(hooks);
      const listed = sh('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root);
      assert.equal(listed.status, 0, listed.stderr);
      for (const rel of listed.stdout.split('\0').filter(Boolean)) {
        if (!existsSync(join(root, rel))) continue; // deleted in the working tree
        mkdirSync(dirname(join(hooks, rel)), { recursive: true });
        copyFileSync(join(root, rel), join(hooks, rel));
      }
      git(hooks, 'init', '-q');
      git(hooks, 'add', '-A');
      git(hooks, 'commit', '-qm', 'hooks');
      const rev = git(hooks, 'rev-parse', 'HEAD');

      // The user's repository.
      project = join(tmp, 'project');
      mkdirSync(project);
      git(project, 'init', '-q');
      writeFileSync(join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: rope-lens\n`);
      env = { ...process.env, PATH: npmPath, PRE_COMMIT_HOME: join(tmp, 'pre-commit-home'), npm_config_update_notifier: 'false' };
      assert.notEqual(sh('sh', ['-c', 'command -v rope-lens'], project, env).status, 0, 'rope-lens must not be on PATH for this test');
      assert.equal(npmMajor(env), major, 'the npm this suite is about is the one on its PATH');
    });
    after(() => {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    /** Stages exactly these files (each test starts from an empty index) and runs the hook on them. */
    function runHook(files: Record<string, string>): SpawnSyncReturns<string> {
      sh('git', ['rm', '-rq', '--cached', '--ignore-unmatch', '.'], project);
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(dirname(join(project, rel)), { recursive: true });
        writeFileSync(join(project, rel), text);
      }
      git(project, 'add', '.pre-commit-config.yaml', ...Object.keys(files));
      // The first run installs the hook environment (npm install and build of the hook repository).
      return sh('pre-commit', ['run', '--color', 'never', '--files', ...Object.keys(files)], project, env, 840_000);
    }

    it('npm pack from this repository prints only the tarball name on stdout (pre-commit installs what it names)', () => {
      const out = join(tmp, 'packed');
      mkdirSync(out);
      // Packed from the copy (with this checkout's installed packages): `npm pack` runs the prepare build, which must
      // not rewrite this checkout's dist/ while other tests run its bundles.
      symlinkSync(join(root, 'node_modules'), join(hooks, 'node_modules'), 'dir');
      const r = sh('npm', ['pack', '--pack-destination', out], hooks, env, 300_000);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const name = `rope-lens-${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}.tgz`;
      assert.equal(r.stdout, `${name}\n`);
      assert.ok(existsSync(join(out, name)));
    });

    if (own) return;

    it('a config: fails with the finding; passes when .rope-lens.yaml disables its code, and after the quick fix', () => {
      // Llama-3-8B's config with max_position_embeddings raised 8× and no scaling.
      const cfg = JSON.parse(readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8'));
      cfg.max_position_embeddings = 65536;
      // Meta's own file as published, stamped 4.40.0.dev0: the preferred fix must not bring a finding of
      // its own there (a rewrite 4.40 refuses is not offered), so the hook passes after it.
      assert.equal(cfg.transformers_version, '4.40.0.dev0');
      const bad = JSON.stringify(cfg, null, 2) + '\n';
      const r = runHook({ 'model/config.json': bad });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /RoPE Lens .*Failed/);
      assert.match(
        r.stdout,
        /model\/config\.json:\d+:\d+ warning rope\/context-extended Positions past 8,192 tokens are extrapolated: max_position_embeddings is 65,536/,
      );

      // The project file silences exactly that code, for the hook too (JSON has no comments).
      const silenced = runHook({ 'model/config.json': bad, '.rope-lens.yaml': 'disable: [rope/context-extended]\n' });
      assert.equal(silenced.status, 0, silenced.stdout + silenced.stderr);
      assert.match(silenced.stdout, /RoPE Lens .*Passed/);
      rmSync(join(project, '.rope-lens.yaml'));

      // The preferred quick fix, as the editor would apply it (from this checkout's CLI, only to compute it).
      const file = join(project, 'model', 'config.json');
      const json = JSON.parse(sh(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', file, '--json'], project).stdout);
      const finding = json.files[0].diagnostics.find((d: { code: string }) => d.code === 'rope/context-extended');
      const fix = finding.fixes.find((f: { preferred: boolean }) => f.preferred);
      const good = runHook({ 'model/config.json': applyEdits(bad, fix.edits) });
      assert.equal(good.status, 0, good.stdout + good.stderr);
      assert.match(good.stdout, /RoPE Lens .*Passed/);
    });

    it('a launch file: a vLLM compose service asking for more than vLLM derives fails; with the YaRN override it passes', () => {
      const compose = (extra: string) =>
        [
          'services:',
          '  vllm:',
          '    image: vllm/vllm-openai:v0.10.1',
          `    command: ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "131072"${extra}]`,
          '',
        ].join('\n');
      const bad = runHook({ 'deploy/compose.yaml': compose('') });
      assert.equal(bad.status, 1, bad.stdout + bad.stderr);
      assert.match(bad.stdout, /deploy\/compose\.yaml:4:\d+ error vllm\/max-model-len-exceeds/);
      const override =
        ', "--hf-overrides", "{\\"rope_scaling\\": {\\"rope_type\\": \\"yarn\\", \\"factor\\": 4.0, \\"original_max_position_embeddings\\": 32768}}"';
      const good = runHook({ 'deploy/compose.yaml': compose(override) });
      assert.equal(good.status, 0, good.stdout + good.stderr);
      assert.match(good.stdout, /RoPE Lens .*Passed/);
    });

    it("a shell launch script: llama-server with a bare --rope-scale fails; without it, at the GGUF's context, it passes", () => {
      const bad = runHook({ 'serve.sh': 'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 98304 --rope-scale 3 --port 8080\n' });
      assert.equal(bad.status, 1, bad.stdout + bad.stderr);
      assert.match(bad.stdout, /serve\.sh:1:\d+ warning launch\/implicit-linear /);
      const good = runHook({ 'serve.sh': 'llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 32768 --port 8080\n' });
      assert.equal(good.status, 0, good.stdout + good.stderr);
      assert.match(good.stdout, /RoPE Lens .*Passed/);
    });
  });
}
