/**
 * The Inspector's data builder, message validation and page template. Expected values are derived
 * independently: closed-form wavelengths, published numbers (NTK-aware base for Llama-2 ×4, Liu et
 * al.'s critical dimensions, Gradient's 262k base) and a naive Σcos loop for f_b(m).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildInspectorData, defaultTarget, InspectorInput } from '../../shared/inspector/build';
import { inspectorInputFromText } from '../../shared/inspector/fromConfig';
import { parsePageMessage, parseState, MAX_TARGET_LENGTH } from '../../shared/inspector/messages';
import { contentSecurityPolicy, jsonForScript, renderInspectorHtml } from '../../shared/inspector/html';
import { validityScan } from '../../shared/inspector/validity';
import { RopeError } from '../../shared/core/errors';

const FIX = join(__dirname, '..', 'fixtures', 'inspector');
const load = (f: string): InspectorInput => inspectorInputFromText(readFileSync(join(FIX, f), 'utf8'), join(FIX, f));

/** f_b(m) by the definition, one Math.cos per term (independent of the engine's recurrence). */
function naiveF(base: number, d: number, m: number): number {
  let s = 0;
  for (let i = 0; i < d / 2; i++) s += Math.cos(m * Math.pow(base, (-2 * i) / d));
  return s;
}

const close = (a: number, b: number, rel = 1e-9) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${a} vs ${b}`);

describe('inspector data builder', () => {
  const llama2 = load('llama-2-7b.json');

  it('reads the lengths each real config implies', () => {
    assert.equal(llama2.spec.base, 10000);
    assert.equal(llama2.originalLength, 4096);
    assert.equal(defaultTarget(llama2), 16384, 'unscaled: 4× the trained context');
    const l31 = load('llama-3.1-8b.json');
    assert.equal(l31.originalLength, 8192);
    assert.equal(defaultTarget(l31), 131072);
    const qwen = load('qwen2.5-7b-instruct-yarn.json');
    assert.equal(qwen.originalLength, 32768);
    assert.equal(defaultTarget(qwen), 131072, 'yarn factor 4 over original 32768');
    const phi = load('phi-3-vision-128k-longrope.json');
    assert.equal(phi.spec.ropeType, 'longrope');
    assert.equal(phi.originalLength, 4096);
    assert.equal(phi.spec.rotaryDim, 96);
  });

  it('gives closed-form wavelengths, full periods and the critical dimension (Llama-2)', () => {
    const d = buildInspectorData(llama2, { targetLength: 16384 }, { validity: false });
    assert.equal(d.dims.length, 64);
    close(d.original.wavelengths[0], 2 * Math.PI);
    close(d.original.wavelengths[63], 2 * Math.PI * Math.pow(10000, 126 / 128));
    // λ_i ≤ 4096 ⇔ i ≤ 64·log(4096/2π)/log(1e4) = 45.03 → pairs 0…45.
    assert.deepEqual(
      d.fullPeriodDims,
      Array.from({ length: 46 }, (_, i) => i),
    );
    // Liu et al.: d_extra = 92 channels for Llama-2 (b = 1e4, T = 4096) → pair index 46.
    assert.equal(d.criticalDim, 46);
    assert.equal(d.factor, 4);
  });

  it('applies each rewrite as published (factor 4 on Llama-2)', () => {
    const d = buildInspectorData(llama2, { targetLength: 16384 }, { validity: false });
    const by = Object.fromEntries(d.rewrites.map((r) => [r.method, r]));
    // PI stretches every wavelength by the factor.
    by.pi.wavelengths.forEach((w, i) => close(w, 4 * d.original.wavelengths[i]));
    // NTK-aware base b·s^(d/(d−2)) = 40889.94 for b = 1e4, s = 4, d = 128.
    assert.ok(Math.abs(by.ntk.base! - 40889.94) < 0.01, String(by.ntk.base));
    // YaRN's temperature 0.1·ln(4) + 1; NTK-by-parts has none.
    close(by.yarn.attentionFactor, 0.1 * Math.log(4) + 1);
    assert.equal(by['ntk-by-parts'].attentionFactor, 1);
    // NTK-by-parts (α = 1, β = 32 turns within L0 = 4096): pairs with ≥ 32 turns (λ ≤ 128) are kept,
    // pairs with < 1 turn (λ > 4096) are interpolated by s.
    d.original.wavelengths.forEach((w, i) => {
      if (w <= 128) close(by['ntk-by-parts'].wavelengths[i], w);
      if (w > 4096) close(by['ntk-by-parts'].wavelengths[i], 4 * w);
    });
    // YaRN keeps the fastest pair (pure extrapolation) and interpolates the slowest by s.
    close(by.yarn.wavelengths[0], d.original.wavelengths[0]);
    close(by.yarn.wavelengths[63], 4 * d.original.wavelengths[63]);
    // llama3 leaves wavelengths below L0/high_freq_factor = 1024 untouched, divides those above L0/1 by s.
    d.original.wavelengths.forEach((w, i) => {
      if (w < 1024) close(by.llama3.wavelengths[i], w);
      if (w > 4096) close(by.llama3.wavelengths[i], 4 * w);
    });
    assert.equal(by.longrope.available, false);
    assert.match(by.longrope.reason!, /longrope/);
  });

  it("uses Gradient's law for the raised base (Llama-3-8B to 262k)", () => {
    const input: InspectorInput = {
      label: 'llama-3-8b',
      headDim: 128,
      originalLength: 8192,
      spec: { ropeType: 'default', base: 500000, rotaryDim: 128, maxPositionEmbeddings: 8192 },
    };
    const d = buildInspectorData(input, { targetLength: 262144, method: 'gradient' }, { validity: false, fbBuckets: 64 });
    const g = d.rewrites.find((r) => r.method === 'gradient')!;
    assert.ok(Math.abs(g.base! - 283461213.5) < 1, String(g.base));
    // Liu et al.: 70 channels for Llama-3-8B (b = 5e5, T = 8192) → pair 35.
    assert.equal(d.criticalDim, 35);
  });

  it('shows the longrope factors of a longrope config and its attention factor', () => {
    const phi = load('phi-3-vision-128k-longrope.json');
    const d = buildInspectorData(phi, undefined, { validity: false, fbBuckets: 200 });
    const lr = d.rewrites.find((r) => r.method === 'longrope')!;
    assert.equal(lr.available, true);
    // Beyond the original context the long factors apply: λᵢ·long_factor[i].
    const long = phi.spec.longFactor!;
    lr.wavelengths.forEach((w, i) => close(w, d.original.wavelengths[i] * long[i], 1e-12));
    // Phi-3's attention factor sqrt(1 + ln(32)/ln(4096)).
    close(lr.attentionFactor, Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096)));
  });

  it('f_b(m) curve: first negative m and bucket extremes match the definition', () => {
    const d = buildInspectorData(llama2, { targetLength: 4096 }, { validity: false, fbBuckets: 256 });
    const fb = d.fb;
    assert.ok(fb.lmax !== null);
    assert.ok(naiveF(10000, 128, fb.lmax!) < 0);
    for (let m = 0; m < fb.lmax!; m++) assert.ok(naiveF(10000, 128, m) >= -1e-7, `f(${m}) < 0`);
    // Bucket k covers m ∈ [16k, 16k+16): compare a few with the naive loop.
    for (const k of [0, 37, 106, 255]) {
      let lo = Infinity,
        hi = -Infinity;
      for (let m = 16 * k; m < 16 * (k + 1); m++) {
        const v = naiveF(10000, 128, m);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      assert.ok(Math.abs(fb.min[k] - lo) < 1e-8 && Math.abs(fb.max[k] - hi) < 1e-8, `bucket ${k}`);
      assert.equal(fb.m[k], 16 * k);
    }
    assert.equal(fb.max[0], 64, 'f(0) = d/2');
  });

  it('each rewrite reports L_max consistent with its own frequencies', () => {
    const d = buildInspectorData(llama2, { targetLength: 16384 }, { validity: false, fbBuckets: 16 });
    for (const r of d.rewrites.filter((x) => x.available)) {
      const theta = r.wavelengths.map((w) => (2 * Math.PI) / w);
      const f = (m: number) => theta.reduce((s, t) => s + Math.cos(m * t), 0);
      if (r.lmax === null) continue;
      assert.ok(f(r.lmax) < 0, `${r.method}: f(L_max) ≥ 0`);
      assert.ok(f(r.lmax - 1) >= -1e-6, `${r.method}: f(L_max − 1) < 0`);
    }
  });

  it('refuses targets outside the supported range with a RopeError', () => {
    assert.throws(() => buildInspectorData(llama2, { targetLength: MAX_TARGET_LENGTH + 1 }), RopeError);
    assert.throws(() => buildInspectorData(llama2, { targetLength: 3.5 }), RopeError);
  });

  it('warns (no crash) when the target is below the original context', () => {
    const d = buildInspectorData(llama2, { targetLength: 2048 }, { validity: false, fbBuckets: 16 });
    assert.equal(d.factor, 1);
    assert.ok(d.warnings.some((w) => /shorter than the original/.test(w)));
  });
});

describe('inspector validity scan', () => {
  it('classifies every grid base correctly and never marks b* below the exact value (L = 1024, d = 128)', () => {
    const v = validityScan(1024, 128, 10000, { perDecade: 24 });
    assert.ok(v.bases.length > 20);
    v.bases.forEach((b, i) => {
      if (v.lmax[i] >= 1024) {
        for (let m = 0; m < 1024; m += 1) assert.ok(naiveF(b, 128, m) >= -1e-7, `base ${b} marked valid but f(${m}) < 0`);
      } else {
        assert.ok(naiveF(b, 128, v.lmax[i]) < 0, `base ${b}: f(L_max) ≥ 0`);
      }
    });
    // Exact b*(1024, 128) = 4293.438 (float64 reference): no base below it is valid.
    assert.ok(v.bstar! >= 4293.43, `b* marker ${v.bstar}`);
    assert.ok(v.islands.length >= 1);
    assert.ok(v.bases.includes(10000), 'the current base is on the grid');
  });

  it('takes exact b* and threshold from the caller when given', () => {
    const v = validityScan(1024, 128, 10000, { bstar: 4293.438, threshold: 6020 });
    assert.equal(v.bstar, 4293.438);
    assert.equal(v.threshold, 6020);
    assert.equal(v.note, undefined);
  });
});

describe('inspector messages', () => {
  const ok = { method: 'yarn', targetLength: 131072 };
  it('accepts the exact message shapes', () => {
    assert.deepEqual(parsePageMessage({ type: 'ready' }), { ok: true, value: { type: 'ready' } });
    const r = parsePageMessage({ type: 'apply', controls: { ...ok, base: 1e6 } });
    assert.ok(r.ok && r.value.type === 'apply' && r.value.controls.base === 1e6);
  });
  it('rejects anything else', () => {
    const bad: unknown[] = [
      null,
      'apply',
      [],
      { type: 'eval', code: 'x' },
      { type: 'ready', extra: 1 },
      { type: 'apply' },
      { type: 'apply', controls: { ...ok, method: 'ntk; rm -rf' } },
      { type: 'apply', controls: { ...ok, targetLength: -5 } },
      { type: 'apply', controls: { ...ok, targetLength: 1e12 } },
      { type: 'apply', controls: { ...ok, targetLength: 1024.5 } },
      { type: 'update', controls: { ...ok, base: Number.NaN } },
      { type: 'update', controls: { ...ok, base: '1e6' } },
      { type: 'update', controls: { ...ok, path: '/etc/passwd' } },
      { type: 'update', controls: Object.create({ method: 'yarn', targetLength: 4096 }) },
    ];
    for (const b of bad) assert.equal(parsePageMessage(b).ok, false, JSON.stringify(b));
  });
  it('restores only valid state', () => {
    assert.deepEqual(parseState({ uri: 'file:///a/config.json', controls: { method: 'bogus', targetLength: 5 } }), { uri: 'file:///a/config.json' });
    assert.deepEqual(parseState(42), {});
  });
});

describe('inspector page template', () => {
  it('embeds data so that it cannot close the script element', () => {
    const s = jsonForScript({ label: '</script><script>alert(1)</script>' });
    assert.ok(!s.includes('</script'));
    assert.deepEqual(JSON.parse(s), { label: '</script><script>alert(1)</script>' });
  });
  it('has a strict CSP: nonce scripts only, no eval, no remote origins', () => {
    const csp = contentSecurityPolicy('abc123', 'https://file+.vscode-resource.vscode-cdn.net');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'(;|$)/);
    assert.ok(!/unsafe-eval|unsafe-inline|\*/.test(csp.replace('file+.', '')));
    const html = renderInspectorHtml(
      { script: { inline: 'var a = "</script>";' }, style: { inline: 'body{}' } },
      { nonce: 'abc123', title: 'T <x>', standalone: true },
    );
    assert.ok(html.includes('<title>T &lt;x&gt;</title>'));
    assert.equal((html.match(/<\/script>/g) ?? []).length, 1, 'the inline script cannot end early');
    assert.ok(!/https?:\/\//.test(html), 'no remote URL');
  });
});

describe('inspector input from a training config', () => {
  it('shows the resolved base model at the training sequence length (axolotl, Llama-2 at 16k)', () => {
    const input = load('axolotl-llama2-16k.yaml');
    assert.equal(input.spec.base, 10000);
    assert.equal(input.spec.rotaryDim, 128);
    assert.equal(input.originalLength, 4096);
    assert.equal(defaultTarget(input), 16384);
    assert.match(input.label, /training, base model meta-llama\/Llama-2-7b-hf/);
  });
  it('refuses a file that is neither, with a message', () => {
    assert.throws(() => inspectorInputFromText('{"compilerOptions": {}}', 'tsconfig.json'), /neither a model config .* nor a training config/);
  });
});
