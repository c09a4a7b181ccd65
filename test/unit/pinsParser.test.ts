/**
 * The workspace scans' pin parser on a worker thread (shared/node/pinsParser.ts, dist/pinsWorker.js):
 * it reads exactly what pins.ts reads on this thread, and a worker that cannot start leaves the
 * parser working on this thread.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PinsParser } from '../../shared/node/pinsParser';
import { pinsFromNeighbour } from '../../shared/serving/pins';

const SCRIPT = join(__dirname, '..', '..', 'dist', 'pinsWorker.js');
const DOCKERFILE = `FROM vllm/vllm-openai:v0.6.3\nRUN pip install "transformers==4.44.2"\nRUN echo ${'ab12'.repeat(5000)}\n`;
const REQUIREMENTS = Array.from({ length: 3000 }, (_, i) => `pkg${i}==1.0.${i}`).join('\n') + '\nvllm==0.6.3\n';

describe('pins parser on a worker thread', () => {
  it('answers as pins.ts does on this thread (pins, sources, notes), for several files at once', async function () {
    if (!existsSync(SCRIPT)) this.skip();
    const parser = new PinsParser(SCRIPT);
    try {
      const [docker, req] = await Promise.all([
        parser.parse('Dockerfile', DOCKERFILE, '/w/Dockerfile'),
        parser.parse('requirements.txt', REQUIREMENTS, '/w/requirements.txt'),
      ]);
      assert.deepEqual(docker, pinsFromNeighbour('Dockerfile', DOCKERFILE, '/w/Dockerfile'));
      assert.deepEqual(
        docker.pins.map((p) => `${p.pkg}@${p.version}`),
        ['vllm@0.6.3', 'transformers@4.44.2'],
      );
      assert.deepEqual(req, pinsFromNeighbour('requirements.txt', REQUIREMENTS, '/w/requirements.txt'));
      assert.deepEqual(
        req.pins.map((p) => p.source),
        ['requirements.txt:3001'],
      );
    } finally {
      await parser.dispose();
    }
  });

  it('a worker that cannot start: the file in flight fails, the next ones are parsed on this thread', async () => {
    const logs: string[] = [];
    const parser = new PinsParser(join(__dirname, 'no-such-worker.js'), (l) => logs.push(l));
    const first = await parser.parse('requirements.txt', 'vllm==0.6.3\n', '/w/requirements.txt').then(
      (p) => p,
      (e: Error) => e,
    );
    const second = await parser.parse('requirements.txt', 'vllm==0.6.3\n', '/w/requirements.txt');
    assert.deepEqual(
      second.pins.map((p) => `${p.pkg}@${p.version}`),
      ['vllm@0.6.3'],
    );
    // Whether the start failed at once or on the worker's first turn, it is said, and nothing hangs.
    assert.match(logs.join('\n'), /the pins worker failed, parsing on the server's thread/);
    if (!(first instanceof Error)) assert.deepEqual(first, second);
    await parser.dispose();
  });
});
