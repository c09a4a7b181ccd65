import { strict as assert } from 'node:assert';
import { run, parseLength, PUBLISHED_TABLE } from '../../server/cli/bound';
import { UsageError } from '../../server/cli/io';
import { RopeError } from '../../shared/core/errors';
import { bstar, lmax } from '../../shared/bstar/index';

function capture() {
  const out: string[] = [],
    err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe('rope-lens bound', () => {
  it('--length --head-dim --json: exactly the documented keys, exact b*, a real witness', async () => {
    const c = capture();
    assert.equal(await run(['--length', '2k', '--head-dim', '128', '--threshold', '--json'], c.io), 0);
    const j = JSON.parse(c.out.join(''));
    // Issue 36 follow-up: --threshold also says how far it is proven (certifiedAbove, thresholdProof), and jobs names each job's backend.
    assert.deepEqual(
      Object.keys(j).sort(),
      ['backend', 'backendReason', 'bstar', 'certifiedAbove', 'headDim', 'jobs', 'length', 'ms', 'threshold', 'thresholdProof', 'witness'].sort(),
    );
    assert.deepEqual(Object.keys(j.jobs).sort(), ['bstar', 'threshold', 'thresholdProof']);
    assert.equal(j.length, 2048);
    assert.ok(Math.abs(j.bstar - 11587.24) / 11587.24 < 6e-7);
    assert.equal(j.backend, 'cpu');
    assert.ok(j.threshold >= j.bstar);
    assert.deepEqual(Object.keys(j.witness).sort(), ['base', 'f', 'm']);
    assert.ok(j.witness.base < j.bstar && j.witness.f < 0);
  });

  it('without --threshold the threshold is not computed (it costs as much as b* again): the proven table figure, or how to get one', async () => {
    const c = capture();
    assert.equal(await run(['--length', '2k', '--head-dim', '128', '--json'], c.io), 0);
    const j = JSON.parse(c.out.join(''));
    assert.deepEqual(Object.keys(j).sort(), ['backend', 'backendReason', 'bstar', 'headDim', 'jobs', 'length', 'ms', 'witness'].sort());
    assert.deepEqual(Object.keys(j.jobs), ['bstar']);
    const h = capture();
    await run(['--length', '2k', '--head-dim', '128'], h.io);
    assert.match(h.out.join('\n'), /every base above [\d.]+ is valid, and one just below is not \(proven ahead of time .*the proven table\)/);
    const far = capture();
    await run(['--length', '2k', '--head-dim', '62'], far.io);
    assert.match(far.out.join('\n'), /run with --threshold/, 'a dim the table does not hold');
    await assert.rejects(run(['--base', '5e5', '--length', '2k', '--head-dim', '128', '--threshold'], capture().io), UsageError);
  });

  it('a terminal gets a progress line on the status channel, cleared at the end; other outputs get none', async () => {
    const status: string[] = [];
    const c = capture();
    await run(['--length', '8k', '--head-dim', '128'], { ...c.io, status: (t: string) => status.push(t) });
    assert.ok(
      status.some((t) => /^\[\s*\d+%\] computing b\*\(8192, 128\)/.test(t)),
      status.join(' | '),
    );
    assert.equal(status[status.length - 1], '');
    assert.ok(!c.err.some((t) => /%\]/.test(t)), 'no progress on plain stderr');
  });

  it('--base: validity and lmax with the documented keys', async () => {
    const c = capture();
    assert.equal(await run(['--base', '5e5', '--length', '32768', '--head-dim', '128', '--json'], c.io), 0);
    const j = JSON.parse(c.out.join(''));
    assert.deepEqual(Object.keys(j).sort(), ['base', 'bstar', 'headDim', 'length', 'lmax', 'ms', 'threshold', 'valid', 'validAbove'].sort());
    assert.equal(j.lmax, lmax(5e5, 128, 32768));
    assert.equal(j.lmax, 18438);
    assert.equal(j.valid, false);
    assert.equal(j.bstar, bstar(32768, 128).bstar);
  });

  it('human output names the backend and the certificate', async () => {
    const c = capture();
    await run(['--length', '1024', '--head-dim', '128'], c.io);
    const text = c.out.join('\n');
    assert.match(text, /b\*\(L = 1024, d = 128\) = 4293\.43/);
    assert.match(text, /backend: cpu/);
    assert.match(text, /certificate/);
  });

  it('usage and input errors are clear', async () => {
    await assert.rejects(run(['--length', '1024'], capture().io), UsageError);
    await assert.rejects(run(['--length', 'abc', '--head-dim', '128'], capture().io), UsageError);
    await assert.rejects(run(['--length', '1024', '--head-dim', '128', '--backend', 'tpu'], capture().io), UsageError);
    // Without WebGPU (ROPE_LENS_WEBGPU=0 behaves as a machine without the package or an adapter), gpu is refused.
    process.env.ROPE_LENS_WEBGPU = '0';
    try {
      await assert.rejects(
        run(['--length', '1024', '--head-dim', '128', '--backend', 'gpu'], capture().io),
        (e: unknown) => e instanceof RopeError && /gpu backend unavailable: WebGPU disabled/.test(e.message),
      );
    } finally {
      delete process.env.ROPE_LENS_WEBGPU;
    }
    await assert.rejects(
      run(['--length', '1024', '--head-dim', '127'], capture().io),
      (e: unknown) => e instanceof RopeError && e.code === 'invalid-dimension',
    );
    await assert.rejects(
      run(['--base', '1', '--length', '1024', '--head-dim', '128'], capture().io),
      (e: unknown) => e instanceof RopeError && e.code === 'invalid-base',
    );
  });

  it('lengths use 1k = 1024, and the table rows are seed 001 (1k … 1M)', () => {
    assert.equal(parseLength('4k', 'L'), 4096);
    assert.equal(parseLength('1M', 'L'), 1 << 20);
    assert.equal(parseLength('1000', 'L'), 1000);
    assert.equal(PUBLISHED_TABLE.length, 11);
    assert.deepEqual(PUBLISHED_TABLE[10], { label: '1M', length: 1 << 20, thisPost: 6.5e7, original: 5.1e8 });
    assert.deepEqual(PUBLISHED_TABLE[1], { label: '2k', length: 2048, thisPost: 1.2e4, original: 1.6e4 });
  });
});
