/**
 * Launch files in `npm run bench`: readLaunchFile on a 10,000-line deployment script, a 5 MB
 * one-line command, and a Dockerfile and a compose file holding that line, against a 20-line
 * launch script read the same way. Wall time (what
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
  const line = hugeOneLine();
  const cases: [string, string, string][] = [
    ['20-line launch script', 'bench.sh', small],
    ['10,000-line script (390 KB)', 'bench.sh', longScript()],
    ['5 MB one-line command', 'bench.sh', line],
    ['Dockerfile with a 5 MB CMD line', 'Dockerfile', `FROM vllm/vllm-openai\nCMD ${line}`],
    ['compose file with a 5 MB command', 'compose.yaml', `services:\n  v:\n    image: vllm/vllm-openai\n    command: ${line}`],
  ];
  readLaunchFile(small, 'warm.sh', { shell });
  let base = 0;
  for (const [label, fileName, text] of cases) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 9; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const f = readLaunchFile(text, fileName, { shell });
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (!f?.invocations.length && !f?.problems.some((p) => p.partial)) throw new Error(`${label}: neither a launch nor a partial-read problem`);
    }
    const ms = median(wall);
    if (!base) base = ms;
    row({ name: label, value: `${ms.toFixed(1)} ms`, note: `CPU ${median(cpu).toFixed(1)} ms; ${(ms / base).toFixed(1)}× the 20-line script; budget 200 ms` });
  }
}
