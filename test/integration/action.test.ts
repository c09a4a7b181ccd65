/**
 * The composite GitHub Action (action.yml), exercised locally as far as it runs offline: every
 * `run:` step's shell runs in a temporary workspace, as the runner would run it (bash -eo pipefail,
 * its `env:` with the `${{ }}` expressions evaluated, GITHUB_ACTION_PATH = this checkout,
 * GITHUB_OUTPUT a file). `uses:` steps (setup-node, upload-sarif) cannot run here: the test checks
 * what they are given (the SARIF file the upload step names exists and is SARIF 2.1.0).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const root = join(__dirname, '../..');

interface Step { name?: string; id?: string; uses?: string; run?: string; shell?: string; if?: string; env?: Record<string, string>; with?: Record<string, string> }
interface Action { inputs: Record<string, { default?: string }>; outputs: Record<string, { value: string }>; runs: { using: string; steps: Step[] } }

const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

/** The few expression forms action.yml uses; anything else fails the test (so it stays runnable here). */
function evaluate(expr: string, ctx: { inputs: Record<string, string>; outputs: Record<string, Record<string, string>> }): string | boolean {
  const e = expr.trim();
  const value = (ref: string): string => {
    let m;
    if ((m = /^inputs\.([\w-]+)$/.exec(ref))) return ctx.inputs[m[1]] ?? '';
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(ref))) return ctx.outputs[m[1]]?.[m[2]] ?? '';
    if ((m = /^'([^']*)'$/.exec(ref))) return m[1];
    throw new Error(`action.yml: expression '${expr}' is not one the local runner knows`);
  };
  let m;
  if ((m = /^(\S+) == '([^']*)' && '([^']*)' \|\| '([^']*)'$/.exec(e))) return value(m[1]) === m[2] ? m[3] : m[4];
  if ((m = /^always\(\) && (\S+) == '([^']*)'$/.exec(e))) return value(m[1]) === m[2];
  return value(e);
}

const substitute = (s: string, ctx: Parameters<typeof evaluate>[1]) => s.replace(/\$\{\{(.+?)\}\}/g, (_m, x: string) => String(evaluate(x, ctx)));

interface StepRun { step: Step; status: number | null; stdout: string; stderr: string }

/** Runs the action's steps in `workspace` with the given inputs; stops after a failing step, as a runner does (except `always()` steps). */
function runAction(workspace: string, given: Record<string, string>): { runs: StepRun[]; used: { step: Step; with: Record<string, string> }[]; outputs: Record<string, string> } {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const ctx = { inputs, outputs: {} as Record<string, Record<string, string>> };
  const runs: StepRun[] = [];
  const used: { step: Step; with: Record<string, string> }[] = [];
  let failed = false;
  for (const step of action.runs.steps) {
    // After a failure only `always()` steps run; a step whose `if:` is false is skipped.
    if (failed && !/always\(\)/.test(step.if ?? '')) continue;
    if (step.if && evaluate(step.if.replace(/^\s*\$\{\{|\}\}\s*$/g, ''), ctx) === false) continue;
    if (step.uses) {
      used.push({ step, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)])) });
      continue;
    }
    assert.equal(step.shell, 'bash', `${step.name}: composite run steps must name their shell`);
    const outputFile = join(workspace, `.github-output-${runs.length}`);
    writeFileSync(outputFile, '');
    const env = {
      ...process.env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)])),
      GITHUB_ACTION_PATH: root, GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: outputFile, RUNNER_TEMP: workspace,
    };
    // GitHub's bash invocation for `shell: bash`.
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], { cwd: workspace, env, encoding: 'utf8', timeout: 120_000 });
    runs.push({ step, status: r.status, stdout: r.stdout, stderr: r.stderr });
    if (step.id) {
      ctx.outputs[step.id] = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    }
    if (r.status !== 0) failed = true;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, substitute(v.value, ctx)]));
  return { runs, used, outputs };
}

describe('GitHub Action (action.yml, run steps executed locally)', function () {
  this.timeout(180_000);
  let workspace: string;
  before(function () { if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip(); });
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'rope-lens-action-'));
    // A repository with one bad config (raised context, no scaling: a warning) and one clean one.
    const cfg = JSON.parse(readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8'));
    mkdirSync(join(workspace, 'models', 'long'), { recursive: true });
    writeFileSync(join(workspace, 'models', 'long', 'config.json'), JSON.stringify({ ...cfg, max_position_embeddings: 65536 }, null, 2));
    writeFileSync(join(workspace, 'models', 'config.json'), JSON.stringify(cfg, null, 2));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('is a composite action whose steps write SARIF, hand it to upload-sarif, annotate, and gate at fail-on', () => {
    assert.equal(action.runs.using, 'composite');
    const { runs, used, outputs } = runAction(workspace, { paths: 'models', 'fail-on': 'warning' });
    const byName = (n: string) => runs.find((r) => r.step.name === n)!;
    assert.equal(byName('Install RoPE Lens').status, 0, byName('Install RoPE Lens').stderr);
    assert.equal(byName('Check (SARIF)').status, 0, byName('Check (SARIF)').stderr);

    // The upload step is given the file the SARIF step wrote, and it is one SARIF 2.1.0 run with the finding.
    const upload = used.find((u) => u.step.uses!.startsWith('github/codeql-action/upload-sarif@'));
    assert.ok(upload, 'the SARIF upload step runs');
    assert.equal(outputs['sarif-file'], 'rope-lens.sarif');
    const sarif = JSON.parse(readFileSync(join(workspace, upload!.with.sarif_file), 'utf8'));
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId), ['rope/context-extended']);
    assert.equal(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'models/long/config.json');
    assert.ok(used.some((u) => u.step.uses!.startsWith('actions/setup-node@') && u.with['node-version'] === '20'));

    // The gate: an annotation on the finding's line, and the step fails at fail-on: warning.
    const gate = byName('Annotate and gate');
    assert.equal(gate.status, 1, gate.stderr);
    assert.match(gate.stdout, /^::warning file=models\/long\/config\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=RoPE Lens rope\/context-extended::max_position_embeddings 65,536/m);
  });

  it('passes with the default fail-on (error) and skips the upload when upload-sarif is false', () => {
    const { runs, used } = runAction(workspace, { paths: 'models', 'upload-sarif': 'false' });
    assert.ok(runs.every((r) => r.status === 0), runs.map((r) => r.stderr).join('\n'));
    assert.ok(!used.some((u) => u.step.uses!.includes('upload-sarif')));
  });

  it('paths with spaces split into separate arguments and are never glob-expanded', () => {
    writeFileSync(join(workspace, 'a.json'), '{"model_type": "llama", "rope_theta": 10000, "max_position_embeddings": 4096, "hidden_size": 4096, "num_attention_heads": 32}');
    const { runs } = runAction(workspace, { paths: 'a.json models/*.json', 'upload-sarif': 'false' });
    const sarif = runs.find((r) => r.step.name === 'Check (SARIF)')!;
    // `models/*.json` reaches the CLI literally (no such file): exit 2 from the CLI, reported by the step.
    assert.equal(sarif.status, 2);
    assert.match(sarif.stderr, /cannot read models\/\*\.json/);
  });
});
