// Placeholder until the 'bstar' benchmark suite lands.
import { BenchReport } from './report';
export async function runBench(_report: BenchReport): Promise<void> {}
