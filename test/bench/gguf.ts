/**
 * GGUF header reads in `npm run bench`: `rope-lens check` on a 4 GiB and a 16 GiB file whose tensor
 * data is declared but never written (sparse), against the same header alone; the ratio shows that
 * the file's size does not enter the cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BenchReport } from './report';
import { readGgufMetadata } from '../../shared/node/readGguf';
import { analyzeGguf } from '../../shared/service/analyzeGguf';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { ggufHeader, writeGguf, qwen25InstructMetadata } from '../gguf/writeGguf';

async function median(f: () => Promise<void>, n = 9): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await f();
    t.push(performance.now() - s);
  }
  return t.sort((a, b) => a - b)[Math.floor(n / 2)];
}

export async function runBench(report: BenchReport): Promise<void> {
  const row = report.section('GGUF header check (read metadata + analysis)');
  const dir = mkdtempSync(join(tmpdir(), 'rope-lens-bench-gguf-'));
  try {
    const oracle = createSyncOracle();
    const header = ggufHeader(qwen25InstructMetadata(), [{ name: 'token_embd.weight', dims: [3584, 152064], ggmlType: 0, offset: 0n }]);
    const sizes: [string, number][] = [
      ['header only', header.length],
      ['4 GiB file', 4 * 1024 ** 3],
      ['16 GiB file', 16 * 1024 ** 3],
    ];
    let base = 0;
    for (const [label, size] of sizes) {
      const p = join(dir, `${label.replace(/\W+/g, '-')}.gguf`);
      writeGguf(p, header, size);
      const ms = await median(async () => {
        analyzeGguf(await readGgufMetadata(p), { oracle });
      });
      if (!base) base = ms;
      row({ name: label, value: `${ms.toFixed(2)} ms`, note: `${(ms / base).toFixed(2)}× the header-only read` });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
