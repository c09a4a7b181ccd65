/**
 * Past 131,072 tokens the built CLI still proves the base it suggests (on every core): a GPT-NeoX
 * pretraining config at 262,144 tokens (rotary dim 64) gets a raised base, and an independent float64
 * scan finds every base across its ±10% valid (test/unit/helpers/independentScan.ts, which shares no code
 * with shared/rope).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalidAcrossNeighbourhood } from '../unit/helpers/independentScan';

const ROOT = join(__dirname, '..', '..');

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
    assert.deepEqual(invalidAcrossNeighbourhood(base, 64, L, 121), []);
  });
});
