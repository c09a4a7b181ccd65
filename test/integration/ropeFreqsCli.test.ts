import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce } from '../support/build';

const ROOT = join(__dirname, '..', '..');
const FIX = join(ROOT, 'test', 'fixtures', 'models');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), 'freqs', ...args], { encoding: 'utf8', cwd: ROOT });
}

describe('rope-lens freqs (spawned CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-freqs-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('--json prints exactly one object with the documented keys', () => {
    const r = cli(join(FIX, 'llama-3.1-8b.json'), '--json');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const j = JSON.parse(lines[0]);
    assert.deepEqual(Object.keys(j).sort(), [
      'attentionFactor',
      'base',
      'contextLength',
      'groups',
      'invFreq',
      'originalContextLength',
      'ropeType',
      'rotaryDim',
      'wavelengths',
    ]);
    assert.equal(j.ropeType, 'llama3');
    assert.equal(j.rotaryDim, 128);
    assert.equal(j.base, 500000);
    assert.equal(j.invFreq.length, 64);
    assert.equal(j.wavelengths.length, 64);
    assert.equal(j.wavelengths[0], 2 * Math.PI);
    assert.equal(j.invFreq[63], 500000 ** (-126 / 128) / 8); // longest wavelength: divided by factor
    assert.equal(j.contextLength, 131072);
    assert.equal(j.originalContextLength, 8192);
    assert.equal(j.attentionFactor, 1);
  });

  it('originalContextLength is null for a plain default-RoPE config', () => {
    const j = JSON.parse(cli(join(FIX, 'gpt-neox-20b.json'), '--json').stdout);
    assert.equal(j.originalContextLength, null);
    assert.equal(j.rotaryDim, 24);
    assert.equal(j.invFreq.length, 12);
  });

  it('--seq-len switches longrope to long_factor; --variant v4 changes DeepSeek yarn', () => {
    const short = JSON.parse(cli(join(FIX, 'phi-3-mini-128k-instruct.json'), '--json', '--seq-len', '4096').stdout);
    const long = JSON.parse(cli(join(FIX, 'phi-3-mini-128k-instruct.json'), '--json', '--seq-len', '4097').stdout);
    assert.equal(short.invFreq[47] / long.invFreq[47], 64.81001281738281 / 3.049999999999997);
    const v5 = JSON.parse(cli(join(FIX, 'deepseek-v3.json'), '--json').stdout);
    const v4 = JSON.parse(cli(join(FIX, 'deepseek-v3.json'), '--json', '--variant', 'v4').stdout);
    assert.equal(v5.attentionFactor, 1);
    assert.equal(v4.attentionFactor, 0.1 * Math.log(40) + 1);
  });

  it('the human table names the source keys', () => {
    const r = cli(join(FIX, 'gemma-7b.json'));
    assert.equal(r.status, 0);
    assert.match(r.stdout, /rotary dim:\s+256 \(head_dim\)/);
    assert.match(r.stdout, /inv_freq/);
  });

  const failures: [string, () => string[], RegExp][] = [
    ['missing file', () => [join(tmp, 'absent.json')], /cannot read/],
    [
      'malformed JSON',
      () => {
        const p = join(tmp, 'bad.json');
        writeFileSync(p, '{"rope_theta": ');
        return [p];
      },
      /not valid JSON/,
    ],
    ['not a model config', () => [join(FIX, 'not-models', 'package.json')], /does not look like a model config/],
    ['bad --seq-len', () => [join(FIX, 'phi-2.json'), '--seq-len', '-3'], /seq-len/],
    ['bad --variant', () => [join(FIX, 'phi-2.json'), '--variant', 'v6'], /variant/],
    ['no file', () => [], /exactly one config file/],
    [
      'invalid rope values',
      () => {
        const p = join(tmp, 'neg.json');
        writeFileSync(p, '{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": -1}');
        return [p];
      },
      /rope_theta/,
    ],
  ];
  for (const [what, args, msg] of failures) {
    it(`${what} → one stderr line, exit 2`, () => {
      const r = cli(...args(), '--json');
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], msg);
    });
  }
});
