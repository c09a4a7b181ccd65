/**
 * LitGPT's built-in architectures (`model_name` in `litgpt pretrain`), as its `litgpt/config.py`
 * defines them (Lightning-AI/litgpt at 26857050fe3f; Config defaults: block_size 4096, n_embd 4096,
 * n_head 32, rope_base 10000, rotary_percentage 0.25). `litgpt pretrain --model_name X` builds X from
 * scratch: the name is an architecture, not a checkpoint to resolve (advice.md situation 5). Only the
 * RoPE-relevant values, for the families people pretrain from the config hub.
 */
export interface LitGptArchitecture {
  blockSize: number;
  nEmbd: number;
  nHead: number;
  rotaryPercentage: number;
  ropeBase: number;
}

const DEFAULTS = { blockSize: 4096, nEmbd: 4096, nHead: 32, rotaryPercentage: 0.25, ropeBase: 10000 };

const BUILTINS: Record<string, Partial<LitGptArchitecture>> = {
  'micro-llama-300M': { blockSize: 2048, nEmbd: 1024, nHead: 16, rotaryPercentage: 1 },
  'tiny-llama-1.1b': { blockSize: 2048, nEmbd: 2048, nHead: 32, rotaryPercentage: 1 },
  'pythia-14m': { blockSize: 512, nEmbd: 128, nHead: 4 },
  'pythia-31m': { blockSize: 1024, nEmbd: 256, nHead: 8 },
  'pythia-70m': { blockSize: 2048, nEmbd: 512, nHead: 8 },
  'pythia-160m': { blockSize: 2048, nEmbd: 768, nHead: 12 },
  'pythia-410m': { blockSize: 2048, nEmbd: 1024, nHead: 16 },
  'pythia-1b': { blockSize: 2048, nEmbd: 2048, nHead: 8 },
  'pythia-1.4b': { blockSize: 2048, nEmbd: 2048, nHead: 16 },
  'pythia-2.8b': { blockSize: 2048, nEmbd: 2560 },
  'pythia-6.9b': { blockSize: 2048 },
  'pythia-12b': { blockSize: 2048, nEmbd: 5120, nHead: 40 },
};

/** The built-in architecture named `name` (LitGPT's `-chat`/dedup variants share their base's values), or undefined. */
export function litGptBuiltin(name: string): LitGptArchitecture | undefined {
  const key = name.trim().replace(/-(chat|deduped)(-v\d+(\.\d+)?)?$/i, '');
  const entry = BUILTINS[key];
  return entry ? { ...DEFAULTS, ...entry } : undefined;
}
