/**
 * The composite GitHub Action (action.yml), exercised locally as far as it runs offline: every
 * `run:` step's shell runs in a temporary workspace, as the runner would run it (bash -eo pipefail,
 * its `env:` with the `${{ }}` expressions evaluated, GITHUB_OUTPUT, GITHUB_PATH and GITHUB_ENV
 * files). GITHUB_ACTION_PATH is a copy of the action's sources whose dist/ points at this checkout's
 * build. `uses:` steps (actions/cache, upload-sarif) cannot run here: the test checks what they are
 * given, and emulates a cache hit (the private Node in the tool cache, the build key stamp in dist/)
 * so no download or npm install happens.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const root = join(__dirname, '../..');

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

/** The few expression forms action.yml uses; anything else fails the test (so it stays runnable here). */
function evaluate(
  expr: string,
  ctx: { inputs: Record<string, string>; outputs: Record<string, Record<string, string>>; actionPath: string },
): string | boolean {
  const e = expr.trim();
  const value = (ref: string): string => {
    let m;
    if ((m = /^inputs\.([\w-]+)$/.exec(ref))) return ctx.inputs[m[1]] ?? '';
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(ref))) return ctx.outputs[m[1]]?.[m[2]] ?? '';
    if (ref === 'github.action_path') return ctx.actionPath;
    if ((m = /^'([^']*)'$/.exec(ref))) return m[1];
    throw new Error(`action.yml: expression '${expr}' is not one the local runner knows`);
  };
  let m;
  if ((m = /^(\S+) == '([^']*)' && '([^']*)' \|\| '([^']*)'$/.exec(e))) return value(m[1]) === m[2] ? m[3] : m[4];
  if ((m = /^always\(\) && (\S+) == '([^']*)'$/.exec(e))) return value(m[1]) === m[2];
  if ((m = /^always\(\) && (\S+) != '([^']*)'$/.exec(e))) return value(m[1]) !== m[2];
  return value(e);
}

const substitute = (s: string, ctx: Parameters<typeof evaluate>[1]) => s.replace(/\$\{\{(.+?)\}\}/g, (_m, x: string) => String(evaluate(x, ctx)));

interface StepRun {
  step: Step;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the action's steps in `workspace` with the given inputs; stops after a failing step, as a runner does (except `always()` steps). */
function runAction(
  workspace: string,
  given: Record<string, string>,
  actionPath: string,
  toolCache: string,
): { runs: StepRun[]; used: { step: Step; with: Record<string, string> }[]; outputs: Record<string, string>; jobFiles: string } {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const ctx = { inputs, outputs: {} as Record<string, Record<string, string>>, actionPath };
  // What a step may write to change later steps of the job (PATH, environment): must stay empty.
  const githubPath = join(workspace, '.github-path');
  const githubEnv = join(workspace, '.github-env');
  writeFileSync(githubPath, '');
  writeFileSync(githubEnv, '');
  const runs: StepRun[] = [];
  const used: { step: Step; with: Record<string, string> }[] = [];
  let failed = false;
  for (const step of action.runs.steps) {
    // After a failure only `always()` steps run; a step whose `if:` is false is skipped.
    if (failed && !/always\(\)/.test(step.if ?? '')) continue;
    if (step.if && evaluate(step.if.replace(/^\s*\$\{\{|\}\}\s*$/g, ''), ctx) === false) continue;
    if (step.uses) {
      const withValues = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
      used.push({ step, with: withValues });
      // actions/cache: a hit restores the private Node and the build stamped with the key prep computed.
      if (step.uses.startsWith('actions/cache@')) writeFileSync(join(actionPath, 'dist', '.build-key'), ctx.outputs.prep['build-key'] + '\n');
      continue;
    }
    assert.equal(step.shell, 'bash', `${step.name}: composite run steps must name their shell`);
    const outputFile = join(workspace, `.github-output-${runs.length}`);
    writeFileSync(outputFile, '');
    const env = {
      ...process.env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)])),
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_PATH: githubPath,
      GITHUB_ENV: githubEnv,
      RUNNER_TEMP: workspace,
      RUNNER_TOOL_CACHE: toolCache,
    };
    // GitHub's bash invocation for `shell: bash`.
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], { cwd: workspace, env, encoding: 'utf8', timeout: 120_000 });
    runs.push({ step, status: r.status, stdout: r.stdout, stderr: r.stderr });
    if (step.id) {
      ctx.outputs[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    }
    if (r.status !== 0) failed = true;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, substitute(v.value, ctx)]));
  return { runs, used, outputs, jobFiles: readFileSync(githubPath, 'utf8') + readFileSync(githubEnv, 'utf8') };
}

/** The action's files as a runner checks them out (no dist/: its bundles point at this checkout's build). */
function actionCopy(dir: string): string {
  const at = join(dir, 'action');
  mkdirSync(join(at, 'dist'), { recursive: true });
  for (const p of ['action.yml', 'package.json', 'package-lock.json', 'esbuild.mjs', 'bin', 'shared', 'server', 'docs'])
    cpSync(join(root, p), join(at, p), { recursive: true });
  for (const f of readdirSync(join(root, 'dist'))) if (!f.startsWith('.')) symlinkSync(join(root, 'dist', f), join(at, 'dist', f));
  return at;
}

describe('GitHub Action (action.yml, run steps executed locally)', function () {
  this.timeout(180_000);
  let workspace: string;
  let actionPath: string;
  let toolCache: string;
  const platform = `${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });
  beforeEach(() => {
    const tmp = mkdtempSync(join(tmpdir(), 'rope-lens-action-'));
    workspace = join(tmp, 'workspace');
    mkdirSync(workspace);
    actionPath = actionCopy(tmp);
    // The action's private Node, as the cache restores it (this test's node stands in for the download).
    toolCache = join(tmp, 'toolcache');
    mkdirSync(join(toolCache, 'rope-lens-node', `20-${platform}`, 'bin'), { recursive: true });
    symlinkSync(process.execPath, join(toolCache, 'rope-lens-node', `20-${platform}`, 'bin', 'node'));
    // A repository with one bad config (raised context, no scaling: a warning) and one clean one.
    const cfg = JSON.parse(readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8'));
    mkdirSync(join(workspace, 'models', 'long'), { recursive: true });
    writeFileSync(join(workspace, 'models', 'long', 'config.json'), JSON.stringify({ ...cfg, max_position_embeddings: 65536 }, null, 2));
    writeFileSync(join(workspace, 'models', 'config.json'), JSON.stringify(cfg, null, 2));
  });
  afterEach(() => rmSync(join(workspace, '..'), { recursive: true, force: true }));

  it('code scanning on: one analysis writes SARIF (plain lines in the log, no annotations), upload gets it, the step fails at fail-on', () => {
    assert.equal(action.runs.using, 'composite');
    const { runs, used, outputs, jobFiles } = runAction(workspace, { paths: 'models', 'fail-on': 'warning' }, actionPath, toolCache);
    const byName = (n: string) => runs.find((r) => r.step.name === n)!;
    assert.equal(byName('Install RoPE Lens').status, 0, byName('Install RoPE Lens').stderr);
    // Its own Node, from the tool cache; the job's PATH and environment are left alone (no setup-node).
    assert.match(byName('Install RoPE Lens').stdout, /^\d+\.\d+\.\d+$/m);
    assert.equal(jobFiles, '');
    assert.ok(!used.some((u) => u.step.uses!.startsWith('actions/setup-node@')));
    // One analysis: a single step runs the CLI.
    assert.equal(runs.filter((r) => /rope-lens\.js" check/.test(r.step.run ?? '')).length, 1);
    const check = byName('Check');
    assert.equal(check.status, 1, check.stderr);
    assert.doesNotMatch(check.stdout, /^::/m, 'no workflow annotations when SARIF goes to code scanning');
    assert.match(check.stdout, /^models\/long\/config\.json:\d+:\d+ warning rope\/context-extended /m);

    // The upload step is given the file the check wrote: one SARIF 2.1.0 run with the finding.
    const upload = used.find((u) => u.step.uses!.startsWith('github/codeql-action/upload-sarif@'));
    assert.ok(upload, 'the SARIF upload step runs (always(), the check failed at fail-on)');
    assert.equal(outputs['sarif-file'], 'rope-lens.sarif');
    const sarif = JSON.parse(readFileSync(join(workspace, upload!.with.sarif_file), 'utf8'));
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(
      sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId),
      ['rope/context-extended'],
    );
    assert.equal(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'models/long/config.json');
  });

  it('the cache holds the private Node and the build, keyed on the lock file and sources', () => {
    const first = runAction(workspace, { paths: 'models' }, actionPath, toolCache);
    const cache = first.used.find((u) => u.step.uses!.startsWith('actions/cache@'))!;
    const key = cache.with.key;
    assert.match(key, new RegExp(`^rope-lens-${platform}-node20-[0-9a-f]{16}$`));
    assert.deepEqual(cache.with.path.trim().split('\n'), [join(toolCache, 'rope-lens-node', `20-${platform}`), `${actionPath}/dist`]);
    // Same sources, same key; a changed source or lock file, a new key (a rebuild).
    assert.equal(runAction(workspace, { paths: 'models' }, actionPath, toolCache).used.find((u) => u.step.uses!.startsWith('actions/cache@'))!.with.key, key);
    writeFileSync(join(actionPath, 'shared', 'core', 'codes.ts'), readFileSync(join(actionPath, 'shared', 'core', 'codes.ts'), 'utf8') + '\n');
    assert.notEqual(
      runAction(workspace, { paths: 'models' }, actionPath, toolCache).used.find((u) => u.step.uses!.startsWith('actions/cache@'))!.with.key,
      key,
    );
  });

  it('code scanning off: annotations instead, one per finding; nothing uploaded; passes at the default fail-on (error)', () => {
    const { runs, used, outputs } = runAction(workspace, { paths: 'models', 'upload-sarif': 'false' }, actionPath, toolCache);
    assert.ok(
      runs.every((r) => r.status === 0),
      runs.map((r) => r.stderr).join('\n'),
    );
    const check = runs.find((r) => r.step.name === 'Check')!;
    const annotations = check.stdout.split('\n').filter((l) => l.startsWith('::'));
    assert.equal(annotations.length, 1);
    assert.match(
      annotations[0],
      /^::warning file=models\/long\/config\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=RoPE Lens rope\/context-extended::Positions past 8,192 tokens are extrapolated: max_position_embeddings is 65,536/,
    );
    assert.ok(!used.some((u) => u.step.uses!.includes('upload-sarif')));
    assert.equal(outputs['sarif-file'], '');
    assert.ok(!existsSync(join(workspace, 'rope-lens.sarif')));
  });

  it('paths split on spaces and are never glob-expanded; a usage error writes no SARIF and nothing is uploaded', () => {
    writeFileSync(
      join(workspace, 'a.json'),
      '{"model_type": "llama", "rope_theta": 10000, "max_position_embeddings": 4096, "hidden_size": 4096, "num_attention_heads": 32}',
    );
    const { runs, used, outputs } = runAction(workspace, { paths: 'a.json models/*.json' }, actionPath, toolCache);
    const check = runs.find((r) => r.step.name === 'Check')!;
    // `models/*.json` reaches the CLI literally (no such file): exit 2 from the CLI, reported by the step.
    assert.equal(check.status, 2);
    assert.match(check.stderr, /cannot read models\/\*\.json/);
    assert.equal(outputs['sarif-file'], '');
    assert.ok(!used.some((u) => u.step.uses!.includes('upload-sarif')), 'upload only when SARIF was written');
  });
});
