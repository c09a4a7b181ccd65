import { strict as assert } from 'node:assert';
import { computeFrequencies, defaultInvFreq, yarnCorrectionRange } from '../../shared/rope/invFreq';
import { RopeSpec } from '../../shared/rope/spec';
import { RopeError } from '../../shared/core/errors';

/** |a − b| ≤ tol·|b| (relative), element-wise. */
function close(actual: number, expected: number, tol = 1e-12, what = ''): void {
  const err = Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300);
  assert.ok(err <= tol, `${what}: got ${actual}, expected ${expected} (rel err ${err})`);
}

const llama2: RopeSpec = { ropeType: 'default', base: 10000, rotaryDim: 128, maxPositionEmbeddings: 4096 };

function throwsRope(fn: () => unknown, code: string, fragment: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof RopeError && e.code === code && fragment.test(e.message));
}

describe('rope frequencies: default and linear', () => {
  it('default θ_i = base^(−2i/d), computed by hand for Llama-2', () => {
    const inv = defaultInvFreq(10000, 128);
    assert.equal(inv.length, 64);
    assert.equal(inv[0], 1);
    // 10000^(−2/128) = 10^(−4/64) = 10^(−1/16)
    close(inv[1], Math.pow(10, -1 / 16), 1e-14, 'θ1');
    close(inv[32], 0.01, 1e-14, 'θ32 = 10000^(−1/2)');
    close(inv[63], Math.pow(10, (-4 * 126) / 128), 1e-14, 'θ63');
  });

  it('computeFrequencies(default) equals defaultInvFreq with attention factor 1', () => {
    const r = computeFrequencies(llama2);
    assert.deepEqual(Array.from(r.invFreq), Array.from(defaultInvFreq(10000, 128)));
    assert.equal(r.attentionFactor, 1);
  });

  it('linear divides every frequency by the factor; factor 1 is the default', () => {
    const d = defaultInvFreq(10000, 128);
    const l4 = computeFrequencies({ ...llama2, ropeType: 'linear', factor: 4 });
    d.forEach((x, i) => close(l4.invFreq[i], x / 4, 1e-15, `i=${i}`));
    const l1 = computeFrequencies({ ...llama2, ropeType: 'linear', factor: 1 });
    assert.deepEqual(Array.from(l1.invFreq), Array.from(d));
  });
});

describe('rope frequencies: dynamic NTK', () => {
  const spec: RopeSpec = { ...llama2, ropeType: 'dynamic', factor: 2 };
  it('at seq_len ≤ max_position_embeddings it is the default RoPE', () => {
    const d = defaultInvFreq(10000, 128);
    for (const seqLen of [undefined, 1, 4096]) {
      const r = computeFrequencies(spec, { seqLen });
      d.forEach((x, i) => close(r.invFreq[i], x, 1e-14, `seqLen=${seqLen} i=${i}`));
    }
  });

  it('beyond it the base becomes base·(factor·L/mpe − (factor−1))^(d/(d−2))', () => {
    // L = 16384 = 4·4096, factor 2 → 2·4 − 1 = 7; b' = 10000·7^(128/126)
    const r = computeFrequencies(spec, { seqLen: 16384 });
    const b = 10000 * Math.pow(7, 64 / 63);
    close(r.effectiveBase!, b, 1e-14, 'base');
    close(r.invFreq[63], 1 / Math.pow(b, 126 / 128), 1e-13, 'θ63');
    assert.equal(r.attentionFactor, 1);
  });
});

describe('rope frequencies: yarn', () => {
  const qwen: RopeSpec = {
    ropeType: 'yarn',
    base: 1e6,
    rotaryDim: 128,
    maxPositionEmbeddings: 32768,
    factor: 4,
    originalMaxPositionEmbeddings: 32768,
  };

  it('factor 1 leaves the default frequencies and attention factor 1', () => {
    const r = computeFrequencies({ ...qwen, factor: 1 });
    const d = defaultInvFreq(1e6, 128);
    d.forEach((x, i) => close(r.invFreq[i], x, 1e-15, `i=${i}`));
    assert.equal(r.attentionFactor, 1);
  });

  it('Qwen2.5 YaRN block: ramp bounds, blend and 0.1·ln 4 + 1, by hand', () => {
    const r = computeFrequencies(qwen);
    // correction dim for r rotations: 128·ln(32768/(2πr)) / (2·ln 1e6)
    const cd = (rot: number) => (128 * Math.log(32768 / (2 * Math.PI * rot))) / (2 * Math.log(1e6));
    const low = Math.floor(cd(32));
    const high = Math.ceil(cd(1));
    assert.deepEqual(r.correctionRange, [low, high]);
    assert.deepEqual([low, high], [23, 40]); // 128·ln(32768/2π)/(2·ln 1e6) ≈ 39.65
    close(r.attentionFactor, 0.1 * Math.log(4) + 1, 1e-15, 'attention');
    for (let i = 0; i < 64; i++) {
      const theta = Math.pow(1e6, -(2 * i) / 128);
      const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
      // ramp 0 → keep θ (extrapolate), ramp 1 → θ/4 (interpolate)
      const expected = (theta / 4) * ramp + theta * (1 - ramp);
      close(r.invFreq[i], expected, 1e-13, `i=${i}`);
    }
  });

  it('matches a float64 numpy evaluation of transformers formulas (values pasted)', () => {
    const r = computeFrequencies(qwen);
    const idx = [0, 10, 20, 30, 40, 63];
    const ref = [1.0, 0.11547819846894583, 0.01333521432163324, 0.0010643609812470017, 4.445698525097307e-5, 3.102344401879299e-7];
    idx.forEach((i, k) => close(r.invFreq[i], ref[k], 1e-12, `i=${i}`));
  });

  it('DeepSeek-V3 (mscale = mscale_all_dim = 1): v5 attention factor 1, ramp on original 4096', () => {
    const ds: RopeSpec = {
      ropeType: 'yarn',
      base: 10000,
      rotaryDim: 64,
      maxPositionEmbeddings: 163840,
      factor: 40,
      originalMaxPositionEmbeddings: 4096,
      betaFast: 32,
      betaSlow: 1,
      mscale: 1,
      mscaleAllDim: 1,
    };
    const v5 = computeFrequencies(ds, { variant: 'v5' });
    assert.equal(v5.attentionFactor, 1);
    const ref5 = [1.0, 0.23713737056616555, 0.056234132519034905, 0.008334508951020777, 0.0007905694150420947, 1.8747355233311396e-5, 3.33380358040831e-6];
    [0, 5, 10, 15, 20, 25, 31].forEach((i, k) => close(v5.invFreq[i], ref5[k], 1e-12, `v5 i=${i}`));
    // v4.45 ignores mscale (0.1·ln 40 + 1) and measures the ramp on max_position_embeddings.
    const v4 = computeFrequencies(ds, { variant: 'v4' });
    close(v4.attentionFactor, 0.1 * Math.log(40) + 1, 1e-15, 'v4 attention');
    const ref4 = [1.0, 0.23713737056616555, 0.056234132519034905, 0.01333521432163324, 0.00316227766016838, 0.0006374100779325874, 5.334085728653295e-5];
    [0, 5, 10, 15, 20, 25, 31].forEach((i, k) => close(v4.invFreq[i], ref4[k], 1e-12, `v4 i=${i}`));
  });

  it('mscale ≠ mscale_all_dim: ratio of the two get_mscale values', () => {
    const r = computeFrequencies({
      ropeType: 'yarn',
      base: 10000,
      rotaryDim: 64,
      maxPositionEmbeddings: 163840,
      factor: 40,
      originalMaxPositionEmbeddings: 4096,
      mscale: 0.707,
      mscaleAllDim: 1,
    });
    close(r.attentionFactor, (0.1 * 0.707 * Math.log(40) + 1) / (0.1 * Math.log(40) + 1), 1e-15, 'ratio');
  });

  it('explicit attention_factor wins; missing factor is mpe / original (v5)', () => {
    assert.equal(computeFrequencies({ ...qwen, attentionFactor: 0.8 }).attentionFactor, 0.8);
    const r = computeFrequencies({ ...qwen, factor: undefined, maxPositionEmbeddings: 131072 });
    assert.equal(r.effectiveFactor, 4);
  });

  it('truncate=false keeps the fractional correction range', () => {
    const spec = { ...qwen, maxPositionEmbeddings: 131072, truncate: false };
    const r = computeFrequencies(spec);
    const cd = (rot: number) => (128 * Math.log(32768 / (2 * Math.PI * rot))) / (2 * Math.log(1e6));
    close(r.correctionRange![0], cd(32), 1e-15, 'low');
    close(r.correctionRange![1], cd(1), 1e-15, 'high');
    close(r.invFreq[30], 0.0010792377416765538, 1e-12, 'numpy value at i=30');
    // The truncated range at i=30 gives a different number.
    assert.notEqual(computeFrequencies({ ...spec, truncate: true }).invFreq[30], r.invFreq[30]);
  });

  it('correction range clamps to [0, dim − 1]', () => {
    assert.deepEqual(yarnCorrectionRange(32, 1, 8, 10, 1e9, true), [Math.floor((8 * Math.log(1e9 / (64 * Math.PI))) / (2 * Math.log(10))), 7]);
    assert.equal(yarnCorrectionRange(1e9, 1, 8, 10, 100, true)[0], 0);
  });
});

describe('rope frequencies: longrope', () => {
  const short = Array.from({ length: 48 }, (_, i) => 1 + i / 100);
  const long = Array.from({ length: 48 }, (_, i) => 1 + i);
  const phi3: RopeSpec = {
    ropeType: 'longrope',
    base: 10000,
    rotaryDim: 96,
    maxPositionEmbeddings: 131072,
    topLevelOriginalMaxPositionEmbeddings: 4096,
    shortFactor: short,
    longFactor: long,
  };

  it('uses short_factor up to the original context and long_factor beyond', () => {
    for (const [seqLen, useLong] of [
      [undefined, false],
      [4096, false],
      [4097, true],
      [131072, true],
    ] as const) {
      const r = computeFrequencies(phi3, { seqLen });
      const ext = useLong ? long : short;
      assert.equal(r.usedLongFactor, useLong, `seqLen=${seqLen}`);
      for (const i of [0, 1, 47]) close(r.invFreq[i], 1 / (ext[i] * Math.pow(10000, (2 * i) / 96)), 1e-14, `seqLen=${seqLen} i=${i}`);
    }
  });

  it('attention factor √(1 + ln(131072/4096)/ln 4096) in v4 and v5', () => {
    const expected = Math.sqrt(1 + Math.log(32) / Math.log(4096));
    close(computeFrequencies(phi3, { variant: 'v5' }).attentionFactor, expected, 1e-15, 'v5');
    close(computeFrequencies(phi3, { variant: 'v4' }).attentionFactor, expected, 1e-15, 'v4');
    // factor ≤ 1 → 1
    assert.equal(computeFrequencies({ ...phi3, maxPositionEmbeddings: 4096 }).attentionFactor, 1);
  });

  it('list lengths ≠ rotary dim / 2 are refused', () => {
    throwsRope(() => computeFrequencies({ ...phi3, longFactor: long.slice(1) }), 'length-mismatch', /long_factor.*48.*got 47/);
  });
});

describe('rope frequencies: llama3', () => {
  const spec: RopeSpec = {
    ropeType: 'llama3',
    base: 500000,
    rotaryDim: 128,
    maxPositionEmbeddings: 131072,
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  };

  it('keeps short wavelengths, divides long ones by 8 and blends the band between', () => {
    const r = computeFrequencies(spec);
    const d = defaultInvFreq(500000, 128);
    let medium = 0;
    for (let i = 0; i < 64; i++) {
      const wl = (2 * Math.PI) / d[i];
      if (wl < 8192 / 4) assert.equal(r.invFreq[i], d[i], `high-frequency i=${i}`);
      else if (wl > 8192) close(r.invFreq[i], d[i] / 8, 1e-15, `low-frequency i=${i}`);
      else {
        medium++;
        const s = (8192 / wl - 1) / (4 - 1);
        close(r.invFreq[i], ((1 - s) * d[i]) / 8 + s * d[i], 1e-14, `band i=${i}`);
        assert.ok(r.invFreq[i] <= d[i] && r.invFreq[i] >= d[i] / 8);
      }
    }
    assert.ok(medium >= 5, 'Llama-3.1 has a blended band');
    assert.equal(r.attentionFactor, 1);
  });

  it('band edges: the smooth factor is 0 at original/low and 1 at original/high', () => {
    // One pair whose wavelength is exactly 2π/θ: pick dim 2 so θ0 = 1, wavelength 2π.
    const edge = (ompe: number) => computeFrequencies({ ...spec, rotaryDim: 2, originalMaxPositionEmbeddings: ompe }).invFreq[0];
    close(edge(2 * Math.PI), 1 / 8, 1e-15, 'wavelength = original/low → θ/factor');
    close(edge(4 * 2 * Math.PI), 1, 1e-15, 'wavelength = original/high → θ');
  });

  it('matches numpy values of transformers formulas for Llama-3.1-8B', () => {
    const r = computeFrequencies(spec);
    const ref: Record<number, number> = {
      20: 0.016560440080994446,
      29: 0.002166570763503359,
      30: 0.0013718935677611381,
      33: 0.00031269375038406517,
      35: 9.556212353964683e-5,
      40: 3.428102195952591e-5,
      63: 3.068925988914511e-7,
    };
    for (const [i, v] of Object.entries(ref)) close(r.invFreq[Number(i)], v, 1e-12, `i=${i}`);
  });

  it('high = low (Llama 4: 1.0/1.0) is a step at original/low; high < low is refused', () => {
    const r = computeFrequencies({ ...spec, factor: 16, highFreqFactor: 1 });
    const d = defaultInvFreq(500000, 128);
    d.forEach((x, i) => {
      const wl = (2 * Math.PI) / x;
      if (wl > 8192) close(r.invFreq[i], x / 16, 1e-15, `i=${i}`);
      else assert.equal(r.invFreq[i], x, `i=${i}`);
    });
    throwsRope(() => computeFrequencies({ ...spec, highFreqFactor: 0.5 }), 'invalid-parameter', /high_freq_factor must not be below/);
  });

  it('v5 takes a top-level original_max_position_embeddings first, v4 only the dict', () => {
    const both = { ...spec, topLevelOriginalMaxPositionEmbeddings: 4096 };
    assert.equal(computeFrequencies(both, { variant: 'v5' }).effectiveOriginalContext, 4096);
    assert.equal(computeFrequencies(both, { variant: 'v4' }).effectiveOriginalContext, 8192);
  });
});

describe('rope frequencies: bad input', () => {
  const cases: [Partial<RopeSpec>, string, RegExp][] = [
    [{ base: 0 }, 'invalid-base', /rope_theta.*> 0.*got 0/],
    [{ base: -5 }, 'invalid-base', /got -5/],
    [{ base: NaN }, 'invalid-base', /got NaN/],
    [{ base: Infinity }, 'invalid-base', /got Infinity/],
    [{ rotaryDim: 0 }, 'invalid-dimension', /positive integer, got 0/],
    [{ rotaryDim: 127 }, 'invalid-dimension', /even.*127/],
    [{ rotaryDim: 12.5 }, 'invalid-dimension', /12.5/],
    [{ maxPositionEmbeddings: -1 }, 'invalid-length', /max_position_embeddings/],
    [{ ropeType: 'linear', factor: 0.5 }, 'invalid-factor', /factor must be >= 1, got 0.5/],
    [{ ropeType: 'linear' }, 'invalid-factor', /needs a factor/],
    [{ ropeType: 'dynamic', factor: NaN }, 'invalid-factor', /NaN/],
    [{ ropeType: 'yarn', factor: 0.9 }, 'invalid-factor', /0.9/],
    [{ ropeType: 'yarn', factor: 2, betaSlow: -1 }, 'invalid-parameter', /beta_slow/],
    [{ ropeType: 'longrope', shortFactor: [1], longFactor: [1] }, 'length-mismatch', /short_factor must have length 64/],
    [{ ropeType: 'llama3', factor: 8 }, 'invalid-parameter', /low_freq_factor/],
    [{ ropeType: 'ntk' as never }, 'unknown-rope-type', /unknown rope type 'ntk'/],
  ];
  for (const [patch, code, msg] of cases) {
    it(`${JSON.stringify(patch)} → ${code}`, () => throwsRope(() => computeFrequencies({ ...llama2, ...patch }), code, msg));
  }

  it('bad sequence length and variant are refused', () => {
    throwsRope(() => computeFrequencies(llama2, { seqLen: 0 }), 'invalid-length', /sequence length/);
    throwsRope(() => computeFrequencies(llama2, { variant: 'v6' as never }), 'invalid-parameter', /variant/);
  });
});
