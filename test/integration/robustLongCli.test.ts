/**
 * Past 131,072 tokens the built CLI still proves the base it suggests (on every core): a GPT-NeoX
 * pretraining config at 262,144 tokens (rotary dim 64) gets a raised base, and an independent float64
 * scan finds every base across its ±10% valid. The scan is written here: θ by Math.pow, f by a complex
 * rotation re-synced with Math.cos/Math.sin every 4,096 steps.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The least f over m < L at each of n bases spread in ln b across [0.9c, 1.1c]; bases where it is below −1e-7. */
function invalidAcross(c: number, d: number, L: number, n: number): string[] {
  const half = d / 2;
  const bad: string[] = [];
  for (let k = 0; k < n; k++) {
    const b = 0.9 * c * Math.pow(1.1 / 0.9, k / (n - 1));
    const th = Array.from({ length: half }, (_, i) => Math.pow(b, (-2 * i) / d));
    const cr = th.map(Math.cos);
    const sr = th.map(Math.sin);
    const re = new Float64Array(half);
    const im = new Float64Array(half);
    for (let m = 0; m < L; m++) {
      if ((m & 4095) === 0) {
        for (let i = 0; i < half; i++) {
          re[i] = Math.cos(m * th[i]);
          im[i] = Math.sin(m * th[i]);
        }
      }
      let f = 0;
      for (let i = 0; i < half; i++) {
        f += re[i];
        const r = re[i] * cr[i] - im[i] * sr[i];
        im[i] = re[i] * sr[i] + im[i] * cr[i];
        re[i] = r;
      }
      if (f < -1e-7) {
        bad.push(`${b} at m = ${m} (f = ${f})`);
        break;
      }
    }
  }
  return bad;
}

describe('rope-lens check past 131,072 tokens: the suggested base is proven (spawned CLI)', function () {
  this.timeout(300000);
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-long-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('262,144 tokens, rotary dim 64: the raised base passes a 121-base float64 scan of its ±10%', () => {
    const L = 262144;
    const file = join(tmp, 'pretrain.yml');
    writeFileSync(
      file,
      [
        '# GPT-NeoX pretraining config: the base is chosen here, before training',
        `max_position_embeddings: ${L}`,
        `seq_length: ${L}`,
        'rotary_pct: 1.0',
        'rotary_emb_base: 10000',
        'hidden_size: 2048',
        'num_attention_heads: 32',
        'num_layers: 24',
        'pos_emb: rotary',
        '',
      ].join('\n'),
    );
    const env = { ...process.env };
    delete env.ROPE_LENS_PROOF_MAX_LENGTH;
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), 'check', '--format', 'json', file], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr); // a warning: exit 0 by default (--fail-on)
    const finding = JSON.parse(r.stdout).files[0].diagnostics.find((d: { code: string }) => d.code === 'rope/base-below-bound');
    assert.ok(finding, r.stdout);
    const fix = finding.fixes.find((f: { title: string }) => /^Raise rotary_emb_base to/.test(f.title));
    assert.ok(fix, JSON.stringify(finding.fixes));
    assert.match(fix.title, /valid for every base within ±10% at 262,144 tokens, proven/);
    const base = Number(fix.title.match(/to (\d+)/)![1]);
    assert.match(finding.message, new RegExp(`to ${base.toLocaleString('en-US')}:`));
    assert.deepEqual(invalidAcross(base, 64, L, 121), []);
  });
});
