/**
 * `.pre-commit-hooks.yaml`, run by the real `pre-commit` tool: a fresh git repository with a bad
 * config fails `pre-commit run --all-files` with the finding, and passes once the quick fix is applied.
 * The hook repository is a temporary git repository holding this checkout's hooks file, so the test
 * runs the working tree's definition; the hook's `rope-lens` (language: system) is the built CLI on PATH.
 * Skipped, with the reason, when pre-commit is not installed (`apt-get install pre-commit`).
 */
import { strict as assert } from 'node:assert';
import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

const git = (cwd: string, ...args: string[]) => {
  const r = sh('git', ['-c', 'user.name=RoPE Lens test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], cwd);
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** LSP edits (0-based) applied to a text, last first. */
function applyEdits(text: string, edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]): string {
  const starts = [0];
  for (let m, re = /\r\n|\r|\n/g; (m = re.exec(text)); ) starts.push(m.index + m[0].length);
  const at = (p: { line: number; character: number }) => starts[p.line] + p.character;
  for (const e of [...edits].sort((a, b) => at(b.range.start) - at(a.range.start))) text = text.slice(0, at(e.range.start)) + e.newText + text.slice(at(e.range.end));
  return text;
}

describe('pre-commit hook (.pre-commit-hooks.yaml, real pre-commit)', function () {
  this.timeout(180_000);
  let tmp: string;

  before(function () {
    const v = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
    if (v.status !== 0) {
      console.log('    skipped: pre-commit is not installed (apt-get install -y pre-commit; .ci/run installs it)');
      this.skip();
    }
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });
  beforeEach(() => { tmp = mkdtempSync(join(tmpdir(), 'rope-lens-pre-commit-')); });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('fails on a config with a RoPE warning, naming the finding; passes after the quick fix', () => {
    // The hook repository: this checkout's hooks file, committed.
    const hooks = join(tmp, 'hooks');
    mkdirSync(hooks);
    git(hooks, 'init', '-q');
    copyFileSync(join(root, '.pre-commit-hooks.yaml'), join(hooks, '.pre-commit-hooks.yaml'));
    git(hooks, 'add', '.');
    git(hooks, 'commit', '-qm', 'hooks');
    const rev = git(hooks, 'rev-parse', 'HEAD');

    // `rope-lens` on PATH, as `npm install -g rope-lens` puts it.
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'rope-lens'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/rope-lens.js')}" "$@"\n`);
    chmodSync(join(bin, 'rope-lens'), 0o755);

    // The user's repository: Llama-3-8B's config with max_position_embeddings raised 8× and no scaling.
    const project = join(tmp, 'project');
    mkdirSync(join(project, 'model'), { recursive: true });
    git(project, 'init', '-q');
    const cfg = JSON.parse(readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8'));
    cfg.max_position_embeddings = 65536;
    // Meta's own file as published, stamped 4.40.0.dev0: the preferred fix must not bring a finding of
    // its own there (a rewrite 4.40 refuses is not offered), so the hook passes after it.
    assert.equal(cfg.transformers_version, '4.40.0.dev0');
    const file = join(project, 'model', 'config.json');
    writeFileSync(file, JSON.stringify(cfg, null, 2) + '\n');
    writeFileSync(join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: rope-lens\n`);
    git(project, 'add', '.');

    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, PRE_COMMIT_HOME: join(tmp, 'pre-commit-home'), HOME: tmp };
    const bad = sh('pre-commit', ['run', '--all-files', '--color', 'never'], project, env);
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /RoPE Lens .*Failed/);
    assert.match(bad.stdout, /model\/config\.json:\d+:\d+ warning rope\/context-extended max_position_embeddings 65,536 is beyond the 8,192 tokens/);

    // The preferred quick fix, as the editor would apply it.
    const json = JSON.parse(sh(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', file, '--json'], project).stdout);
    const finding = json.files[0].diagnostics.find((d: { code: string }) => d.code === 'rope/context-extended');
    const fix = finding.fixes.find((f: { preferred: boolean }) => f.preferred);
    writeFileSync(file, applyEdits(readFileSync(file, 'utf8'), fix.edits));
    git(project, 'add', '.');
    const good = sh('pre-commit', ['run', '--all-files', '--color', 'never'], project, env);
    assert.equal(good.status, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /RoPE Lens .*Passed/);
  });
});
