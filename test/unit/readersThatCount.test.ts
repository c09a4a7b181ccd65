/**
 * Which readers count (issue 33, deliverable 1), on real files: a reader counts when it is a
 * current release, or the workspace pins or launches it, or `.rope-lens.yaml` names it; the file's
 * own `transformers_version` (what saved it) is never taken for its reader. So on a public config
 * with its stamp, `check`'s preferred fix is `serve --engine vllm`'s rewrite, and files in the
 * layout transformers 5 saves get nothing above a hint unless the workspace pins transformers 4.x.
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { nodeWorkspaceFacts } from '../../shared/node/consumerPins';
import { join } from 'node:path';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { analyzeText } from '../../shared/service/analyze';
import { catalogResolver } from '../../shared/config/resolve';
import { trainedContextOf } from '../../shared/config/trainedContext';
import { servingInput, servingPlan } from '../../shared/serving/index';
import { contextKeysOf } from '../../shared/serving/contextKeys';
import { consumersText } from '../../shared/serving/consumersView';
import { pinsFromFile } from '../../shared/serving/pins';
import type { Finding, Fix } from '../../shared/core/findings';
import type { ModelRope } from '../../shared/config/modelRope';
import type { WorkspaceFacts } from '../../shared/serving/pins';

const oracle = createSyncOracle();
const service = createRopeLensService({ oracle, resolver: catalogResolver });
const FIX = join(__dirname, '..', 'fixtures');
const corpus = (f: string) => join(FIX, 'corpus', 'models', f);

interface Answer {
  kind: string;
  factor: number;
  original?: number;
  base?: number;
}
const round = (n: number | undefined) => (n === undefined ? undefined : Math.round(n * 100) / 100);
const norm = (a: Answer | undefined) => (a ? { kind: a.kind, factor: round(a.factor), original: a.original, base: round(a.base) } : undefined);
const fromFix = (f: Fix | undefined): Answer | undefined =>
  f?.rewrite ? { kind: f.kind, factor: f.rewrite.factor, original: f.rewrite.original, base: f.rewrite.base } : undefined;
function preferredRewrite(findings: Finding[]): Answer | undefined {
  return fromFix(findings.flatMap((d) => d.fixes).find((f) => f.preferred && f.rewrite));
}

/**
 * The file with its context key set to C, every other key (its transformers_version included) as
 * published, and `_name_or_path` naming the model as `save_pretrained` writes it after a hub load:
 * an edit of that model, so the question is only which reader loads it.
 */
function raised(text: string, rope: ModelRope, C: number): string {
  const cfg: Record<string, unknown> = { _name_or_path: rope.identity!.id, ...(JSON.parse(text) as Record<string, unknown>) };
  const parts = (rope.contextLength.key ?? 'max_position_embeddings').split('.');
  let o = cfg;
  for (const p of parts.slice(0, -1)) o = (o[p] ??= {}) as Record<string, unknown>;
  o[parts[parts.length - 1]] = C;
  return JSON.stringify(cfg, null, 2);
}

/**
 * Twelve public configs as their repositories publish them, each identified in the catalog, with
 * the transformers_version their vendor saved them with (4.31.0.dev0 to 4.51): the stamps that
 * used to be taken for the reader. Chosen as the plain full-attention families the catalog holds.
 */
const STAMPED = [
  'llama-2-7b-hf.json',
  'codellama-7b-hf.json',
  'meta-llama-3-8b.json',
  'meta-llama-3.1-8b-instruct.json',
  'mistral-7b-v0.1.json',
  'mixtral-8x7b-v0.1.json',
  'qwen1.5-7b.json',
  'phi-3-mini-4k-instruct.json',
  'qwen3-8b.json',
  'gemma-7b.json',
  'phi-2.json',
  'olmo-2-1124-7b.json',
];

describe('readers that count: check and serve give the same preferred rewrite on stamped public configs', function () {
  this.timeout(300000);
  let agree = 0,
    total = 0;
  for (const name of STAMPED) {
    it(`${name} at 2×, 4×, 8× its trained context`, () => {
      const path = corpus(name);
      const text = readFileSync(path, 'utf8');
      assert.match(text, /"transformers_version"/, 'the file carries its stamp');
      const stock = service.describe(text, { fileName: path, asModelConfig: true });
      const rope = stock.rope!;
      assert.ok(rope.identity, `${name} is identified in the catalog`);
      const T = trainedContextOf(rope).value;
      const wrong: string[] = [];
      for (const k of [2, 4, 8]) {
        const C = k * T;
        const checked = service.analyze(raised(text, rope, C), { fileName: path, asModelConfig: true });
        const input = servingInput(rope, { model: rope.identity!.id, contextKeys: stock.document ? contextKeysOf(stock.document) : {}, context: C });
        const plan = servingPlan('vllm', input);
        const served = plan.rewrite ? norm({ ...plan.rewrite }) : undefined;
        const got = norm(preferredRewrite(checked.diagnostics));
        total++;
        if (JSON.stringify(got) === JSON.stringify(served)) agree++;
        else wrong.push(`at ${C} (T = ${T}): check prefers ${JSON.stringify(got)}, serve --engine vllm writes ${JSON.stringify(served)}`);
      }
      assert.deepEqual(wrong, [], name);
    });
  }
  after(() => {
    // Every case ran and agreed (36 of 36 when nothing was skipped).
    assert.equal(total, STAMPED.length * 3, `cases ${total}`);
    assert.equal(agree, total, `${agree} of ${total} agree`);
  });

  it('Llama-2-7b (stamped 4.31.0.dev0) raised to 8,192: check prefers YaRN ×2 over 4,096, as serve writes, and still offers NTK', () => {
    const path = corpus('llama-2-7b-hf.json');
    const text = readFileSync(path, 'utf8');
    assert.equal(JSON.parse(text).transformers_version, '4.31.0.dev0');
    const a = service.analyze(raised(text, service.describe(text, { fileName: path, asModelConfig: true }).rope!, 8192), {
      fileName: path,
      asModelConfig: true,
    });
    const d = a.diagnostics.find((f) => f.code === 'rope/context-extended')!;
    assert.deepEqual(norm(preferredRewrite([d])), { kind: 'yarn', factor: 2, original: 4096, base: undefined });
    assert.ok(
      d.fixes.some((f) => f.kind === 'ntk'),
      'NTK stays offered',
    );
    // transformers ≤ 4.42 refuses rope_type yarn, but nothing here pins it: no finding above hint says so.
    assert.deepEqual(
      a.diagnostics.filter((f) => f.code.startsWith('consumer/') && f.severity !== 'hint'),
      [],
    );
  });
});

/** A workspace that pins `spec` lines in a requirements.txt. */
const pinning = (...lines: string[]): WorkspaceFacts => ({ pinsFor: () => pinsFromFile('requirements.txt', lines.join('\n')) ?? [] });
const aboveHint = (ds: Finding[]) => ds.filter((d) => d.severity !== 'hint' && d.code.startsWith('consumer/'));

describe('readers that count: files in the layout transformers 5 saves', () => {
  // Real configs saved by transformers 5 (rope_parameters only), read correctly by every current reader.
  const V5 = [join(FIX, 'consumers', 'mistral-7b-v5-rope-parameters.json'), corpus('llama-3.1-8b-v5-rope-parameters.json')];

  it('no consumer finding above hint by default; the hint keeps the portable back-fill', () => {
    for (const path of V5) {
      const a = service.analyze(readFileSync(path, 'utf8'), { fileName: path });
      assert.deepEqual(aboveHint(a.diagnostics), [], path);
      const hint = a.diagnostics.find((d) => d.code === 'consumer/silent-misread')!;
      assert.equal(hint.severity, 'hint', path);
      assert.match(said(hint), /Current releases read it as meant/, path);
      assert.match(hint.fixes[0]?.title ?? '', /^Back-fill/, path);
    }
  });

  it('a warning when the workspace pins transformers 4.x, naming the pin; transformers 5 pinned stays a hint', () => {
    for (const path of V5) {
      const text = readFileSync(path, 'utf8');
      const pinned = analyzeText(text, { fileName: path, oracle, workspace: pinning('torch==2.4.0', 'transformers==4.46.3') });
      const d = pinned.diagnostics.find((x) => x.code === 'consumer/silent-misread')!;
      assert.equal(d.severity, 'warning', path);
      assert.match(said(d), /transformers 4\.46\.3 \(requirements\.txt:2\)/, path);
      const v5 = analyzeText(text, { fileName: path, oracle, workspace: pinning('transformers==5.2.0') });
      assert.deepEqual(aboveHint(v5.diagnostics), [], path);
    }
  });

  it("the stamp is a fact, not a reader: a v5-layout file stamped 4.40 gets the same hint, and the consumers table shows the stamp's release", () => {
    const path = V5[0];
    const cfg = JSON.parse(readFileSync(path, 'utf8'));
    const text = JSON.stringify({ ...cfg, transformers_version: '4.40.0' }, null, 2);
    const a = service.analyze(text, { fileName: path });
    assert.deepEqual(aboveHint(a.diagnostics), []);
    assert.match(consumersText(a.consumers ?? [], { savedWith: '4.40.0' }), /saved by transformers 4\.40\.0/);
  });
});

describe('readers that count: what the workspace shows', () => {
  it('pip install x== in a Dockerfile or script, and a launch that starts an engine, pin that engine', () => {
    const docker = 'FROM python:3.11\nRUN pip install --no-cache-dir "transformers==4.44.2" vllm==0.6.1.post2\nCMD ["vllm", "serve", "/models/m"]\n';
    assert.deepEqual(
      pinsFromFile('Dockerfile', docker)!.map((p) => `${p.pkg}@${p.version}@${p.source}`),
      ['transformers@4.44.2@Dockerfile:2', 'vllm@0.6.1.post2@Dockerfile:2'],
    );
    const script = '#!/bin/bash\npython -m pip install -U sglang[all]==0.4.6.post1\ntext-generation-launcher --model-id /m --max-input-tokens 4096\n';
    assert.deepEqual(
      pinsFromFile('serve.sh', script)!.map((p) => `${p.pkg}@${p.version}`),
      ['sglang@0.4.6.post1', 'tgi@null'],
    );
    // Named without a pin elsewhere: a script that only launches vLLM puts the current vLLM in use.
    assert.deepEqual(
      pinsFromFile('run.sh', 'vllm serve /m --max-model-len 8192\n')!.map((p) => `${p.pkg}@${p.version}`),
      ['vllm@null'],
    );
    assert.deepEqual(pinsFromFile('build.sh', 'echo hello\n'), []);
  });

  it('a Dockerfile beside a v5-layout config that pip-installs transformers 4.x makes the misread a warning naming that line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rope-lens-readers-'));
    try {
      const cfg = join(dir, 'config.json');
      writeFileSync(cfg, readFileSync(join(FIX, 'consumers', 'mistral-7b-v5-rope-parameters.json'), 'utf8'));
      writeFileSync(join(dir, 'Dockerfile'), 'FROM python:3.11\nRUN pip install transformers==4.44.2 accelerate\n');
      const a = analyzeText(readFileSync(cfg, 'utf8'), { fileName: cfg, oracle, workspace: nodeWorkspaceFacts(0) });
      const d = a.diagnostics.find((x) => x.code === 'consumer/silent-misread')!;
      assert.equal(d.severity, 'warning');
      assert.match(said(d), /transformers 4\.44\.2 \(.*Dockerfile:2\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a refusal vLLM inherits from transformers 5 is one error naming both (a real file 5.17 and 5.18 refuse)', () => {
    const path = join(FIX, 'transformers-5.17', 'refused', 'gemma-3-4b-v5-six-layer-types.json');
    // (4.43 – 4.57 refuse it too, for its own length check: a hint, as no pin asks for 4.x.)
    const refused = service
      .analyze(readFileSync(path, 'utf8'), { fileName: path })
      .diagnostics.filter((d) => d.code === 'consumer/refused' && d.severity !== 'hint');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].severity, 'error');
    assert.match(said(refused[0]), /^transformers 5\.x and vLLM ≥ 0\.24 refuse this file at load with StrictDataclassClassValidationError/);
  });

  it('every real v5-layout fixture of the transformers 5.17 corpus sample is judged without a stamp-based warning', () => {
    const dir = join(FIX, 'transformers-5.17', 'corpus-sample');
    for (const f of readdirSync(dir)) {
      const path = join(dir, f);
      const a = service.analyze(readFileSync(path, 'utf8'), { fileName: path });
      for (const d of a.diagnostics.filter((x) => x.code === 'consumer/refused' || x.code === 'consumer/silent-misread'))
        assert.notEqual(d.severity, 'warning', `${f}: ${d.message}`);
    }
  });
});
