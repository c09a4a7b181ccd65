/** Large and hostile launch scripts, generated, for the hostile-input tests and `npm run bench`. */

/** A 10,000-line deployment script: logging helpers, checks, assignments, loops; one vLLM launch near the end. */
export function longScript(lines = 10_000): string {
  const out: string[] = ['#!/usr/bin/env bash', 'set -euo pipefail', 'MODEL=Qwen/Qwen2.5-7B-Instruct', 'MAX_LEN=32768', ''];
  let i = 0;
  while (out.length < lines - 12) {
    i++;
    out.push(
      `log_step_${i}() {`,
      `  echo "[$(date +%H:%M:%S)] step ${i}: checking node health and disk usage" >&2`,
      `  if [ -d "/data/shard_${i}" ]; then du -sh "/data/shard_${i}" | awk '{print $1}'; fi`,
      '}',
      `RETRIES_${i}=$(( ${i} % 5 + 1 ))`,
      `for n in 1 2 3; do log_step_${i} "$n" || sleep 1; done`,
      `# keep going even when shard ${i} is missing`,
      '',
    );
  }
  out.push(
    'export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1',
    'CUDA_VISIBLE_DEVICES=0,1 exec vllm serve "$MODEL" \\',
    '    --tensor-parallel-size 2 \\',
    '    --max-model-len "$MAX_LEN" \\',
    '    --port 8000',
  );
  while (out.length < lines) out.push('# end');
  return out.join('\n') + '\n';
}

/** One command line of about `size` characters: a launch with a huge inline argument list. */
export function hugeOneLine(size = 5 * 1024 * 1024): string {
  const head = 'vllm serve Qwen/Qwen2.5-7B --max-model-len 8192';
  const pad = ' --served-model-name alias_0123456789';
  return head + pad.repeat(Math.ceil((size - head.length) / pad.length)) + '\n';
}
