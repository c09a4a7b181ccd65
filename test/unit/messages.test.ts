/**
 * How findings are worded (issue 33, deliverables 6 and 8), checked mechanically:
 *  - a printed b* is itself valid for the length it is printed for: parsed back, it passes a float64
 *    scan written here, independent of the production scan (shared/rope/fb);
 *  - over every fixture, example and launch file, and every catalog model raised ×4, each finding's
 *    first sentence is at most 120 characters, and a key it quotes is one the file writes (or one
 *    its own fix writes), never a default or an alias presented as the file's.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bstar, lmax } from '../../shared/bstar/index';
import { validBaseFigure } from '../../shared/core/baseFigure';
import { createRopeLensService, type RopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { catalogResolver } from '../../shared/config/resolve';
import { CATALOG, catalogConfigText } from '../../shared/config/catalog';
import { loadShellParser } from '../../shared/node/shellParser';
import type { Finding } from '../../shared/core/findings';
import { said } from './helpers/findingText';
import { pageExamples, rulePages } from '../../server/cli/rulePages';

const ROOT = join(__dirname, '..', '..');
/** The project's validity: f_b(m) ≥ −1e-7 counts as non-negative (shared/rope/fb TOLERANCE). */
const TOLERANCE = 1e-7;

/** Independent float64 scan: the first m < L with Σᵢ cos(m·b^(−2i/d)) < −TOLERANCE, or null. Direct cosines, no recurrence. */
function firstFailure(base: number, d: number, L: number): number | null {
  const theta: number[] = [];
  for (let i = 0; i < d / 2; i++) theta.push(base ** ((-2 * i) / d));
  for (let m = 0; m < L; m++) {
    let f = 0;
    for (const t of theta) f += Math.cos(m * t);
    if (f < -TOLERANCE) return m;
  }
  return null;
}

/** "629,978.27" → 629978.27 */
const parsed = (text: string) => Number(text.replace(/,/g, ''));

describe('messages: printed bases are valid as printed (issue 33, deliverable 6)', function () {
  this.timeout(120000);
  const cases: [number, number][] = [
    [1024, 128],
    [2048, 128],
    [4096, 64],
    [8192, 96],
    [16384, 128],
    [32768, 128],
  ];
  for (const [L, d] of cases) {
    it(`b*(${L}, ${d}) printed for messages and for the CLI passes an independent float64 scan`, () => {
      const b = bstar(L, d).bstar;
      for (const style of ['message', 'figure'] as const) {
        const text = validBaseFigure(b, (x) => lmax(x, d, L), style);
        assert.ok(text !== undefined, `${style}: a figure is printed`);
        const value = parsed(text);
        assert.ok(value >= b, `${style}: ${text} is not below b* = ${b}`);
        assert.ok(value <= b * (1 + 1e-5), `${style}: ${text} is b* rounded, not another base`);
        assert.equal(firstFailure(value, d, L), null, `${style}: ${text} fails the independent scan`);
      }
    });
  }

  it('rounding ends for bases with many digits (b*(40960, 64) ≈ 4,709,626.18 once looped forever) and never prints an invalid figure', () => {
    const b = 4709626.1832373105;
    for (const style of ['message', 'figure'] as const) {
      assert.equal(
        validBaseFigure(b, () => 1, style),
        undefined,
        `${style}: nothing valid, nothing printed`,
      );
      assert.equal(validBaseFigure(1.5e21, () => null, style) === undefined || style === 'figure', true);
    }
  });

  it('the scan can fail: b*(32768, 128) rounded to the nearest cent (629,978.26) is invalid', () => {
    const b = bstar(32768, 128).bstar;
    const nearest = Math.round(b * 100) / 100;
    assert.equal(nearest, 629978.26);
    assert.equal(firstFailure(nearest, 128, 32768), 30704);
  });

  it("rope/base-below-bound's printed b* passes the independent scan (rope_theta 1,000,000 at 32,768)", () => {
    const service = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver });
    const config = { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1000000 };
    const a = service.analyze(JSON.stringify(config, null, 2), { fileName: '/w/config.json' });
    const f = a.diagnostics.find((x) => x.code === 'rope/base-below-bound');
    assert.ok(f, JSON.stringify(a.diagnostics.map((x) => x.message)));
    // 1,000,000 is above b*: the dip is an island past it, never worded as below the bound (advice.md situation 5).
    assert.match(said(f), /^rope_theta 1,000,000 clears b\* ≈ [\d,.]+ for 32,768 tokens but dips below zero from 27,115/);
    assert.doesNotMatch(said(f), /below the bound|holds the RoPE base bound only/);
    // Why a larger base fails where a smaller one holds: the detail says so.
    assert.match(said(f), /validity is not monotone in the base/);
    const shown = /b\* ≈ ([\d,.]+)/.exec(said(f));
    assert.ok(shown, said(f));
    assert.equal(firstFailure(parsed(shown[1]), 128, 32768), null, `${shown[1]} as printed`);
  });

  it('a pretraining base below the bound leads with the base to set, and that base is valid with its ±10%', () => {
    const service = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver });
    const neox = readFileSync(join(ROOT, 'test', 'fixtures', 'training', 'gptneox-pythia-1-4B.yml'), 'utf8');
    const a = service.analyze(neox, { fileName: '/w/pythia.yml' });
    const f = a.diagnostics.find((x) => x.code === 'rope/base-below-bound')!;
    const m = /^Raise (\S+) from (?:the default )?([\d,]+) to ([\d,]+): /.exec(f.message);
    assert.ok(m, f.message);
    const fix = f.fixes.find((x) => x.preferred)!;
    // The number in the message is the number the fix writes.
    assert.deepEqual(
      fix.edits.map((e) => Number(/([\d.]+)\s*$/.exec(e.newText)?.[1])),
      [parsed(m[3])],
    );
    // The file has no rotary-emb-base: the base is GPT-NeoX's default, said so, never quoted as the file's key.
    assert.equal(m[1], 'rotary_emb_base');
    assert.match(m[2], /^10,000$/);
    assert.match(said(f), /from the default 10,000/);
    const L = 2048,
      d = 32; // Pythia-1.4B: seq-length 2048, rotary_pct 0.25 of head 128
    for (const k of [0.9, 1, 1.1]) assert.equal(firstFailure(parsed(m[3]) * k, d, L), null, `${m[3]} × ${k}`);
  });
});

/** Every JSON/YAML/launch file under a folder (not the expected-answer and schema files). */
function files(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (!/\.(md|gguf|sarif|txt|py)$/.test(n) && !/expected|results|schema|catalogIds|SOURCES/.test(n)) out.push(p);
  }
  return out;
}

/** The first sentence: up to the first . ! or ? followed by a space or the end. */
function firstSentence(message: string): string {
  return /^(.*?[.!?])(\s|$)/s.exec(message)?.[1] ?? message;
}

/**
 * Key-like names a finding quotes (`rope_scaling`, 'attn_factor', "rope-scaling"): snake_case or
 * hyphenated words. A key named as absent ("has no "beta_fast"") is not quoted as the file's.
 */
function quotedKeys(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[`'"]([A-Za-z][\w.-]*[_-][\w.-]*)[`'"]/g)) {
    const clause = text
      .slice(0, m.index)
      .split(/[.:;]\s/)
      .pop()!;
    if (/\b(has no|without|is missing|lacks)\b/.test(clause)) continue;
    out.push(m[1]);
  }
  return out;
}

/** "rope_theta 10,000": a key stated with a value as the file's (a default says "default", a GGUF's key "the GGUF's"). */
function statedKeys(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![Dd]efault |GGUF's )(?<![\w.`'"-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+) (\d[\d,]*(?:\.\d+)?)\b/g)) out.push(m[1]);
  return out;
}

/** A key the finding may name: in the file, or written by one of its own fixes. */
function named(key: string, text: string, f: Finding): boolean {
  const last = key.split('.').pop()!;
  const written = f.fixes.flatMap((x) => [x.title, ...x.edits.map((e) => e.newText)]).join('\n');
  return [key, last].some((k) => text.includes(k) || written.includes(k));
}

describe('messages: every finding leads with one short sentence and quotes keys as the file writes them (issue 33, deliverable 8)', function () {
  this.timeout(600000);
  let service: RopeLensService;
  before(async () => {
    const shell = await loadShellParser();
    service = createRopeLensService({ oracle: createSyncOracle(), resolver: catalogResolver, shellParser: () => shell });
  });
  const all = [...files(join(ROOT, 'examples')), ...files(join(ROOT, 'test', 'fixtures'))];

  it(`over ${all.length} fixture, example and launch files, the rule pages' examples and the catalog raised ×4`, () => {
    const inputs: [string, string][] = all.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8')]);
    for (const e of CATALOG.filter((x) => !x.noRope)) {
      const cfg = JSON.parse(catalogConfigText(e)) as Record<string, unknown>;
      const scope = (typeof cfg['text_config'] === 'object' && cfg['text_config'] ? cfg['text_config'] : cfg) as Record<string, unknown>;
      scope['max_position_embeddings'] = 4 * e.trainedContext.value;
      inputs.push([`catalog:${e.id}×4/config.json`, JSON.stringify(cfg, null, 2)]);
    }
    // The rule pages' examples reach codes no fixture does (GGUF metadata is read by its own entry, not here).
    for (const [code, page] of rulePages()) {
      for (const ex of pageExamples(page)) if (!ex.fileName.endsWith('.gguf')) inputs.push([`docs/rules/${code}/${ex.fileName}`, ex.text]);
    }
    const long: string[] = [];
    const keys: string[] = [];
    let findings = 0;
    for (const [name, text] of inputs) {
      let a;
      try {
        a = service.analyze(text, { fileName: join('/w', name) });
      } catch {
        continue; // files the service refuses are another test's business
      }
      for (const f of a.diagnostics) {
        findings++;
        const first = firstSentence(f.message);
        if (first.length > 120) long.push(`${name} ${f.code} (${first.length}): ${first}`);
        // Quoted keys in the headline (the detail may quote a library's own error text verbatim); stated values anywhere.
        for (const k of [...quotedKeys(f.message), ...statedKeys(said(f))]) {
          if (!named(k, text, f)) keys.push(`${name} ${f.code}: "${k}" is not in the file: ${said(f)}`);
        }
      }
    }
    assert.ok(findings > 300, `findings judged: ${findings}`);
    assert.deepEqual(long, []);
    assert.deepEqual(keys, []);
  });
});
