/**
 * Planner benchmark: one plan for Llama-3-8B (b = 5e5, d = 128, T = 8192) to 2^20 tokens, in one
 * stage and in Gradient's three stages, and the generalised bound alone (lmaxOfFrequencies on YaRN's
 * effective frequencies, a full valid scan at 2^20). Target: a 1M plan in a few seconds.
 */
import { BenchReport } from './report';
import { buildPlan } from '../../shared/planner/plan';
import { lmaxOfFrequencies } from '../../shared/bstar/index';
import { computeFrequencies } from '../../shared/rope/invFreq';
import { parseJsonDocument } from '../../shared/document/parseJson';
import { readModelRope } from '../../shared/config/modelConfig';

function timed<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

const LLAMA3 = JSON.stringify({
  model_type: 'llama',
  hidden_size: 4096,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  max_position_embeddings: 8192,
  rope_theta: 500000.0,
});
const TARGET_S = 5;

export async function runBench(report: BenchReport): Promise<void> {
  const row = report.section('rope-lens plan: Llama-3-8B to 2^20 (float64, 1 thread)');
  const rope = readModelRope(parseJsonDocument(LLAMA3))!;
  const model = { label: 'meta-llama/Meta-Llama-3-8B', from: 'bench', rope };
  for (const stages of [undefined, [65536, 262144]]) {
    const t = timed(() => buildPlan(model, { target: 1 << 20, stages }));
    const last = t.value.stages[t.value.stages.length - 1];
    row({
      name: `plan 8k → 1M, ${t.value.stages.length} stage${t.value.stages.length > 1 ? 's' : ''}`,
      value: `${(t.wall / 1000).toFixed(3)} s`,
      note: `cpu ${(t.cpu / 1000).toFixed(3)} s; ${last.options.length} options per stage; recommended ${last.recommended}; target ≤ ${TARGET_S} s ${t.wall <= TARGET_S * 1000 ? 'met' : 'MISSED'}`,
    });
  }
  const yarn = computeFrequencies({
    ropeType: 'yarn',
    base: 5e5,
    rotaryDim: 128,
    factor: 128,
    originalMaxPositionEmbeddings: 8192,
    maxPositionEmbeddings: 1 << 20,
  }).invFreq;
  const linear = computeFrequencies({ ropeType: 'linear', base: 5e5, rotaryDim: 128, factor: 128, maxPositionEmbeddings: 1 << 20 }).invFreq;
  for (const [name, f] of [
    ['YaRN s=128', yarn],
    ['linear s=128', linear],
  ] as const) {
    const t = timed(() => lmaxOfFrequencies(f, 1 << 20));
    row({
      name: `lmaxOfFrequencies ${name}, L=2^20`,
      value: `${(t.wall / 1000).toFixed(3)} s`,
      note: `cpu ${(t.cpu / 1000).toFixed(3)} s; first failing m = ${t.value ?? 'none (valid: full scan)'}`,
    });
  }
}
