/**
 * The Inspector's chart (d) from the real bound computer (the server's worker, dist/bstarWorker.js):
 * on the CPU a coarser map that the caption states, with `--backend gpu` (llvmpipe here, where it gives
 * an adapter) the 2,048-base map, every L_max the float64 scan's; the threshold marker proven.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createBoundComputer } from '../../server/boundComputer';
import { CachedBoundOracle } from '../../server/boundOracle';
import { inspectorData } from '../../server/inspector';
import { GPU_MAP_POINTS, mapPoints } from '../../shared/inspector/mapResolution';
import { lmaxCapped } from '../../shared/inspector/validity';
import { DEFAULT_SETTINGS } from '../../shared/protocol/settings';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { BoundEngine } from '../../shared/node/engine';

const root = join(__dirname, '..', '..');
const L = 4096;

async function panel(backend: 'cpu' | 'gpu') {
  const computer = createBoundComputer(backend);
  const oracle = new CachedBoundOracle(computer, () => {});
  try {
    const text = readFileSync(join(root, 'test', 'fixtures', 'configs', 'llama-2-7b-hf.json'), 'utf8');
    const doc = TextDocument.create('file:///w/llama/config.json', 'json', 1, text);
    const service = createRopeLensService({ oracle: createSyncOracle() });
    const r = await inspectorData(doc, { uri: doc.uri, controls: { targetLength: L }, waitForExact: true }, service, oracle, DEFAULT_SETTINGS);
    assert.ok(r.ok, r.ok ? '' : r.message);
    return r;
  } finally {
    await oracle.dispose();
  }
}

describe('Inspector chart (d) from the server bound computer', function () {
  this.timeout(300_000);
  before(function () {
    if (!existsSync(join(root, 'dist', 'bstarWorker.js'))) this.skip();
    process.env.EGL_PLATFORM ??= 'surfaceless';
  });

  it('cpu: the coarser map, stated, exact; the threshold proven', async () => {
    const r = await panel('cpu');
    const v = r.data.validity!;
    assert.equal(r.exactPending, false);
    assert.equal(v.bases.length, mapPoints('cpu', L, 128));
    assert.match(v.engine, /on the CPU \(requested \(--backend cpu\); a hardware GPU draws more bases\)/);
    for (let k = 0; k < v.bases.length; k += 11) assert.equal(v.lmax[k], lmaxCapped(v.bases[k], 128, L));
    assert.match(v.note ?? '', /threshold proven/);
  });

  it('gpu (llvmpipe): 2,048 bases, each L_max the float64 scan’s', async function () {
    const engine = new BoundEngine();
    const info = await engine.gpuInfo(128, true);
    await engine.dispose();
    if (!info.available || !info.precise) {
      console.log(`      skipped: ${info.reason}`);
      this.skip();
    }
    const r = await panel('gpu');
    const v = r.data.validity!;
    assert.equal(v.bases.length, GPU_MAP_POINTS);
    assert.match(v.engine, /on the GPU \(requested \(--backend gpu\)/);
    for (let k = 0; k < v.bases.length; k += 37) assert.equal(v.lmax[k], lmaxCapped(v.bases[k], 128, L), `${v.bases[k]}`);
  });
});
