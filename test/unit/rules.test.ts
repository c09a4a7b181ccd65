import { sniff } from '../../shared/service/sniff';
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { parseDocumentText, formatOf } from '../../shared/document/parse';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { FileAnalysis } from '../../shared/service/types';
import { findCatalogEntry } from '../../shared/config/catalog';
import { said } from './helpers/findingText';

const oracle = createSyncOracle();
const fixtures = join(__dirname, '../fixtures');
const analyze = (rel: string, verifyFixes = true): FileAnalysis => {
  const path = join(fixtures, rel);
  return analyzeText(readFileSync(path, 'utf8'), { fileName: path, oracle, verifyFixes });
};
const codes = (a: FileAnalysis) => a.diagnostics.map((d) => d.code).sort();

describe('rules', () => {
  it('a valid base gets no below-the-bound finding (Llama-3-8B: 500000 for 8192, Llama-3.1 at its original 8192)', () => {
    assert.deepEqual(codes(analyze('configs/meta-llama-3-8b.json')), []);
    assert.deepEqual(codes(analyze('configs/llama-3.1-8b.json')), []);
    assert.deepEqual(codes(analyze('configs/olmo-3-v5-rope-parameters.json')), []);
  });

  it('a stock base below the bound is a hint (issue 33: it was information), with the length it holds to and b*', () => {
    const a = analyze('configs/llama-2-7b-hf.json');
    const d = a.diagnostics.find((x) => x.code === 'rope/base-below-bound')!;
    assert.equal(d.severity, 'hint');
    // b*(4096, 128) = 26952.34 (float64 reference in the project notes), printed rounded up (issue 33).
    const printed = Number(/b\* ≈ ([\d,.]+)/.exec(said(d))![1].replace(/,/g, ''));
    assert.ok(printed >= 26952.34 && printed < 26952.34 * 1.0001, String(printed));
    // rope_theta is absent: the finding points at max_position_embeddings (line 12).
    assert.equal(d.range.start.line, 11);
    // A fact about the checkpoint, worded as such, and no rewrite: the model was trained this way.
    assert.equal(d.message, 'default base 10,000 (not in the file) holds the RoPE base bound only to 1,707 of 4,096 tokens, as trained.');
    assert.match(said(d), /That is how the model was trained, not a mistake in this file/);
    assert.deepEqual(d.fixes, []);
  });

  it('training past the context without scaling: situation-3 fixes from T = 4096, each with its verdict', () => {
    const a = analyze('training/axolotl-llama2-16k-no-scaling.yaml');
    const d = a.diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    assert.equal(d.severity, 'warning');
    assert.equal(a.training?.resolvedFrom, 'catalog:meta-llama/Llama-2-7b-hf');
    // The NTK base holds only to 4,067 of 16,384: written as the base to train with, it is a
    // rope/base-below-bound warning of its own, so it is built but not offered.
    const built = analyzeText(readFileSync(join(fixtures, 'training/axolotl-llama2-16k-no-scaling.yaml'), 'utf8'), {
      fileName: 'axolotl.yaml',
      oracle,
      verifyFixes: false,
    });
    const ntk = built.diagnostics.find((x) => x.code === 'training/context-exceeded')!.fixes.find((f) => f.kind === 'ntk')!;
    assert.match(ntk.title, /^Apply NTK scaling: rope_theta 10000 → 40889\.94 \(s = 4, d = 128\) — holds to [\d,]+ of 16,384$/);
    assert.ok(!d.fixes.some((f) => f.kind === 'ntk'));
    const yarn = d.fixes.find((f) => f.kind === 'yarn')!;
    // axolotl runs transformers 5, where a scaling dict replaces rope_parameters whole: it carries the model's base.
    assert.equal(
      yarn.edits[0].newText,
      '\noverrides_of_model_config:\n  rope_scaling:\n    rope_type: yarn\n    factor: 4.0\n    original_max_position_embeddings: 4096\n    rope_theta: 10000',
    );
    // Every fix states its verdict on the bound at 16,384 (trained frequencies); the preferred one meets it:
    // the smallest robust valid base, as rope/base-below-bound and plan choose it (docs/judgement.md).
    for (const f of d.fixes) assert.equal(f.verdict?.length, 16384, f.title);
    for (const f of d.fixes) assert.equal(f.verdict?.judgedBy, 'bound', f.title);
    assert.equal(d.fixes.filter((f) => f.preferred).length, 1);
    const preferred = d.fixes.find((f) => f.preferred)!;
    assert.equal(preferred.verdict!.lmax, null, preferred.title);
    assert.match(preferred.title, /^Raise rope_theta to 830000 \(valid for every base within ±10% at 16,384 tokens, proven\) — meets the bound at 16,384$/);
  });

  it("training past what a scaled model covers: the message names the limit it compared, the fixes rescale from T in the trainer's keys", () => {
    const text = 'base_model: meta-llama/Llama-3.1-8B\nsequence_len: 500000\nmicro_batch_size: 1\ndatasets:\n  - path: data.jsonl\n    type: completion\n';
    const a = analyzeText(text, { fileName: '/w/train.yaml', oracle, verifyFixes: true });
    const d = a.diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    assert.equal(d.severity, 'warning');
    // Llama-3.1 is declared for 131,072 with llama3 factor 8 over 8,192: 131,072 is what was compared.
    assert.match(
      said(d),
      /It covers 131,072 tokens \(max_position_embeddings 131,072 from catalog:meta-llama\/Llama-3\.1-8B, declared with its llama3 scaling of factor 8 over the original 8,192\)/,
    );
    assert.doesNotMatch(d.message, /65,536/);
    // Issue 33: the message names the factor its fixes write (500,000 / 8,192 = 61.04, written as 61.25).
    assert.match(said(d), /Scale from the trained context 8,192 by factor 61\.25 instead/);
    assert.doesNotMatch(said(d), /61\.04/);
    // New scaling blocks from T = 8,192 (factor ≥ 500,000 / 8,192), no base change under the old scaling.
    assert.ok(
      d.fixes.every((f) => f.kind !== 'ntk' && f.kind !== 'raise-base'),
      d.fixes.map((f) => f.title).join(' / '),
    );
    const llama3 = d.fixes.find((f) => f.kind === 'llama3')!;
    assert.match(llama3.title, /^Add llama3 scaling \(factor 61\.25, .*original_max_position_embeddings 8192\)/);
    for (const f of d.fixes) assert.equal(f.verdict?.length, 500000, f.title);
    // Applied, the file has no warning left (the new block restates the original: not a stacked scaling).
    for (const f of d.fixes) {
      const out = applyTextEdits(text, new LineIndex(text), f.edits);
      const after = analyzeText(out, { fileName: '/w/train.yaml', oracle });
      assert.deepEqual(
        after.diagnostics.filter((x) => x.severity === 'warning').map((x) => x.message),
        [],
        f.title,
      );
    }
    // A YaRN override that covers less than the training length: the limit is original × factor.
    const yarn =
      'base_model: Qwen/Qwen2.5-7B-Instruct\nsequence_len: 262144\nmicro_batch_size: 1\ndatasets:\n  - path: d.jsonl\n    type: completion\noverrides_of_model_config:\n  rope_scaling:\n    rope_type: yarn\n    factor: 4.0\n    original_max_position_embeddings: 32768\n';
    const y = analyzeText(yarn, { fileName: '/w/qwen.yaml', oracle, verifyFixes: true }).diagnostics.find((x) => x.code === 'training/context-exceeded')!;
    assert.match(said(y), /It covers 131,072 tokens \(original 32,768 × yarn factor 4/);
    assert.ok(
      y.fixes.some((f) => /Add YaRN scaling \(factor 8, original_max_position_embeddings 32768\)/.test(f.title)),
      y.fixes.map((f) => f.title).join(' / '),
    );
  });

  it('Llama-3-70B raised from 8,192 to 65,536 without scaling: a warning with s = 8, and a training-free fix preferred', () => {
    const config = { ...findCatalogEntry('meta-llama/Meta-Llama-3-70B')!.config, max_position_embeddings: 65536 };
    const a = analyzeText(JSON.stringify(config, null, 2), { fileName: 'config.json', oracle, verifyFixes: true });
    const d = a.diagnostics.find((x) => x.code === 'rope/context-extended')!;
    assert.equal(d.severity, 'warning');
    assert.match(said(d), /beyond the 8,192 tokens this checkpoint was trained at/);
    assert.ok(
      d.fixes.some((f) => f.kind === 'ntk' && /s = 8, d = 128/.test(f.title)),
      'Apply NTK scaling is always offered',
    );
    const yarn = d.fixes.find((f) => f.kind === 'yarn')!;
    assert.match(yarn.title, /factor 8, original_max_position_embeddings 8192/);
    // Running the checkpoint as is, every scaling is judged by its reach (all cover 65,536); the preferred
    // one is a training-free method, not Gradient's base (a base to train with), and among those the Llama 3
    // line's own llama3 scaling before generic ones (issue 33: it was YaRN).
    const preferred = d.fixes.filter((f) => f.preferred);
    assert.equal(preferred.length, 1);
    assert.equal(preferred[0].kind, 'llama3');
    assert.equal(preferred[0].verdict?.judgedBy, 'reach');
    assert.equal(preferred[0].verdict?.reach, 65536);
    assert.match(preferred[0].title, /— covers 65,536$/);
  });

  it('yarn factor against max_position_embeddings / original: the vendor recipe informs without an edit, a real mismatch warns with fixes', () => {
    // Qwen2.5-7B-Instruct as its model card says to run it: yarn factor 4 over 32,768 added to the shipped config.
    const qwen = analyze('../fixtures/corpus/models/qwen2.5-7b-instruct-yarn.json');
    const info = qwen.diagnostics.find((d) => d.code === 'rope/factor-mismatch')!;
    assert.equal(info.severity, 'information');
    assert.match(said(info), /original × factor = 131,072/);
    assert.deepEqual(info.fixes, []);
    // Context 65,536 over original 32,768 is 2, but the factor says 4: the user meant one of them.
    const text = readFileSync(join(fixtures, 'corpus/models/qwen2.5-7b-instruct-yarn.json'), 'utf8').replace(
      '"max_position_embeddings": 32768',
      '"max_position_embeddings": 65536',
    );
    const mismatch = analyzeText(text, { fileName: 'config.json', oracle, verifyFixes: true }).diagnostics.find((d) => d.code === 'rope/factor-mismatch')!;
    assert.equal(mismatch.severity, 'warning');
    assert.deepEqual(
      mismatch.fixes.map((f) => f.title),
      ['Set max_position_embeddings to 131072 (original × factor)', 'Set factor to 2 (max_position_embeddings / original)'],
    );
    // YaRN ×1 below its original (ms-swift's factor for a max_model_len within the context) computes the trained
    // frequencies: transformers' warning only, so information without an edit.
    const asTrained = readFileSync(join(fixtures, 'corpus/models/qwen2.5-7b-instruct-yarn.json'), 'utf8')
      .replace('"factor": 4.0', '"factor": 1.0')
      .replace('"max_position_embeddings": 32768', '"max_position_embeddings": 16000');
    const one = analyzeText(asTrained, { fileName: 'config.json', oracle, verifyFixes: true }).diagnostics.find((d) => d.code === 'rope/factor-mismatch')!;
    assert.equal(one.severity, 'information');
    assert.deepEqual(one.fixes, []);
    assert.match(said(one), /A factor of 1 leaves every frequency as trained/);
  });

  it("scaling checks in transformers' terms", () => {
    assert.deepEqual(
      codes(analyze('configs/qwen2.5-type-conflict.json')).filter((c) => c !== 'rope/base-below-bound'),
      ['rope/type-conflict'],
    );
    // consumer/refused (information: no transformers_version in the file) is the consumer rules' own; see consumers.test.ts.
    const bands = analyze('configs/llama3-bad-bands.json').diagnostics.filter((d) => !d.code.startsWith('consumer/'));
    assert.deepEqual(bands.map((d) => d.code).sort(), ['rope/llama3-freq-order', 'rope/llama3-original-context']);
    for (const d of bands) assert.equal(d.severity, 'warning', d.code);
    assert.deepEqual(
      codes(analyze('configs/yarn-beta-swapped.json')).filter((c) => c !== 'rope/base-below-bound'),
      ['rope/scaling-unknown-key', 'rope/yarn-beta-order'],
    );
    const inv = analyze('configs/llama-2-linear-inverted-factor.oneline.json').diagnostics.find((d) => d.code === 'rope/scaling-invalid-value')!;
    assert.equal(inv.severity, 'error');
    assert.equal(inv.fixes[0].edits[0].newText, '4.0');
  });

  it("YaRN without original_max_position_embeddings: Qwen's recipe over the trained 32,768 is right; over a raised context it is a warning with both numbers", () => {
    // Qwen2.5's documented recipe: YaRN ×4 added to the shipped config, max_position_embeddings = T = 32,768.
    const recipe = analyze('configs/qwen2.5-7b-instruct-yarn-no-original.crlf.json');
    assert.ok(!codes(recipe).includes('rope/original-context-missing'), JSON.stringify(recipe.diagnostics));
    for (const d of recipe.diagnostics) {
      assert.notEqual(d.severity, 'warning', d.message);
      assert.doesNotMatch(said(d), /adding scaling without training would degrade/);
    }
    // The same recipe with max_position_embeddings raised to 131,072: transformers stretches from 131,072, not 32,768.
    const text = readFileSync(join(fixtures, 'configs/qwen2.5-7b-instruct-yarn-no-original.crlf.json'), 'utf8').replace(
      '"max_position_embeddings": 32768',
      '"max_position_embeddings": 131072',
    );
    const raised = analyzeText(text, { fileName: 'config.json', oracle, verifyFixes: true });
    const d = raised.diagnostics.find((x) => x.code === 'rope/original-context-missing')!;
    assert.ok(d, JSON.stringify(raised.diagnostics));
    assert.equal(d.severity, 'warning');
    assert.match(said(d), /takes max_position_embeddings 131,072 as the original context, but this checkpoint was trained at 32,768/);
    assert.deepEqual(
      d.fixes.map((f) => f.title),
      ['Set original_max_position_embeddings to 32768 (the trained context)'],
    );
    const fixed = applyTextEdits(text, new LineIndex(text), d.fixes[0].edits);
    assert.ok(!codes(analyzeText(fixed, { fileName: 'config.json', oracle })).includes('rope/original-context-missing'));
    // Raised to 65,536 with factor 4: the fix writes the factor that reaches 65,536 from 32,768 too.
    const half = analyzeText(text.replace('131072', '65536'), { fileName: 'config.json', oracle, verifyFixes: true });
    assert.deepEqual(
      half.diagnostics.find((x) => x.code === 'rope/original-context-missing')!.fixes.map((f) => f.title),
      ['Set original_max_position_embeddings to 32768 (the trained context) and factor to 2 (max_position_embeddings / 32768)'],
    );
  });

  it('trainer traps: deprecated axolotl key, dynamic while training, stacked scaling, LLaMA-Factory factor', () => {
    assert.ok(codes(analyze('training/axolotl-deprecated-rope-scaling.yaml')).includes('axolotl/deprecated-rope-scaling'));
    // With no transformers pin LLaMA-Factory gets transformers 5.x, where its scaling fails at load.
    assert.deepEqual(codes(analyze('training/llamafactory-dynamic.yaml')), [
      'llama-factory/derived-factor',
      'llama-factory/fails-on-transformers-5',
      'training/dynamic-scaling',
    ]);
    assert.ok(codes(analyze('training/llamafactory-stacked-on-llama3.yaml')).includes('training/stacked-scaling'));
    assert.deepEqual(codes(analyze('training/llamafactory-scaling-ignored.yaml')), ['llama-factory/scaling-ignored']);
    const derived = analyze('training/llamafactory-dynamic.yaml').diagnostics.find((d) => d.code === 'llama-factory/derived-factor')!;
    assert.match(said(derived), /ceil\(65,536 \/ 32,768\) = 2\.0/);
  });

  it('non-configs are "other" with nothing to say, and big files are not parsed', () => {
    for (const f of ['configs/package.json', 'configs/tokenizer.json', 'training/.github/workflows/ci.yml']) {
      const a = analyze(f);
      assert.equal(a.kind, 'other', f);
      assert.equal(a.diagnostics.length, 0);
    }
    const big = '{"model": {"vocab": {' + Array.from({ length: 400000 }, (_, i) => `"t${i}": ${i}`).join(', ') + '}}}';
    // Decided by the sniffer on the raw text (no parse); timings belong in npm run bench.
    assert.equal(sniff(big, 'x/vocab-dump.json', 'json'), 'other', 'sniffed, not parsed');
    assert.equal(analyzeText(big, { fileName: 'x/vocab-dump.json', oracle }).kind, 'other');
  });

  it("an unresolvable base model: the YAML's own overrides are still reported, unknowns as null", () => {
    const text =
      'base_model: /nowhere/my-model\nsequence_len: 8192\noverrides_of_model_config:\n  rope_scaling:\n    type: yarn\n    factor: 2.0\n    original_max_position_embeddings: 4096\n  max_position_embeddings: 8192\n';
    const a = analyzeText(text, { fileName: '/w/run.yml', oracle });
    assert.equal(a.kind, 'training-config');
    assert.equal(a.rope!.contextLength.value, 8192);
    assert.equal(a.rope!.originalContextLength!.value, 4096);
    assert.equal(a.rope!.scaling!.type, 'yarn');
    assert.ok(Number.isNaN(a.rope!.base.value));
    // The legacy `type` key fails on transformers 5 (axolotl's line) whatever the base model.
    assert.deepEqual(codes(a), ['axolotl/override-fails', 'training/base-model-unresolved']);
  });

  it('severity overrides change or drop codes', () => {
    const path = join(fixtures, 'configs/llama-2-7b-hf.json');
    const text = readFileSync(path, 'utf8');
    assert.equal(analyzeText(text, { fileName: path, oracle, severityOverrides: { 'rope/base-below-bound': 'off' } }).diagnostics.length, 0);
    assert.equal(analyzeText(text, { fileName: path, oracle, severityOverrides: { 'rope/base-below-bound': 'warning' } }).diagnostics[0].severity, 'warning');
  });
});

/** Every file under test/fixtures/{configs,training}. */
function allFixtures(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (formatOf(n)) out.push(relative(fixtures, p));
    }
  };
  walk(join(fixtures, 'configs'));
  walk(join(fixtures, 'training'));
  return out;
}

describe('every offered fix round-trips (all fixtures, fix builders checked without the verifier)', () => {
  for (const rel of allFixtures()) {
    it(rel, () => {
      const path = join(fixtures, rel);
      const text = readFileSync(path, 'utf8');
      const format = formatOf(path)!;
      const before = analyzeText(text, { fileName: path, oracle, verifyFixes: false });
      const lines = new LineIndex(text);
      for (const d of before.diagnostics) {
        for (const fix of d.fixes) {
          const next = applyTextEdits(text, lines, fix.edits);
          assert.deepEqual(parseDocumentText(next, format).problems, parseDocumentText(text, format).problems, `${fix.title}: result must parse`);
          // Nothing outside the edited ranges changes: the text before the first and after the last edit is intact.
          const first = Math.min(...fix.edits.map((e) => lines.offsetAt(e.range.start)));
          const last = Math.max(...fix.edits.map((e) => lines.offsetAt(e.range.end)));
          assert.equal(next.slice(0, first), text.slice(0, first));
          assert.equal(next.slice(next.length - (text.length - last)), text.slice(last));
          const after = analyzeText(next, { fileName: path, oracle, verifyFixes: false });
          const n = (a: FileAnalysis) => a.diagnostics.filter((x) => x.code === d.code).length;
          assert.ok(n(after) < n(before), `${fix.title}: ${d.code} must be gone`);
        }
      }
      // The verifier keeps these fixes, less those that bring a warning or error the file did not have.
      const verified = analyzeText(text, { fileName: path, oracle });
      const serious = (a: FileAnalysis) => {
        const m = new Map<string, number>();
        for (const x of a.diagnostics) if (x.severity === 'error' || x.severity === 'warning') m.set(x.code, (m.get(x.code) ?? 0) + 1);
        return m;
      };
      const was = serious(before);
      before.diagnostics.forEach((d, i) => {
        const kept = new Set(verified.diagnostics[i].fixes.map((f) => f.title.replace(/ — .*$/, '')));
        for (const fix of d.fixes) {
          const after = serious(analyzeText(applyTextEdits(text, lines, fix.edits), { fileName: path, oracle, verifyFixes: false }));
          const bringsNew = [...after].some(([code, n]) => n > (was.get(code) ?? 0));
          assert.equal(kept.has(fix.title.replace(/ — .*$/, '')), !bringsNew, `${fix.title}: kept exactly when it brings no new warning or error`);
        }
      });
    });
  }
});
