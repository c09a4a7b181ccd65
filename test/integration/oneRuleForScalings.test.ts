/**
 * One rule for scalings (docs/judgement.md), through the real CLI: a scaling used without training is
 * judged by its reach and its vendor's validation in `check`, `serve` and `plan` alike; trained
 * frequencies are judged by the bound, and `check` prefers the method `plan` recommends.
 * The two disagreements of issue 41 item 3: Qwen2.5-7B at 131,072 with Qwen's YaRN ×4 over 32,768,
 * and a Llama-2-7b axolotl fine-tune at 16,384 (examples/axolotl-llama2-16k.yaml).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce } from '../support/build';

const ROOT = join(__dirname, '..', '..');
const QWEN = join(ROOT, 'test', 'fixtures', 'corpus', 'models', 'qwen2.5-7b.json');
const AXOLOTL = join(ROOT, 'examples', 'axolotl-llama2-16k.yaml');

interface Verdict {
  lmax: number | null;
  length: number;
  judgedBy?: string;
  reach?: number;
  validatedBy?: string;
}
interface Fix {
  title: string;
  kind: string;
  preferred?: boolean;
  verdict?: Verdict;
  edits: unknown[];
}
interface Diagnostic {
  code: string;
  severity: string;
  fixes: Fix[];
}

/** The verdict phrase after the title's dash, the wording every command shares. */
const verdictPhrase = (s: string) => /(covers \d[\d,]*\d(?:, validated by [^;()]+)?)/.exec(s)?.[1];

describe('one rule for scalings (spawned CLI: check, serve, plan)', function () {
  this.timeout(180000);
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), ...args], { encoding: 'utf8', cwd: ROOT, env });
  const json = (...args: string[]) => {
    const r = cli(...args);
    assert.ok(r.status === 0 || r.status === 1, `${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const diagnostics = (file: string): Diagnostic[] => json('check', file, '--format', 'json').files[0].diagnostics;
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-one-rule-'));
    // An empty Hugging Face cache: hub ids resolve through the built-in catalog only.
    env = { ...process.env, HF_HUB_CACHE: join(tmp, 'hub'), ROPE_LENS_PROOF_MAX_LENGTH: '131072' };
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("Qwen2.5-7B at 131,072 with Qwen's YaRN ×4: check, serve and plan say it covers 131,072, validated by Qwen; the bound is information", () => {
    const fixes = diagnostics(QWEN).find((d) => d.code === 'rope/context-extended')!.fixes;
    const recipe = fixes.find((f) => f.preferred)!;
    assert.match(recipe.title, /^Add YaRN as Qwen's model card for Qwen\/Qwen2\.5-7B documents it \(factor 4\.0, original_max_position_embeddings 32768\)/);
    assert.match(recipe.title, /— covers 131,072, validated by Qwen's model card$/);
    for (const f of fixes) assert.doesNotMatch(f.title, /holds to/, f.title);
    // The verdict says what judged it: the reach (4 × 32,768), and the bound's number kept as information.
    assert.equal(recipe.verdict?.judgedBy, 'reach');
    assert.equal(recipe.verdict?.reach, 131072);
    assert.equal(recipe.verdict?.validatedBy, "Qwen's model card");
    assert.ok(typeof recipe.verdict?.lmax === 'number' && recipe.verdict.lmax < 131072, 'the bound on the frequencies is still reported');

    const served = json('serve', QWEN, '--engine', 'vllm', '--json');
    assert.deepEqual(served.overrides.rope_scaling, { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 });
    assert.deepEqual(served.rewrite.verdict, recipe.verdict, 'serve carries the verdict check gives');
    const note = served.notes.join(' ');
    assert.doesNotMatch(note, /holds to|unless the bound|fails the bound/);
    assert.match(
      note,
      new RegExp(`the bound on its effective frequencies, ${(recipe.verdict!.lmax as number).toLocaleString('en-US')} of 131,072, is information`),
    );

    const plan = json('plan', '--model', QWEN, '--target', '131072', '--json');
    assert.equal(plan.withoutTraining.kind, 'yarn');
    assert.equal(plan.withoutTraining.recipe, true);
    assert.deepEqual(plan.withoutTraining.verdict, recipe.verdict, 'plan carries the verdict check gives');
    assert.doesNotMatch(plan.withoutTraining.why, /holds to|meets the bound/);
    const text = cli('plan', '--model', QWEN, '--target', '131072').stdout;
    const line = text.split('\n').find((l) => l.startsWith('without training:'))!;
    assert.doesNotMatch(line, /holds to/);

    // One wording: the same phrase in check's title, serve's note and plan's line.
    const phrase = verdictPhrase(recipe.title);
    assert.equal(phrase, "covers 131,072, validated by Qwen's model card");
    assert.equal(verdictPhrase(note), phrase);
    assert.equal(verdictPhrase(line), phrase);
  });

  it("a Llama-2-7b axolotl fine-tune at 16,384: check's preferred fix meets the bound and is plan's recommendation", () => {
    const d = diagnostics(AXOLOTL).find((x) => x.code === 'training/context-exceeded')!;
    const preferred = d.fixes.filter((f) => f.preferred);
    assert.equal(preferred.length, 1);
    const fix = preferred[0];
    // Trained frequencies are judged by the bound: the preferred fix meets it.
    assert.equal(fix.verdict?.lmax, null, fix.title);
    assert.equal(fix.verdict?.judgedBy, 'bound');
    assert.match(fix.title, /meets the bound at 16,384$/);
    for (const f of d.fixes) assert.doesNotMatch(f.title, /covers/, `trained rewrites are not judged by reach: ${f.title}`);

    const plan = json('plan', '--model', AXOLOTL, '--json');
    const stage = plan.stages[plan.stages.length - 1];
    const rec = stage.options.find((o: { method: string }) => o.method === stage.recommended);
    assert.ok(rec, `plan recommends ${stage.recommended}`);
    // The same method: plan's recommended base is the base check's fix writes.
    assert.equal(fix.kind, 'raise-base');
    assert.equal(rec.method, 'robust-base');
    const base = Number(/^Raise rope_theta to (\d+) /.exec(fix.title)?.[1]);
    assert.equal(base, rec.ropeTheta, fix.title);

    // Applied, the fix leaves the file without the warning (and plan's axolotl snippet writes the same base).
    const file = join(tmp, 'axolotl-llama2-16k.yaml');
    const text = readFileSync(AXOLOTL, 'utf8');
    // In the form transformers 5 reads (axolotl pins 5.x: a rope_theta alone would never reach the model).
    writeFileSync(file, `${text}overrides_of_model_config:\n  rope_parameters:\n    rope_type: default\n    rope_theta: ${base}\n`);
    assert.ok(!diagnostics(file).some((x) => x.severity === 'warning' || x.severity === 'error'));
    assert.match(stage.snippets.axolotl, new RegExp(`rope_theta: ${base}\\b`));
  });
});
