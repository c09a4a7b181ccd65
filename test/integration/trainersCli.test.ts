/**
 * Issue 41, item 2, through the built CLI: LLaMA-Factory and axolotl YAMLs (real examples edited
 * minimally, test/fixtures/training/released) judged as the trainers' current releases run them,
 * with the workspace's transformers pin read from a requirements.txt beside the YAML.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const released = join(root, 'test/fixtures/training/released');
const check = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', ...args], { cwd: root, encoding: 'utf8' });
const lines = (out: string, code: string) => out.split('\n').filter((l) => l.includes(` ${code} `));

describe('rope-lens check on trainer YAMLs (built CLI)', function () {
  this.timeout(120000);
  let work: string;
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
    work = mkdtempSync(join(tmpdir(), 'rope-lens-trainers-'));
  });
  after(() => work && rmSync(work, { recursive: true, force: true }));

  it('LLaMA-Factory on Llama-3.1: yarn ×25 over 8,192, linear ×8 over 8,192, chat ×2.0; a warning for transformers 5.x', () => {
    const r = check(
      join(released, 'llamafactory-llama31-yarn-200k.yaml'),
      join(released, 'llamafactory-llama31-linear-65k.yaml'),
      join(released, 'llamafactory-llama31-chat-linear.yaml'),
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const derived = lines(r.stdout, 'llama-factory/derived-factor');
    assert.equal(derived.length, 2, r.stdout);
    assert.match(derived.find((l) => l.includes('yarn-200k'))!, /information .*factor 25\.0 over 8,192 .*covering 204,800 tokens/);
    assert.match(derived.find((l) => l.includes('linear-65k'))!, /factor 8\.0 over 8,192/);
    assert.match(lines(r.stdout, 'llama-factory/inference-factor')[0], /chat-linear\.yaml:\d+:\d+ information .*factor 2\.0 over 8,192/);
    assert.equal(lines(r.stdout, 'llama-factory/fails-on-transformers-5').filter((l) => / warning /.test(l)).length, 3, r.stdout);
    assert.equal(lines(r.stdout, 'llama-factory/scaling-ignored').length, 0, r.stdout);
  });

  it('a requirements.txt pinning transformers 5 makes the load failure an error (exit 1); a 4.x pin removes it', () => {
    copyFileSync(join(released, 'llamafactory-llama31-yarn-200k.yaml'), join(work, 'train.yaml'));
    writeFileSync(join(work, 'requirements.txt'), 'llamafactory\ntransformers==5.17.0\n');
    const five = check(join(work, 'train.yaml'));
    assert.equal(five.status, 1, five.stdout);
    assert.match(lines(five.stdout, 'llama-factory/fails-on-transformers-5')[0], / error .*float 204,800\.0/);
    writeFileSync(join(work, 'requirements.txt'), 'transformers==4.51.3\n');
    const four = check(join(work, 'train.yaml'));
    assert.equal(four.status, 0, four.stdout);
    assert.equal(lines(four.stdout, 'llama-factory/fails-on-transformers-5').length, 0, four.stdout);
  });

  it('axolotl: rope_theta alone is a warning and the run is judged at 10,000; a scaling dict without rope_theta is an error', () => {
    const theta = check(join(released, 'axolotl-llama2-lora-theta.yml'));
    assert.match(lines(theta.stdout, 'axolotl/theta-ignored')[0], / warning .*own base 10,000/);
    assert.match(lines(theta.stdout, 'training/context-exceeded')[0], /past 4,096/);
    const noTheta = check(join(released, 'axolotl-llama2-lora-yarn-no-theta.yml'));
    assert.equal(noTheta.status, 1, noTheta.stdout);
    assert.match(lines(noTheta.stdout, 'axolotl/override-fails')[0], / error .*no rope_theta/);
    const four = check('--consumer', 'transformers==4.57.6', join(released, 'axolotl-llama2-lora-yarn-no-theta.yml'));
    assert.equal(lines(four.stdout, 'axolotl/override-fails').length, 0, four.stdout);
  });
});
