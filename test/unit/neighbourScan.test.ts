/**
 * Neighbour files read for consumer pins (shared/serving/pins.ts, shared/node/consumerPins.ts):
 * image references are found token by token, pathological neighbours are bounded and the caps are
 * said, and a neighbour is re-read when its mtime or size changes, not on a timer.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_NEIGHBOUR_BYTES, MAX_NEIGHBOUR_LINE_CHARS } from '../../shared/core/limits';
import { nodeWorkspaceFacts } from '../../shared/node/consumerPins';
import { pinsFromImageRefs, pinsFromNeighbour } from '../../shared/serving/pins';

const show = (pins: { pkg: string; version: string | null }[]) => pins.map((p) => `${p.pkg}@${p.version}`);

describe('neighbour scans', () => {
  it('image references are read wherever a token holds one: quoted, after =, before a digest or AS', () => {
    const text = [
      'FROM docker.io/vllm/vllm-openai:v0.6.3 AS base',
      '  "image": "lmsysorg/sglang:v0.4.6.post1-cu124",',
      'docker run --image=ghcr.io/huggingface/text-generation-inference:2.4.1 x',
      'FROM ollama/ollama@sha256:0123abcd',
      'echo notanimage/vllm-openai:1.0 python:3.11',
    ].join('\n');
    assert.deepEqual(show(pinsFromImageRefs(text, 'Dockerfile')), ['vllm@0.6.3', 'sglang@0.4.6', 'tgi@2.4.1', 'ollama@null']);
  });

  it('a long word without "/" and a long hex line find nothing (and are skipped by the line cap)', () => {
    const word = 'ab12'.repeat(50_000);
    assert.deepEqual(pinsFromImageRefs(`RUN echo ${word}\n`, 'Dockerfile'), []);
    const { pins, notes } = pinsFromNeighbour('Dockerfile', `FROM vllm/vllm-openai:v0.6.3\nRUN echo ${word}\nRUN echo ${word}\n`, '/w/Dockerfile');
    assert.deepEqual(show(pins), ['vllm@0.6.3']);
    assert.equal(notes.length, 1);
    assert.match(notes[0], /^\/w\/Dockerfile: 2 lines \(from line 2\) are longer than 16 K characters, skipped/);
  });

  it('a pin on an over-long line is not read, a pin on the next line keeps its line number', () => {
    const long = `FROM vllm/vllm-openai:v0.6.3 ${'x'.repeat(MAX_NEIGHBOUR_LINE_CHARS)}`;
    const { pins, notes } = pinsFromNeighbour('compose.yaml', `${long}\nimage: lmsysorg/sglang:v0.4.6\n`, 'compose.yaml');
    assert.deepEqual(
      pins.map((p) => `${p.pkg}@${p.source}`),
      ['sglang@compose.yaml:2'],
    );
    assert.match(notes[0], /line 1 is longer than/);
  });

  it('a neighbour over the byte cap is not read, and says so', () => {
    const { pins, notes } = pinsFromNeighbour('requirements.txt', `vllm==0.6.1\n${'#'.repeat(MAX_NEIGHBOUR_BYTES)}`, 'requirements.txt');
    assert.deepEqual(pins, []);
    assert.match(notes[0], /requirements\.txt: larger than 2 MB, not read/);
  });

  it('Node facts: an edited neighbour is re-read at once (mtime/size), notes are kept per checked file', () => {
    const root = mkdtempSync(join(tmpdir(), 'rope-lens-neighbours-'));
    try {
      const config = join(root, 'config.json');
      writeFileSync(join(root, 'requirements.txt'), 'vllm==0.6.1\n');
      writeFileSync(join(root, 'run.sh'), `echo ${'q'.repeat(MAX_NEIGHBOUR_LINE_CHARS + 1)}\n`);
      // A clock that never moves: only the file's own change can make it re-read.
      const facts = nodeWorkspaceFacts(60_000, () => 0);
      assert.deepEqual(show(facts.pinsFor(config)), ['vllm@0.6.1']);
      assert.equal(facts.notesFor?.(config).length, 1);
      writeFileSync(join(root, 'requirements.txt'), 'vllm==0.10.2\n');
      assert.deepEqual(show(facts.pinsFor(config)), ['vllm@0.10.2']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
