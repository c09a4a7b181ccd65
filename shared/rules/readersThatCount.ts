/**
 * Which readers of a config.json count when a rule judges it (docs/judgement.md, "Which readers
 * count"): the current release of each actively maintained consumer, every reader the workspace
 * shows (a pin in requirements or lock files, an image tag, `pip install x==`, a launch file that
 * starts it) and those `.rope-lens.yaml` / `--consumer` name (they arrive as pins too).
 * The file's `transformers_version` records what *saved* it, not what will load it: it is a fact
 * for the hover and the consumers table, and is deliberately not an input here.
 */
import type { ConsumerId, ConsumerReading } from '../serving/consumer';
import type { ConsumerPin } from '../serving/pins';
import { pinFor } from './consumerPins';

/**
 * The rows that model a consumer's current release, with why. Rows not listed are an older
 * generation (transformers 4.x, vLLM < 0.24, SGLang's 2025 releases on transformers 4.x) or a
 * consumer that counts only where the workspace launches it (TGI, in maintenance since 2025;
 * Ollama, which loads GGUF files, not config.json).
 */
const CURRENT: Partial<Record<ConsumerId, string>> = {
  'transformers-5': 'transformers 5.x is the current release line, the one a fresh install gets',
  // vllm/transformers_utils/config.py @ 0036026: v0.24 on refuses transformers 4.x.
  vllm: 'vLLM ≥ 0.24 is the current vLLM line',
  // convert_hf_to_gguf.py (master) is what people convert with; releases are daily builds.
  'llama.cpp': "llama.cpp's converter (master) is current",
};
// SGLang is not listed: its row models the 2025 releases that read rope_theta/rope_scaling through
// transformers 4.x. Current SGLang runs on transformers 5 and reads rope_parameters first
// (python/sglang/srt/utils/hf_transformers_utils.py::get_rope_config), as the transformers 5.x row does.

export interface ReaderStanding {
  counts: boolean;
  /** Why it counts ("the workspace uses vllm 0.6.1 (requirements.txt:2)"), or why not. */
  why: string;
  /** The pin that puts it in use, if any. */
  pin?: ConsumerPin;
}

/** Whether `row` is a reader that will really load the file. */
export function standingOf(row: ConsumerReading, pins: readonly ConsumerPin[] | undefined): ReaderStanding {
  const pin = pinFor(row, pins);
  if (pin) return { counts: true, pin, why: `the workspace uses ${pin.pkg}${pin.version ? ` ${pin.version}` : ''} (${pin.source})` };
  const current = CURRENT[row.consumer];
  if (current) return { counts: true, why: current };
  return { counts: false, why: `no file in the workspace pins or launches ${row.label}` };
}

/** Whether `row` models a current release (counts with no pin). */
export function isCurrentReader(row: ConsumerReading): boolean {
  return CURRENT[row.consumer] !== undefined;
}
