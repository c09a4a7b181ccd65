/**
 * The one WebGPU adapter probe (shared/node/adapterProbe.ts), with stand-in child scripts instead of
 * dist/webgpuProbe.js, so no GPU library is needed: both fronts (async for the engine, sync for the b*
 * worker) read the child's answer the same way, say how a silent child ended, and pass the child's
 * stderr (Dawn's lines) on only with ROPE_LENS_NATIVE_LOG=1.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AdapterProbe, NATIVE_LOG_ENV, probeAdapter, probeAdapterNow } from '../../shared/node/adapterProbe';

const INFO = { backend: 'vulkan', vendor: 'v', architecture: 'a', device: 'd', description: 'stand-in', software: false };

describe('the WebGPU adapter probe (stand-in children)', () => {
  let dir = '';
  const script = (name: string, body: string) => {
    const p = join(dir, name);
    writeFileSync(p, body);
    return p;
  };
  /** What the probe wrote to our stderr while `f` ran. */
  async function stderrOf<T>(f: () => T | Promise<T>): Promise<{ value: T; said: string }> {
    const write = process.stderr.write;
    let said = '';
    process.stderr.write = ((chunk: string | Uint8Array) => {
      said += String(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      return { value: await f(), said };
    } finally {
      process.stderr.write = write;
    }
  }
  /** Both fronts on one script: they must give the same answer. */
  async function both(p: string): Promise<AdapterProbe> {
    const now = probeAdapterNow(p);
    assert.deepEqual(await probeAdapter(p), now);
    return now;
  }

  const saved = { log: process.env[NATIVE_LOG_ENV], webgpu: process.env.ROPE_LENS_WEBGPU };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-probe-'));
  });
  beforeEach(() => {
    delete process.env[NATIVE_LOG_ENV];
    delete process.env.ROPE_LENS_WEBGPU;
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const [k, v] of [
      [NATIVE_LOG_ENV, saved.log],
      ['ROPE_LENS_WEBGPU', saved.webgpu],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('reads the last JSON line of the answer; the child gets EGL_PLATFORM=surfaceless', async () => {
    const p = script(
      'answers.js',
      `console.log('noise'); console.log(JSON.stringify({ info: null, reason: 'first' }));
       console.log(JSON.stringify({ info: { ...${JSON.stringify(INFO)}, description: process.env.EGL_PLATFORM }, reason: '' }));`,
    );
    assert.deepEqual(await both(p), { info: { ...INFO, description: process.env.EGL_PLATFORM ?? 'surfaceless' }, reason: '' });
  });

  it('a child that ends without an answer: how it ended, with its last stderr line', async () => {
    const failed = await both(script('fails.js', `console.error('Warning: no luck'); process.exit(3);`));
    assert.deepEqual(failed, { info: null, reason: 'the WebGPU probe did not answer (exit 3: Warning: no luck)' });
    const killed = await both(script('killed.js', `process.kill(process.pid, 'SIGKILL');`));
    assert.deepEqual(killed, { info: null, reason: 'the WebGPU probe did not answer (killed by SIGKILL)' });
  });

  it("the child's stderr stays off ours unless ROPE_LENS_NATIVE_LOG=1, then prefixed [webgpu]", async () => {
    const p = script('logs.js', `console.error('Warning: Couldn\\'t load Vulkan'); console.log(JSON.stringify({ info: null, reason: 'none' }));`);
    const quiet = await stderrOf(() => probeAdapterNow(p));
    assert.deepEqual(quiet, { value: { info: null, reason: 'none' }, said: '' });
    process.env[NATIVE_LOG_ENV] = '1';
    const sync = await stderrOf(() => probeAdapterNow(p));
    assert.equal(sync.said, "[webgpu] Warning: Couldn't load Vulkan\n");
    const async = await stderrOf(() => probeAdapter(p));
    assert.equal(async.said, "[webgpu] Warning: Couldn't load Vulkan\n");
  });

  it('no child without the script or with ROPE_LENS_WEBGPU=0', async () => {
    assert.match((await both(join(dir, 'missing.js'))).reason, /WebGPU probe script not found at .*missing\.js/);
    process.env.ROPE_LENS_WEBGPU = '0';
    assert.deepEqual(probeAdapterNow(script('never.js', 'process.exit(9)')), { info: null, reason: 'WebGPU disabled by ROPE_LENS_WEBGPU=0' });
  });
});
