/** `rope-lens consumers` as a user runs it: the spawned CLI, text and --json, a folder, bad input. */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce } from '../support/build';

const ROOT = join(__dirname, '..', '..');
const CONSUMERS = join(ROOT, 'test', 'fixtures', 'consumers');
const CORPUS = join(ROOT, 'test', 'fixtures', 'corpus', 'models');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin', 'rope-lens.js'), ...args], { encoding: 'utf8', cwd: ROOT });
}

describe('rope-lens consumers (spawned CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  before(() => {
    buildOnce();
    tmp = mkdtempSync(join(tmpdir(), 'rope-lens-consumers-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('text: one row per consumer with the columns, disagreeing cells marked and explained', () => {
    const r = cli('consumers', join(CONSUMERS, 'mistral-7b-v5-rope-parameters.json'));
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    const header = lines.find((l) => l.startsWith('consumer'))!;
    for (const col of ['accepts?', 'base', 'scaling', 'factor', 'attention factor', 'derived max length', 'windows']) assert.ok(header.includes(col), col);
    for (const name of [
      'transformers ≤ 4.42',
      'transformers 4.43 – 4.57',
      'transformers 5.x',
      'vLLM < 0.24',
      'vLLM ≥ 0.24',
      'SGLang',
      'llama.cpp',
      'TGI',
      'Ollama',
    ]) {
      assert.ok(
        lines.some((l) => l.startsWith(name)),
        name,
      );
    }
    assert.match(r.stdout, /^TGI\s+yes\s+10,000 \(default\) \*/m);
    assert.match(r.stdout, /^vLLM ≥ 0\.24\s+yes\s+1,000,000\s+none/m);
    assert.match(r.stdout, /differs from the file's meaning/);
  });

  it('--json on a folder: the rows with their cells and which ones differ', () => {
    const dir = join(tmp, 'llama-3.1-v5');
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), readFileSync(join(CORPUS, 'llama-3.1-8b-v5-rope-parameters.json')));
    const r = cli('consumers', dir, '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.path, join(dir, 'config.json'));
    assert.equal(j.consumers.length, 9);
    const tgi = j.consumers.find((c: { consumer: string }) => c.consumer === 'tgi');
    assert.deepEqual([tgi.status, tgi.base, tgi.scalingType, tgi.derivedMaxLen], ['reads', 10000, 'none', 131072]);
    assert.deepEqual(tgi.differs, ['base', 'scaling', 'factor']);
    const v5 = j.consumers.find((c: { consumer: string }) => c.consumer === 'transformers-5');
    assert.deepEqual([v5.base, v5.scalingType, v5.factor, v5.differs], [500000, 'llama3', 8, []]);
  });

  it('check --consumer: a pinned release that refuses the file is an error (exit 1); a workspace requirements file does the same', () => {
    const llama = join(CORPUS, 'meta-llama-3.1-8b-instruct.json');
    assert.equal(cli('check', llama).status, 0);
    const r = cli('check', llama, '--consumer', 'transformers==4.41.0');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /error consumer\/refused transformers ≤ 4\.42 refuses this file at load/);
    const dir = join(tmp, 'pinned', 'model');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), readFileSync(llama));
    writeFileSync(join(tmp, 'pinned', 'requirements.txt'), 'torch==2.3.1\ntransformers==4.40.2\n');
    // The pin is named in the finding's detail, which --verbose prints under the headline.
    const w = cli('check', join(dir, 'config.json'), '--verbose');
    assert.equal(w.status, 1, w.stdout);
    assert.match(w.stdout, /\n {4}.*transformers 4\.40\.2 \(.*requirements\.txt:2\)/);
    assert.doesNotMatch(cli('check', join(dir, 'config.json')).stdout, /requirements\.txt:2/);
  });

  it('a refusal shows the error it raises; a non-config is a usage error (exit 2, one line)', () => {
    const r = cli('consumers', join(CORPUS, 'meta-llama-3.1-8b-instruct.json'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^transformers ≤ 4\.42\s+REFUSES \*/m);
    assert.match(r.stdout, /ValueError: `rope_scaling` must be a dictionary with two fields/);
    const bad = join(tmp, 'package.json');
    writeFileSync(bad, '{"name": "x", "dependencies": {}}');
    const u = cli('consumers', bad);
    assert.equal(u.status, 2);
    assert.equal(u.stderr.trim().split('\n').length, 1);
    assert.equal(cli('consumers').status, 2);
  });
});
