/**
 * Launch files in `npm run bench`: readLaunchFile on a 10,000-line deployment script and on a
 * 5 MB one-line command, against a 20-line launch script read the same way. Wall time (what
 * the editor waits) and CPU time (what the machine's load does not inflate), medians of 9.
 */
import { performance } from 'node:perf_hooks';
import { BenchReport } from './report';
import { readLaunchFile } from '../../shared/launch/index';
import { loadShellParser } from '../../shared/node/shellParser';
import { hugeOneLine, longScript } from '../launch/hostileScripts';

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

export async function runBench(report: BenchReport): Promise<void> {
  const row = report.section('Launch files: readLaunchFile (shell, tree-sitter-bash)');
  const shell = await loadShellParser();
  const small = longScript(20);
  const cases: [string, string][] = [
    ['20-line launch script', small],
    ['10,000-line script (390 KB)', longScript()],
    ['5 MB one-line command', hugeOneLine()],
  ];
  readLaunchFile(small, 'warm.sh', { shell });
  let base = 0;
  for (const [label, text] of cases) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 9; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const f = readLaunchFile(text, 'bench.sh', { shell });
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (!f?.invocations.length) throw new Error(`${label}: the launch was not found`);
    }
    const ms = median(wall);
    if (!base) base = ms;
    row({ name: label, value: `${ms.toFixed(1)} ms`, note: `CPU ${median(cpu).toFixed(1)} ms; ${(ms / base).toFixed(1)}× the 20-line script; budget 200 ms` });
  }
}
