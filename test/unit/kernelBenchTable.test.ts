/**
 * `rope-lens bench --kernels` prints a table that fits a 100-column terminal whatever the adapter's
 * name or a failure's message, and loses nothing: each long cell is cut at a word and its full text
 * is a numbered note below the table. (The real CLI's output is checked in
 * test/integration/kernelBenchCli.test.ts.)
 */
import { strict as assert } from 'node:assert';
import { formatRun, TABLE_WIDTH, wrap } from '../../shared/kernelBench/format';
import type { BenchRun, CaseResult } from '../../shared/kernelBench/runner';
import { rowLines } from '../bench/report';

/** Columns as a terminal counts them (code points: ×, ±, … and – are one column each). */
const columns = (line: string) => [...line].length;

function result(over: Partial<CaseResult>): CaseResult {
  return {
    id: 'k',
    label: 'RoPE rotate-half 512×8×128',
    kind: 'rope',
    impl: 'TypeScript',
    backend: 'JS loop (float32 data)',
    elements: 524288,
    bytes: 4194304,
    samplesMs: [3.3, 3.4],
    medianMs: 3.36,
    minMs: 3.3,
    maxMs: 3.4,
    spreadPct: 1.2,
    elementsPerSec: 156e6,
    gbPerSec: 1.32,
    ratioToMemcpy: 0.1,
    maxAbsError: 1.08e-7,
    relError: 7.66e-8,
    ...over,
  } as CaseResult;
}

const adapter = 'WebGPU: llvmpipe-llvm-15-0-6-256-bits- (OpenGL version OpenGL ES 3.2 Mesa 22.3.6), WebGPU on opengles, software rasterizer';
const refusal = `not run on a software rasterizer (${adapter}) unless asked for: --only webgpu`;

const run: BenchRun = {
  settings: { warmup: 2, repeats: 7 },
  environment: `Node v20.20.2 on Intel(R) Xeon(R) Processor ×2; gpu.js 2.24.1; no GPU context (no headless-gl (WebGL) context in this Node process, so gpu.js would not run on a GPU); ${adapter}`,
  memcpyGBs: 12.7,
  totalMs: 1030,
  results: [
    result({ kind: 'memcpy', label: 'memory copy (2.0 MiB)', impl: 'TypedArray.set', backend: 'JS', ratioToMemcpy: 1, maxAbsError: 0 }),
    result({}),
    result({
      impl: 'gpu.js (default mode)',
      backend: 'WebAssemblyKernel',
      medianMs: 123456.7,
      spreadPct: 149.5,
      elementsPerSec: 4.2e12,
      ratioToMemcpy: 0.000123,
    }),
    result({ label: 'f_b(m) scan 8 bases × 8192 m', kind: 'fb-scan', backend: 'float64 block recurrence (b* engine)', gbPerSec: null, ratioToMemcpy: null }),
    result({ impl: 'WebGPU (WGSL)', backend: adapter, error: refusal, maxAbsError: null }),
    result({ label: 'device buffer copy (16 MiB × 16)', impl: 'WebGPU', backend: adapter, error: refusal, maxAbsError: null }),
  ] as CaseResult[],
} as BenchRun;

describe('kernel bench table', () => {
  const text = formatRun(run);
  const lines = text.split('\n');

  it(`every line fits ${TABLE_WIDTH} columns`, () => {
    for (const l of lines) assert.ok(columns(l) <= TABLE_WIDTH, `${columns(l)} columns: ${l}`);
  });

  it('every result has its row under its kernel, and every long text is a note in full', () => {
    for (const r of run.results)
      assert.ok(
        lines.some((l) => l.startsWith(`  ${r.impl}`)),
        r.impl,
      );
    const labels = [...new Set(run.results.map((r) => r.label))];
    assert.deepEqual(
      lines.filter((l) => labels.includes(l)),
      labels,
      'one heading per kernel, in run order',
    );
    const notes = text.slice(text.lastIndexOf('\n\n[1] ')).replace(/\n {4}/g, ' ');
    for (const long of [adapter, `error: ${refusal}`, 'float64 block recurrence (b* engine)']) assert.ok(notes.includes(long), long);
    assert.equal(notes.split(adapter).length - 1, 2, 'the adapter has one note of its own (and appears inside the refusal), not one per row');
  });

  it('a failed case says so in place of its timing', () => {
    const row = lines.find((l) => l.startsWith('  WebGPU (WGSL)'))!;
    assert.match(row, /error… \[\d\]/);
    assert.doesNotMatch(row, /ms ±/);
  });

  it('wrap keeps words whole, indents continuation lines and splits a word longer than a line', () => {
    assert.deepEqual(wrap('aa bb cc', 5, ' '), ['aa bb', ' cc']);
    assert.deepEqual(wrap('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
    for (const l of wrap(`${adapter} ${'x'.repeat(250)}`, 40, '    ')) assert.ok(l.length <= 40, l);
  });
});

describe('npm run bench rows', () => {
  it(`a row whose note does not fit beside it wraps below it, within ${TABLE_WIDTH} columns, losing no word`, () => {
    const note = `${adapter} · 37.2 M elem/s · 0.316 GB/s (0.021× memcpy) · 0.42× the TS baseline · max err 1.49e-7`;
    const lines = rowLines({ name: 'RoPE rotate-half 512×8×128 · gpu.js (default mode)'.slice(0, 44), value: '14.1 ms ±3%', note });
    assert.ok(lines.length > 2);
    for (const l of lines) assert.ok(columns(l) <= TABLE_WIDTH, `${columns(l)} columns: ${l}`);
    assert.equal(lines.slice(1).join(' ').replace(/\s+/g, ' ').trim(), note);
    assert.deepEqual(rowLines({ name: 'memory copy', value: '12.7 GB/s', note: 'read + write' }).length, 1, 'a short note stays beside its row');
  });
});
