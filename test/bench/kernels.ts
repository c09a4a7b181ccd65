// Placeholder until the 'kernels' benchmark suite lands.
import { BenchReport } from './report';
export async function runBench(_report: BenchReport): Promise<void> {}
